// What a person can do with a server in the MCP Servers view — Restart, Disable / Enable, Show Output
// (its stderr and connection notes, scrubbed by the manager), Browse Tools (runs one through Run Tool),
// Browse Resources (its resources and prompts) — and the status bar item that warns while a server is down. Commands take the
// view's node, a server name, or nothing (then they ask which server).
import * as vscode from 'vscode';
import type { PincerRuntime } from '../../core/runtime';
import type { ResultDocuments } from '../result-documents';
import { MCP_VIEW_ID } from '../ids';
import type { McpServersView, McpTreeNode, McpViewHost } from './mcp-view';
import { setServerDisabled } from './mcp-view-disabled';

type Target = McpTreeNode | string | undefined;

export interface McpViewActionDeps {
  host: McpViewHost;
  view: McpServersView;
  rt: PincerRuntime;
  docs: ResultDocuments;
  state: vscode.Memento;
}

export function mcpViewCommands(d: McpViewActionDeps): Record<string, (target?: Target) => Promise<unknown>> {
  const pick = async (target: Target, placeHolder: string): Promise<string | undefined> => {
    if (typeof target === 'string') return target;
    if (target) return target.kind === 'server' ? target.name : target.server;
    const rows = d.view.rows();
    const chosen = await vscode.window.showQuickPick(rows.map((r) => ({ label: r.name, description: r.state })), { placeHolder });
    return chosen?.label;
  };
  return {
    'pincer.mcp.restartServer': async (t) => {
      const name = await pick(t, 'Restart which MCP server?');
      if (!name) return;
      if (d.host.isLoaded()) await d.host.manager.stop(name);
      await d.host.restart(name);
      d.view.refresh();
    },
    'pincer.mcp.disableServer': async (t) => {
      const name = await pick(t, 'Disable which MCP server in this workspace?');
      if (!name) return;
      await setServerDisabled(d.state, name, true);
      if (d.host.isLoaded()) await d.host.manager.stop(name);
      d.view.refresh();
    },
    'pincer.mcp.enableServer': async (t) => {
      const name = await pick(t, 'Enable which MCP server?');
      if (!name) return;
      await setServerDisabled(d.state, name, false);
      await d.host.restart(name);
      d.view.refresh();
    },
    'pincer.mcp.showServerOutput': async (t) => {
      const name = await pick(t, 'Show the output of which MCP server?');
      if (!name) return undefined;
      const lines = d.host.isLoaded() ? d.host.manager.output(name) : [];
      const text = [`Output of the MCP server "${name}": its stderr and connection notes, secrets scrubbed.`, '', ...(lines.length ? lines : ['(nothing yet)'])].join('\n');
      const uri = d.docs.put(`mcp-${name}-output`, 'txt', text);
      await d.docs.open(uri);
      return uri;
    },
    'pincer.mcp.browseTools': async (t) => {
      const name = await pick(t, 'Browse the tools of which MCP server?');
      const row = d.view.rows().find((r) => r.name === name);
      if (!row) return undefined;
      if (!row.tools.length) return vscode.window.showInformationMessage(`Pincer: the MCP server "${row.name}" has no tools registered (${row.state}).`);
      const chosen = await vscode.window.showQuickPick(row.tools.map((tool) => ({ label: tool, detail: d.rt.registry.get(tool)?.description })), {
        placeHolder: `${row.name}: ${row.tools.length} tool(s) — pick one to run it`, matchOnDetail: true,
      });
      return chosen ? vscode.commands.executeCommand('pincer.runTool', chosen.label) : undefined;
    },
    'pincer.mcp.browseResources': async (t) => {
      const name = await pick(t, 'Browse the resources of which MCP server?');
      if (!name) return undefined;
      const [resources, prompts] = await Promise.all([d.host.manager.resources(name), d.host.manager.prompts(name)]);
      if (!resources?.length && !prompts?.length) return vscode.window.showInformationMessage(`Pincer: the MCP server "${name}" lists no resources and no prompts.`);
      type Item = vscode.QuickPickItem & { copy?: string };
      const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
      const items: Item[] = [
        ...(resources?.length ? [separator('Resources'), ...resources.map((r) => ({ label: r.name, description: r.mimeType, detail: `${r.uri}${r.description ? ` — ${r.description}` : ''}`, copy: r.uri }))] : []),
        ...(prompts?.length ? [separator('Prompts'), ...prompts.map((p) => ({
          label: p.name, description: p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', '), detail: p.description, copy: p.name,
        }))] : []),
      ];
      const chosen = await vscode.window.showQuickPick(items, {
        placeHolder: `${name}: ${resources?.length ?? 0} resource(s), ${prompts?.length ?? 0} prompt(s) — pick one to copy its URI or name`, matchOnDetail: true,
      });
      if (chosen?.copy) await vscode.env.clipboard.writeText(chosen.copy);
      return { resources, prompts };
    },
  };
}

/** A warning in the status bar while a server is down (disconnected, or gave up reconnecting); a click opens the view. */
export function mcpStatusBar(view: McpServersView): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('pincer.mcpStatus', vscode.StatusBarAlignment.Left, 0);
  item.name = 'Pincer MCP Servers';
  item.command = `${MCP_VIEW_ID}.focus`;
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  const update = () => {
    const down = view.rows().filter((r) => r.state === 'disconnected');
    if (!down.length) return item.hide();
    item.text = `$(warning) MCP: ${down.length === 1 ? `${down[0].name} is down` : `${down.length} servers down`}`;
    item.tooltip = down.map((r) => `${r.name}: ${r.error ?? 'disconnected'}`).join('\n');
    item.show();
  };
  update();
  const sub = view.onDidChangeTreeData(update);
  return vscode.Disposable.from(item, sub);
}
