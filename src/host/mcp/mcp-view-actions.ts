// What a person can do with a server in the MCP Servers view — Restart, Disable / Enable, Show Output
// (its stderr and connection notes, scrubbed by the manager), Browse Tools (runs one through Run Tool),
// Browse Resources (its resources and prompts; a resource can be copied or attached to the chat),
// Attach Resource to Chat — and the status bar item that warns while a server is down. Commands take
// the view's node, a server name, or nothing (then they ask which server).
import * as vscode from 'vscode';
import type { ContextChip } from '../../core/chat/chat-protocol';
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
  /** Puts chips into the chat's composer (showing the chat). */
  attachToChat: (chips: ContextChip[]) => Promise<void>;
}

type ResourceInfo = NonNullable<Awaited<ReturnType<McpViewHost['manager']['resources']>>>[number];

export function mcpViewCommands(d: McpViewActionDeps): Record<string, (target?: Target, uri?: string) => Promise<unknown>> {
  const pick = async (target: Target, placeHolder: string): Promise<string | undefined> => {
    if (typeof target === 'string') return target;
    if (target) return target.kind === 'server' ? target.name : target.server;
    const rows = d.view.rows();
    const chosen = await vscode.window.showQuickPick(rows.map((r) => ({ label: r.name, description: r.state })), { placeHolder });
    return chosen?.label;
  };
  /** Reads the resource through the server's connection (capped, scrubbed) and puts it in the chat's composer. */
  const attach = async (server: string, uri: string): Promise<ContextChip | undefined> => {
    const read = await d.host.manager.readResource(server, uri);
    if (!read) return undefined;
    const chip: ContextChip = { kind: 'resource', server, path: uri, text: read.text, origin: 'user' };
    await d.attachToChat([chip]);
    if (read.truncated) void vscode.window.showWarningMessage(`Pincer: the resource ${uri} is long; the chat gets its first part only.`);
    return chip;
  };
  const pickResource = async (server: string, resources: readonly ResourceInfo[]): Promise<string | undefined> => {
    const chosen = await vscode.window.showQuickPick(resources.map((r) => ({ label: r.name, description: r.mimeType, detail: r.uri, uri: r.uri })), {
      placeHolder: `${server}: attach which resource to the chat?`, matchOnDetail: true,
    });
    return chosen?.uri;
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
      type Item = vscode.QuickPickItem & { uri?: string; prompt?: string };
      const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
      const items: Item[] = [
        ...(resources?.length ? [separator('Resources'), ...resources.map((r) => ({ label: r.name, description: r.mimeType, detail: `${r.uri}${r.description ? ` — ${r.description}` : ''}`, uri: r.uri }))] : []),
        ...(prompts?.length ? [separator('Prompts'), ...prompts.map((p) => ({
          label: p.name, description: p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', '), detail: p.description, prompt: p.name,
        }))] : []),
      ];
      const chosen = await vscode.window.showQuickPick(items, {
        placeHolder: `${name}: ${resources?.length ?? 0} resource(s), ${prompts?.length ?? 0} prompt(s) — pick a resource to attach or copy, a prompt to copy its name`, matchOnDetail: true,
      });
      if (chosen?.uri !== undefined) {
        const how = await vscode.window.showQuickPick(['Attach to Chat', 'Copy URI'], { placeHolder: `${chosen.label}: ${chosen.uri}` });
        if (how === 'Attach to Chat') await attach(name, chosen.uri);
        else if (how === 'Copy URI') await vscode.env.clipboard.writeText(chosen.uri);
      } else if (chosen?.prompt !== undefined) await vscode.env.clipboard.writeText(chosen.prompt);
      return { resources, prompts };
    },
    /** `uri` given (a test, another command): that resource; else the person picks one of the server's. */
    'pincer.mcp.attachResource': async (t, uri?: string) => {
      const name = await pick(t, 'Attach a resource of which MCP server?');
      if (!name) return undefined;
      if (uri === undefined) {
        const resources = await d.host.manager.resources(name);
        if (!resources?.length) return vscode.window.showInformationMessage(`Pincer: the MCP server "${name}" lists no resources.`);
        uri = await pickResource(name, resources);
      }
      return uri === undefined ? undefined : attach(name, uri);
    },
  };
}

/** The status bar's warning as shown: its text and tooltip while a server is down, undefined while hidden. */
export interface McpStatus extends vscode.Disposable {
  readonly shown: { text: string; tooltip: string } | undefined;
}

/**
 * A warning in the status bar while a server is down (disconnected, or gave up reconnecting); a click
 * opens the view. The item is created the first time a server is down: most windows never show it, and
 * creating it (four calls to the workbench) cost the first tool call ~1 ms in the extension host.
 */
export function mcpStatusBar(view: McpServersView): McpStatus {
  let item: vscode.StatusBarItem | undefined;
  const created = () => {
    if (item) return item;
    item = vscode.window.createStatusBarItem('pincer.mcpStatus', vscode.StatusBarAlignment.Left, 0);
    item.name = 'Pincer MCP Servers';
    item.command = `${MCP_VIEW_ID}.focus`;
    item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    return item;
  };
  let shown: McpStatus['shown'];
  const update = () => {
    const down = view.down();
    if (!down.length) {
      shown = undefined;
      return item?.hide();
    }
    shown = {
      text: `$(warning) MCP: ${down.length === 1 ? `${down[0].name} is down` : `${down.length} servers down`}`,
      tooltip: down.map((r) => `${r.name}: ${r.error ?? 'disconnected'}`).join('\n'),
    };
    const shownItem = created();
    shownItem.text = shown.text;
    shownItem.tooltip = shown.tooltip;
    shownItem.show();
  };
  update();
  const sub = view.onDidChangeTreeData(update);
  return { get shown() { return shown; }, dispose: () => { item?.dispose(); sub.dispose(); } };
}
