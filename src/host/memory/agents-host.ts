// Agents of this window: `.pincer/agents/*.md` in every workspace folder (watched), the
// pincer.agents setting, and read-only the Copilot and Claude Code agent files people already have,
// fed to the core AgentRegistry. Problems in an agent file are warned once
// each, naming the file and the field.
import * as path from 'path';
import * as vscode from 'vscode';
import { AgentRegistry } from '../../core/agents/agent-registry';
import type { ForeignFormat } from '../../core/agents/foreign-tools';
import { DirWatchers, filesAndFoldersGlob } from '../dir-watchers';

const AGENT_GLOB = '.pincer/agents/*.md';
const FOREIGN_GLOBS: readonly { format: ForeignFormat; glob: string }[] = [
  { format: 'copilot', glob: '.github/agents/*.agent.md' },
  { format: 'claude', glob: '.claude/agents/*.md' },
];
/** The folders holding agent files (`.github/agents`, …). */
const AGENT_DIRS = [AGENT_GLOB, ...FOREIGN_GLOBS.map((g) => g.glob)].map((g) => g.slice(0, g.lastIndexOf('/')));
/** Those folders and the folders above them. */
const FOLDER_GLOB = `**/${filesAndFoldersGlob(AGENT_DIRS)}`;

export class AgentsHost implements vscode.Disposable {
  readonly registry = new AgentRegistry();
  private readonly disposables: vscode.Disposable[] = [];
  private loading: Promise<void> | undefined;
  private reading: Promise<void> | undefined;
  private again: Promise<void> | undefined;
  private readonly dirs = new DirWatchers(() => void this.reload());

  constructor(private readonly warn: (m: string) => void) {
    this.registry.setSettings(vscode.workspace.getConfiguration('pincer').get('agents'));
    const reload = () => void this.reload();
    for (const glob of [AGENT_GLOB, ...FOREIGN_GLOBS.map((g) => g.glob)]) {
      const watcher = vscode.workspace.createFileSystemWatcher(`**/${glob}`);
      this.disposables.push(watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload));
    }
    // A folder's files are not reported one by one when it comes or goes. A deleted folder is
    // reported alone; a new folder is reported once, and the files written into it before the
    // watcher looked inside (`git checkout`, `mkdir -p … && cp`) are never reported at all.
    const folders = vscode.workspace.createFileSystemWatcher(FOLDER_GLOB, false, true, false);
    this.disposables.push(folders, folders.onDidCreate(reload), folders.onDidDelete(reload), this.dirs);
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

  /**
   * Reads the agent files again. Reads never overlap: a file written in two steps (created empty,
   * then filled) is reported twice, and an earlier read finishing last would put the empty file
   * back. A request while a read runs is answered by one more read after it.
   */
  reload(): Promise<void> {
    if (this.reading) {
      this.again ??= this.reading.catch(() => undefined).then(() => {
        this.again = undefined;
        return this.reload();
      });
      return (this.loading = this.again);
    }
    this.reading = this.readAll().finally(() => (this.reading = undefined));
    return (this.loading = this.reading);
  }

  private async readAll(): Promise<void> {
    const files = await this.read(AGENT_GLOB);
    const foreign = [];
    for (const { format, glob } of FOREIGN_GLOBS) foreign.push(...(await this.read(glob)).map((f) => ({ ...f, format })));
    this.registry.setWorkspace(files);
    this.registry.setForeign(foreign);
    this.report();
    this.dirs.set(this.trustedFolders().filter((f) => f.uri.scheme === 'file').flatMap((f) => AGENT_DIRS.map((d) => path.join(f.uri.fsPath, d))));
  }

  /** An untrusted repository does not get to define agents (their tool policies, their instructions). */
  private trustedFolders(): readonly vscode.WorkspaceFolder[] {
    return vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders ?? [] : [];
  }

  /** The files matching `glob` in every workspace folder, sorted, with their text. */
  private async read(glob: string): Promise<{ file: string; text: string }[]> {
    const files: { file: string; text: string }[] = [];
    for (const folder of this.trustedFolders()) {
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
