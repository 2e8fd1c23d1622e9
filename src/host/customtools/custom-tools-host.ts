// Custom tools in the editor: the core reads and builds them (src/core/customtools, through the one
// toolset); this file gives it VS Code's ports — `pincer.tools.custom` from user vs workspace settings,
// workspace trust, the `.pincer/tools/*.json` files watched so a change applies without a reload,
// SecretStorage for `${secret:NAME}` values (asked for once, in a password box) — and says what is
// wrong with a definition (its file and field) once, with a button to open the file.
import * as vscode from 'vscode';
import { filesAndFoldersGlob } from '../dir-watchers';
import type { CustomToolSecrets } from '../../core/customtools/custom-tool';
import type { CustomToolDefinition } from '../../core/customtools/definition';
import { CUSTOM_TOOLS_DIR, readCustomTools } from '../../core/customtools/sources';
import type { Toolset } from '../../core/toolset';

const SECRET_PREFIX = 'pincer.customTools.secret.';

export interface CustomToolsHost extends vscode.Disposable {
  /** What the toolset reads (ToolsetPorts.customTools). */
  port: { definitions: () => readonly CustomToolDefinition[]; secrets: CustomToolSecrets };
  /**
   * Builds the tools into this toolset and starts watching (again on every change). The watchers and
   * the first report of broken definitions start through `later` (the window's after-first-call
   * queue); the definitions are read again then, and rebuilt if they changed meanwhile.
   */
  attach(toolset: Toolset, later?: (work: () => void) => void): void;
  /** Reads every definition again and rebuilds; answers how many tools and problems there are. */
  reload(): { tools: number; problems: string[] };
  /** Pincer: Reload Custom Tools — reload, then say how many tools there are and whether any definition is broken. */
  reloadCommand(): { tools: number; problems: string[] };
}

export function createCustomToolsHost(context: vscode.ExtensionContext, folders: () => readonly string[], log: vscode.LogOutputChannel): CustomToolsHost {
  let definitions: readonly CustomToolDefinition[] = [];
  let toolset: Toolset | undefined;
  let reported = new Set<string>();
  const subs: vscode.Disposable[] = [];

  const report = (problems: readonly string[]) => {
    const now = new Set(problems);
    for (const p of problems) {
      log.warn(`custom tool: ${p}`);
      if (reported.has(p)) continue;
      const file = folders().length ? /^(\/[^:]+\.json):/.exec(p)?.[1] : undefined;
      void vscode.window.showWarningMessage(`Pincer: custom tool: ${p}`, ...(file ? ['Open File'] : ['Open Settings'])).then((pick) => {
        if (pick === 'Open File' && file) void vscode.window.showTextDocument(vscode.Uri.file(file));
        else if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'pincer.tools.custom');
      });
    }
    reported = now;
  };

  /** Reads every definition; answers the problems found (rebuilding is the caller's). */
  const read = (): string[] => {
    const cfg = vscode.workspace.getConfiguration('pincer').inspect<unknown>('tools.custom');
    const ws = cfg?.workspaceFolderValue ?? cfg?.workspaceValue;
    const r = readCustomTools({
      user: cfg?.globalValue === undefined ? undefined : { value: cfg.globalValue, file: 'user settings (pincer.tools.custom)' },
      workspace: ws === undefined ? undefined : { value: ws, file: 'workspace settings (pincer.tools.custom)' },
      workspaceFolder: folders()[0], workspaceTrusted: vscode.workspace.isTrusted,
    });
    for (const s of r.skipped) log.info(`custom tools in ${s.file} not loaded: ${s.reason}`);
    definitions = r.definitions;
    return r.problems;
  };
  /** Problems, and the definitions the last build refused (a name already taken), said once each. */
  const settle = (problems: string[]) => {
    const names = new Set(definitions.map((d) => d.name));
    const refused = (toolset?.hidden() ?? []).filter((h) => names.has(h.tool)).map((h) => h.reason);
    report([...problems, ...refused]);
    return { tools: definitions.length - refused.length, problems: [...problems, ...refused] };
  };
  const reload = () => {
    const problems = read();
    toolset?.rebuild();
    return settle(problems);
  };
  // Read now, so the toolset's first build has them (their problems are reported when the watchers start).
  const firstProblems = read();
  let disposed = false;

  const secrets: CustomToolSecrets = {
    async get(name) {
      const stored = await context.secrets.get(SECRET_PREFIX + name);
      if (stored) return stored;
      const answer = await vscode.window.showInputBox({ prompt: `A custom tool needs the secret "${name}" (kept in VS Code's secret storage)`, password: true, ignoreFocusOut: true });
      if (answer) await context.secrets.store(SECRET_PREFIX + name, answer);
      return answer || undefined;
    },
    howToSet: (name) => `VS Code asked the user for "${name}" and got no answer; the next call asks again.`,
  };

  /**
   * Watches the definitions' file and setting; `late`: the watchers start after the first read, so the
   * definitions are read again (a change made in between is seen only so).
   */
  const watch = (late: boolean) => {
    const watchers = folders().slice(0, 1).map((f) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, filesAndFoldersGlob([`${CUSTOM_TOOLS_DIR}/*.json`]))));
    subs.push(
      ...watchers,
      ...watchers.flatMap((w) => [w.onDidChange(() => reload()), w.onDidCreate(() => reload()), w.onDidDelete(() => reload())]),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('pincer.tools.custom')) reload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => reload()),
    );
    if (!late) {
      settle(firstProblems);
      return;
    }
    const before = fingerprint(definitions);
    const problems = read();
    if (fingerprint(definitions) !== before) toolset?.rebuild();
    settle(problems);
  };

  return {
    port: { definitions: () => definitions, secrets },
    reload,
    reloadCommand() {
      const r = reload();
      const broken = r.problems.length ? `; ${r.problems.length} definition(s) not registered (see the warnings and the Pincer Tool Log)` : '';
      void vscode.window.showInformationMessage(`Pincer: ${r.tools} custom tool(s) loaded${broken}.`);
      return r;
    },
    attach(t, later) {
      toolset = t;
      if (later) later(() => (disposed ? undefined : watch(true)));
      else watch(false);
    },
    dispose: () => {
      disposed = true;
      subs.forEach((s) => s.dispose());
    },
  };
}

/** The definitions as read (the zod schema is built from `parameters`, which the fingerprint holds). */
function fingerprint(definitions: readonly CustomToolDefinition[]): string {
  return JSON.stringify(definitions, (key, value: unknown) => (key === 'schema' ? undefined : value));
}
