// Agents of this window: `.pincer/agents/*.md` in every workspace folder (watched), the
// pincer.agents setting, and read-only the Copilot and Claude Code agent files people already have,
// fed to the core AgentRegistry. Problems in an agent file are warned once
// each, naming the file and the field.
import * as vscode from 'vscode';
import { AgentRegistry } from '../../core/agents/agent-registry';
import type { ForeignFormat } from '../../core/agents/foreign-tools';

const AGENT_GLOB = '.pincer/agents/*.md';
const FOREIGN_GLOBS: readonly { format: ForeignFormat; glob: string }[] = [
  { format: 'copilot', glob: '.github/agents/*.agent.md' },
  { format: 'claude', glob: '.claude/agents/*.md' },
];

export class AgentsHost implements vscode.Disposable {
  readonly registry = new AgentRegistry();
  private readonly disposables: vscode.Disposable[] = [];
  private loading: Promise<void> | undefined;

  constructor(private readonly warn: (m: string) => void) {
    this.registry.setSettings(vscode.workspace.getConfiguration('pincer').get('agents'));
    const reload = () => void this.reload();
    for (const glob of [AGENT_GLOB, ...FOREIGN_GLOBS.map((g) => g.glob)]) {
      const watcher = vscode.workspace.createFileSystemWatcher(`**/${glob}`);
      this.disposables.push(watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload));
    }
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('pincer.agents')) {
          this.registry.setSettings(vscode.workspace.getConfiguration('pincer').get('agents'));
          this.report();
        }
      }),
    );
  }

  /** Resolves once the workspace's agent files have been read (first call starts the read). */
  ready(): Promise<void> {
    return (this.loading ??= this.reload());
  }

  reload(): Promise<void> {
    this.loading = (async () => {
      const files = await this.read(AGENT_GLOB);
      const foreign = [];
      for (const { format, glob } of FOREIGN_GLOBS) foreign.push(...(await this.read(glob)).map((f) => ({ ...f, format })));
      this.registry.setWorkspace(files);
      this.registry.setForeign(foreign);
      this.report();
    })();
    return this.loading;
  }

  /** The files matching `glob` in every workspace folder, sorted, with their text. */
  private async read(glob: string): Promise<{ file: string; text: string }[]> {
    const files: { file: string; text: string }[] = [];
    // An untrusted repository does not get to define agents (their tool policies, their instructions).
    const folders = vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders ?? [] : [];
    for (const folder of folders) {
      const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), null, 200);
      for (const uri of uris.sort((a, b) => a.toString().localeCompare(b.toString()))) {
        try {
          files.push({ file: uri.scheme === 'file' ? uri.fsPath : uri.toString(), text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) });
        } catch (e) {
          this.warn(`agent file ${uri.fsPath} could not be read: ${(e as Error).message}`);
        }
      }
    }
    return files;
  }

  private report(): void {
    for (const p of this.registry.problems) this.warn(p);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
