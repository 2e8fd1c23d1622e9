// Skills in the editor: the core finds, parses and serves them (src/core/skills, through the one
// toolset); this file gives it VS Code's ports — the workspace folders and their trust, watchers on
// every place skills live (so a new or changed SKILL.md is there without a reload), a modal question
// before publish_skill copies a skill into the person's own, the skills the person turned off (kept in
// the extension's global state: a choice about their own agent, in every workspace), how often each
// skill was loaded (kept there too, for the Skills view) — and says what
// is wrong with a broken SKILL.md (its file and field) once, with a button to open it.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { SkillCatalog } from '../../core/skills/skill-catalog';
import type { PublishRequest } from '../../core/skills/publish-skill-tool';
import { USER_SKILL_DIR } from '../../core/skills/skill-sources';
import { countUse, type SkillUsage } from '../../core/skills/skill-usage';
import type { Toolset, ToolsetPorts } from '../../core/toolset';
import { SkillsView, type SkillNode } from './skills-view';

const DISABLED_KEY = 'pincer.skills.disabled';
const USAGE_KEY = 'pincer.skills.usage';
/** A checkout or an unzip changes many files at once: one look at the disk after they settle. */
const SETTLE_MS = 200;

export interface SkillsHost extends vscode.Disposable {
  catalog: SkillCatalog;
  /** What the toolset reads (ToolsetPorts.skills). */
  port: NonNullable<ToolsetPorts['skills']>;
  view: SkillsView;
  /**
   * Starts watching; every change rebuilds this toolset (use_skill's list) and the view. The watchers
   * and the first report of broken skills start through `later` (the window's after-first-call queue:
   * ~1-2 ms of the first tool call); a skill read before they started is read again then.
   */
  attach(toolset: Toolset, later?: (work: () => void) => void): void;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function createSkillsHost(context: vscode.ExtensionContext, folders: () => readonly string[], log: vscode.LogOutputChannel): SkillsHost {
  const home = os.homedir();
  const disabled = () => context.globalState.get<string[]>(DISABLED_KEY, []);
  // Whether anything read the skills yet (every read asks for the folders): one read before the
  // watchers started may have missed a change, so it is read again when they start.
  let looked = false;
  const catalog = new SkillCatalog({ folders: () => ((looked = true), folders()), home, trusted: () => vscode.workspace.isTrusted, disabled });
  const usage = () => context.globalState.get<SkillUsage>(USAGE_KEY, {});
  const view = new SkillsView(catalog, disabled, usage);
  const subs: vscode.Disposable[] = [view];
  let watchers: vscode.Disposable[] = [];
  let timer: NodeJS.Timeout | undefined;
  let reported = new Set<string>();

  const report = () => {
    const read = catalog.current();
    for (const s of read.skipped) log.info(`skills in ${s.dir} not loaded: ${s.reason}`);
    const now = new Set(read.problems);
    for (const p of read.problems) {
      log.warn(`skill: ${p}`);
      if (reported.has(p)) continue;
      const file = /^(.+?SKILL\.md):/.exec(p)?.[1];
      void vscode.window.showWarningMessage(`Pincer: skill: ${p}`, ...(file ? ['Open File'] : [])).then((pick) => {
        if (pick && file) void vscode.window.showTextDocument(vscode.Uri.file(file));
      });
    }
    reported = now;
  };
  const soon = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      catalog.invalidate();
    }, SETTLE_MS);
  };
  const watch = () => {
    watchers.forEach((w) => w.dispose());
    const patterns = [
      ...folders().map((f) => new vscode.RelativePattern(f, '{.pincer,.github,.claude}/skills/**')),
      new vscode.RelativePattern(vscode.Uri.file(path.join(home, USER_SKILL_DIR)), '**'),
    ];
    watchers = patterns.flatMap((p) => {
      const w = vscode.workspace.createFileSystemWatcher(p);
      return [w, w.onDidChange(soon), w.onDidCreate(soon), w.onDidDelete(soon)];
    });
  };

  const confirmPublish = async ({ skill, dest, files, replacing }: PublishRequest): Promise<boolean> => {
    const action = replacing ? 'Replace' : 'Publish';
    const pick = await vscode.window.showWarningMessage(`Publish the skill "${skill.name}" to your own skills?`, {
      modal: true,
      detail: `${files.length} file${files.length === 1 ? '' : 's'} from ${skill.dir} will be copied to ${dest}${replacing ? ', replacing the skill there' : ''}. `
        + 'Your skills are offered to the agent in every workspace.',
    }, action);
    return pick === action;
  };

  const nameOf = (arg?: SkillNode | string) => (typeof arg === 'string' ? arg : arg?.kind === 'skill' ? arg.name : undefined);
  const setDisabled = async (arg: SkillNode | string | undefined, off: boolean) => {
    const name = nameOf(arg);
    if (!name) return;
    const now = new Set(disabled());
    if (off) now.add(name);
    else now.delete(name);
    await context.globalState.update(DISABLED_KEY, [...now].sort());
    toolset?.rebuild();
    view.refresh();
  };

  let toolset: Toolset | undefined;
  let changes = 0;
  let disposed = false;
  subs.push(catalog.onDidChange.on(() => {
    changes++;
    toolset?.rebuild();
    view.refresh();
    report();
  }) as vscode.Disposable);

  return {
    catalog, view,
    port: {
      catalog, confirmPublish,
      used: (name) => void context.globalState.update(USAGE_KEY, countUse(usage(), name, Date.now())).then(() => view.refresh()),
    },
    attach(t, later = (work) => work()) {
      toolset = t;
      later(() => {
        if (disposed) return;
        watch();
        subs.push(
          vscode.workspace.onDidChangeWorkspaceFolders(() => {
            watch();
            catalog.invalidate();
          }),
          vscode.workspace.onDidGrantWorkspaceTrust(() => catalog.invalidate()),
        );
        // A change reported by the new read is reported by the change's own handler.
        const before = changes;
        if (looked) catalog.invalidate();
        if (changes === before) report();
      });
    },
    commands: {
      'pincer.skills.open': async (arg?: SkillNode | string) => {
        const skill = catalog.current().skills.find((s) => s.name === nameOf(arg));
        if (skill) await vscode.window.showTextDocument(vscode.Uri.file(skill.file));
      },
      'pincer.skills.disable': (arg?: SkillNode | string) => setDisabled(arg, true),
      'pincer.skills.enable': (arg?: SkillNode | string) => setDisabled(arg, false),
      'pincer.skills.refresh': () => {
        catalog.invalidate();
        view.refresh();
      },
      // With a query (another extension, a test) it answers the names found and shows nothing.
      'pincer.skills.search': async (query?: string) => {
        if (query !== undefined) return catalog.search(query, 20).map((s) => s.name);
        const q = await vscode.window.showInputBox({ prompt: 'Search skills by what they do', placeHolder: 'e.g. release notes' });
        if (!q) return undefined;
        const found = catalog.search(q, 20);
        if (!found.length) {
          void vscode.window.showInformationMessage(`Pincer: no skill matches "${q}".`);
          return [];
        }
        const pick = await vscode.window.showQuickPick(found.map((s) => ({ label: s.name, description: s.source === 'user' ? 'your skills' : 'workspace', detail: s.description })), { title: `Skills matching "${q}"` });
        if (pick) await vscode.window.showTextDocument(vscode.Uri.file(found.find((s) => s.name === pick.label)!.file));
        return found.map((s) => s.name);
      },
    },
    dispose: () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      watchers.forEach((w) => w.dispose());
      subs.forEach((s) => s.dispose());
    },
  };
}
