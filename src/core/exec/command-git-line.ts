// Repositories a command line makes or re-points before it pushes: `git clone URL sub && cd sub && git
// push`, `git init && git remote add origin URL && git push`, `git -C sub push` after either. Their
// remotes were chosen in the same line, so comparing a push with them proves nothing: the judge keeps,
// for one command line, where each such repository is and which remotes the line gave it, and a push
// from it is judged as a push to those URLs (command-git-remotes.ts).
import path from 'node:path';
import { readCached, upTo } from './command-workspace';

/**
 * A repository's remotes as .git/config names them: `names` and `urls` (url and pushurl, normalised)
 * for comparing; `pushUrls` (name → where a push to it goes: its pushurls, else its urls, as written)
 * and `picks` (the remotes or URLs a branch or `remote.pushDefault` names) for where a push goes.
 */
export interface Remotes { names: Set<string>; urls: Set<string>; pushUrls: Map<string, string[]>; picks: string[] }

export interface LineRepo {
  fresh: boolean;
  /** Remote name → the URLs the line gave it. */
  remotes: Map<string, string[]>;
}

/** One command line's repositories, by absolute folder; made per decision by the judge. */
export type RepoLine = Map<string, LineRepo>;

export function newRepoLine(): RepoLine {
  return new Map();
}

/** The remotes in the text of a .git/config (keys in any case, as git reads them). */
function remotes(text: string): Remotes {
  const names = new Set<string>();
  const urls = new Set<string>();
  const fetchUrls = new Map<string, string[]>();
  const pushUrls = new Map<string, string[]>();
  const picks: string[] = [];
  let section: 'remote' | 'branch' | 'remotes' | undefined;
  let current = '';
  for (const line of text.split('\n')) {
    const head = /^\s*\[\s*([\w.-]+)(?:\s+"([^"]*)")?\s*\]/.exec(line);
    if (head) {
      const kind = head[1].toLowerCase();
      section = kind === 'remote' ? (head[2] === undefined ? 'remotes' : 'remote') : kind === 'branch' && head[2] !== undefined ? 'branch' : undefined;
      current = head[2] ?? '';
      if (section === 'remote') names.add(current);
      continue;
    }
    const kv = /^\s*([\w-]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!kv || section === undefined) continue;
    const key = kv[1].toLowerCase();
    if (section === 'remote' && (key === 'url' || key === 'pushurl')) {
      urls.add(normalUrl(kv[2]));
      const into = key === 'url' ? fetchUrls : pushUrls;
      into.set(current, [...(into.get(current) ?? []), kv[2]]);
    } else if (section === 'branch' && (key === 'remote' || key === 'pushremote') || section === 'remotes' && key === 'pushdefault') {
      picks.push(kv[2]);
    }
  }
  for (const [name, u] of fetchUrls) if (!pushUrls.has(name)) pushUrls.set(name, u);
  return { names, urls, pushUrls, picks };
}

/** A folder with no repository: no remotes. */
export const NO_REMOTES: Remotes = { names: new Set<string>(), urls: new Set<string>(), pushUrls: new Map<string, string[]>(), picks: [] };

/** The repository on disk nearest to `dir` (up to `root`): its folder and remotes. A `.git` file (a submodule's) has no `.git/config` under it: passed over. */
export function repoAt(dir: string, root: string): { at: string; remotes: Remotes } | undefined {
  for (const d of upTo(dir, root)) {
    const r = readCached(path.join(d, '.git', 'config'), remotes);
    if (r) return { at: d, remotes: r };
  }
  return undefined;
}

export function normalUrl(u: string): string {
  return u.replace(/\.git\/?$/, '').replace(/^(https?|ssh|git):\/\/([^@/]*@)?/, '').replace(/^[^@/]+@([^:]+):/, '$1/').replace(/:\d+\//, '/').toLowerCase();
}

/**
 * The repository a git command run in `dir` works in, when the line made it or gave it a remote: the
 * nearest folder from `dir` up to `root` that the line recorded, unless a repository on disk is nearer.
 */
export function lineRepoAt(line: RepoLine | undefined, dir: string, root: string): LineRepo | undefined {
  if (!line || line.size === 0) return undefined;
  for (const d of upTo(dir, root)) {
    const r = line.get(d);
    if (r) return r;
    if (readCached(path.join(d, '.git', 'config'), remotes)) return undefined;
  }
  return undefined;
}

/** The folder `git clone URL` makes when no folder is named: the URL's last part without `.git`. */
export function cloneFolder(url: string): string {
  const last = url.replace(/[/\\]+$/, '').replace(/\.git$/, '').replace(/[/\\]+$/, '').split(/[/\\:]/).pop() ?? '';
  return last || 'repository';
}

/** Records that the line made a repository in `dir` (a clone from `url` under remote `name`, or an empty one). */
export function recordFresh(line: RepoLine, dir: string, remote?: { name: string; url: string }): void {
  const r: LineRepo = line.get(dir) ?? { fresh: true, remotes: new Map() };
  r.fresh = true;
  if (remote) r.remotes.set(remote.name, [remote.url]);
  line.set(dir, r);
}

/** Records that the line gave remote `name` the URL `url` in the repository a git command in `dir` works in. */
export function recordRemote(line: RepoLine, dir: string, root: string, name: string, url: string): void {
  let at = dir;
  for (const d of upTo(dir, root)) {
    if (line.has(d) || readCached(path.join(d, '.git', 'config'), remotes)) { at = d; break; }
  }
  const r: LineRepo = line.get(at) ?? { fresh: false, remotes: new Map() };
  r.remotes.set(name, [...(r.remotes.get(name) ?? []), url]);
  line.set(at, r);
}

/** The folder a git command works in: `cwd` moved by each `-C`, or the repository `--git-dir` names. */
export function gitFolder(cwd: string, cs: readonly string[], gitDirs: readonly string[]): string {
  let dir = cwd;
  for (const c of cs) dir = path.resolve(dir, c);
  const gd = gitDirs[gitDirs.length - 1];
  if (gd !== undefined) {
    const abs = path.resolve(dir, gd);
    return path.basename(abs) === '.git' ? path.dirname(abs) : abs;
  }
  return dir;
}

/** `remote.NAME.url` / `remote.NAME.pushurl`: the remote a setting gives a URL to. */
export function remoteOfKey(key: string): string | undefined {
  return /^remote\.(.+)\.(url|pushurl)$/i.exec(key)?.[1];
}
