// MCP servers in the editor: the core plans and runs them (src/core/mcp); this file gives it VS Code's
// ports — settings (user vs workspace), workspace trust, the start prompt, SecretStorage for
// `${input:id}` answers, the workspace state that remembers which definitions the person allowed —
// and reloads when a definition changes (settings, the MCP files, trust granted). Servers may ask the
// person (elicitation) and, when the chat's model is handed in, the model (sampling; the person allows it).
import * as os from 'os';
import * as vscode from 'vscode';
import { filesAndFoldersGlob } from '../dir-watchers';
import { WORKSPACE_MCP_FILES } from '../../core/mcp/workspace-files';
import type { ModelProvider } from '../../core/agent/model-types';
import type { DestructiveAskDeps } from '../../core/mcp/destructive-ask';
import { answerElicitation } from '../../core/mcp/elicitation';
import { DEFAULT_MAX_EAGER_TOOLS, McpManager } from '../../core/mcp/mcp-manager';
import { answerSampling } from '../../core/mcp/sampling';
import { planMcpServers } from '../../core/mcp/mcp-setup';
import type { McpInput } from '../../core/mcp/server-definition';
import { definitionFingerprint } from '../../core/mcp/trust';
import type { PincerRuntime } from '../../core/runtime';
import { alwaysAllowedTools, askSampling, elicitationAsker, workspaceSet } from './mcp-client-requests';
import { McpStartPrompt } from './mcp-start-prompt';
import { disabledServers } from './mcp-view-disabled';

const APPROVED_KEY = 'pincer.mcp.approved';

export interface McpHost extends vscode.Disposable {
  manager: McpManager;
  prompt: McpStartPrompt;
  /** Reads the definitions again and starts what should run (the MCP Servers view's Restart and Enable). */
  reload(): Promise<void>;
  /** Like reload, but a server whose start the person declined is asked about again. */
  restart(server: string): Promise<void>;
}

/** `chatModel`: the chat's current model; without it, sampling is not offered to servers. */
export function registerMcp(
  context: vscode.ExtensionContext, rt: PincerRuntime, log: vscode.LogOutputChannel, folders: () => readonly string[], approvals: DestructiveAskDeps, warn: (m: string) => void,
  chatModel?: () => Promise<{ provider: ModelProvider; model: string } | undefined>,
): McpHost {
  const samplers = workspaceSet(context.workspaceState, 'pincer.mcp.samplingAllowed');
  const manager = new McpManager({
    registry: rt.registry, scrubber: rt.scrubber, roots: folders, clientVersion: String(context.extension.packageJSON.version),
    approvals: { ...approvals, alwaysAllowed: alwaysAllowedTools(context.workspaceState) },
    log: (server, line) => log.info(`[mcp ${server}] ${line}`),
    maxEagerTools: () => vscode.workspace.getConfiguration('pincer').get<number>('mcp.maxEagerTools', DEFAULT_MAX_EAGER_TOOLS),
    elicit: (server, params) => answerElicitation(elicitationAsker, server, params),
    ...(chatModel ? { sample: (server, params, signal) => answerSampling({ ask: askSampling, allowedAlways: samplers, model: chatModel }, server, params, signal) } : {}),
  });
  const prompt = new McpStartPrompt();
  const approved = () => context.workspaceState.get<Record<string, string>>(APPROVED_KEY, {});
  const input = async (i: McpInput): Promise<string | undefined> => {
    const key = `pincer.mcp.input.${i.id}`;
    const stored = await context.secrets.get(key);
    if (stored !== undefined) return stored;
    const answer = await vscode.window.showInputBox({ prompt: i.description ?? `Value for the MCP input "${i.id}"`, password: i.password, value: i.default, ignoreFocusOut: true });
    if (answer !== undefined) await context.secrets.store(key, answer);
    return answer;
  };

  const load = async () => {
    const cfg = vscode.workspace.getConfiguration('pincer').inspect<unknown>('mcp.servers');
    const plan = await planMcpServers({
      workspaceFolder: folders()[0], home: os.homedir(), env: process.env,
      userServers: cfg?.globalValue === undefined ? undefined : { value: cfg.globalValue, file: 'user settings (pincer.mcp.servers)' },
      workspaceServers: (cfg?.workspaceFolderValue ?? cfg?.workspaceValue) === undefined ? undefined
        : { value: cfg?.workspaceFolderValue ?? cfg?.workspaceValue, file: 'workspace settings (pincer.mcp.servers)' },
      trust: { workspaceTrusted: vscode.workspace.isTrusted, canAsk: true, approved: (s) => approved()[s] },
      ask: (def, launch) => prompt.ask(def, launch),
      remember: (s, f) => void context.workspaceState.update(APPROVED_KEY, { ...approved(), [s]: f }),
      input,
    });
    for (const p of plan.problems) warn(`MCP configuration: ${p}`);
    for (const s of plan.skipped) log.info(`[mcp ${s.server}] not started: ${s.reason}`);
    // Servers the person disabled in the MCP Servers view stay stopped.
    const off = disabledServers(context.workspaceState);
    const start = plan.start.filter((s) => !off.has(s.def.name));
    // A server whose definition is gone or changed stops; the others keep running.
    const wanted = new Map(start.map((s) => [s.def.name, definitionFingerprint(s.def)]));
    for (const s of manager.status()) {
      const running = manager.definition(s.name);
      if (!running || wanted.get(s.name) !== definitionFingerprint(running.def)) await manager.stop(s.name);
    }
    for (const f of await manager.start(start)) warn(f.error);
  };
  let current = Promise.resolve();
  const reload = () => (current = current.then(load, load).catch((e: unknown) => warn(`MCP: ${(e as Error).message}`)));
  void reload();

  const watchers = folders().slice(0, 1).map((f) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, filesAndFoldersGlob(WORKSPACE_MCP_FILES))));
  const subs: vscode.Disposable[] = [
    ...watchers,
    ...watchers.flatMap((w) => [w.onDidChange(reload), w.onDidCreate(reload), w.onDidDelete(reload)]),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('pincer.mcp.maxEagerTools')) manager.refreshTools();
      if (e.affectsConfiguration('pincer.mcp')) void reload();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
  ];
  return {
    manager, prompt, reload,
    restart: (server) => {
      prompt.reconsider(server);
      return reload();
    },
    dispose: () => {
      subs.forEach((s) => s.dispose());
      prompt.dispose();
      void manager.dispose();
    },
  };
}
