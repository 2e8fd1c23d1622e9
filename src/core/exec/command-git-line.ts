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

/** The folder a `.git` file names (`gitdir: <path>`: a submodule's, a linked worktree's, a `--separate-git-dir` clone's). */
const gitdirLine = (text: string): string | undefined => /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
const firstLine = (text: string): string => text.trim();

/** The remotes in git dir `gd`: its own config, or a linked worktree's common dir's (`commondir`). */
function gitDirRemotes(gd: string): Remotes | undefined {
  const r = readCached(path.join(gd, 'config'), remotes);
  if (r) return r;
  const common = readCached(path.join(gd, 'commondir'), firstLine);
  return common ? readCached(path.join(path.resolve(gd, common), 'config'), remotes) : undefined;
}

/**
 * The remotes of the repository whose top folder is `d`, when it is one: a `.git` folder, a `.git` file
 * whose `gitdir:` line names where the repository is (read relative to `d`, as git does), or a bare
 * repository (`HEAD` and `config` in `d` itself). Every read is memoised by modification time.
 */
export function remotesIn(d: string): Remotes | undefined {
  const own = readCached(path.join(d, '.git', 'config'), remotes);
  if (own) return own;
  const gd = readCached(path.join(d, '.git'), gitdirLine);
  if (gd) return gitDirRemotes(path.resolve(d, gd));
  return readCached(path.join(d, 'HEAD'), firstLine) !== undefined ? readCached(path.join(d, 'config'), remotes) : undefined;
}

/** The repository on disk nearest to `dir` (up to `root`): its folder and remotes. */
export function repoAt(dir: string, root: string): { at: string; remotes: Remotes } | undefined {
  for (const d of upTo(dir, root)) {
    const r = remotesIn(d);
    if (r) return { at: d, remotes: r };
  }
  return undefined;
}

export function normalUrl(u: string): string {
  return u.replace(/\.git\/?$/, '').replace(/^(https?|ssh|git):\/\/([^@/]*@)?/, '').replace(/^[^@/]+@([^:]+):/, '$1/').replace(/:\d+\//, '/').toLowerCase();
}

/**
 * Key prefix of a repository the line made or re-pointed at a place known only at run time (after `cd
 * "$(mktemp -d)"`), followed by the folder it was given there (`.` for that place itself).
 */
const SOMEWHERE = '?';

/** Where the line's repository in folder `folder` is, for a git command working in `dir` (undefined: known only at run time). */
function placeFor(dir: string | undefined, folder: string): string {
  if (path.isAbsolute(folder)) return path.resolve(folder);
  return dir === undefined ? SOMEWHERE + path.normalize(folder).replace(/[\\/]+$/, '') : path.resolve(dir, folder);
}

/**
 * A repository the line made somewhere known only at run time that may be `d`: one given a folder
 * (past any `..`) that `d` ends with. One made in that place itself (`.`) may be anywhere: matched only
 * by a push whose place is unknown too (madeHere in command-git-remotes.ts merges the line then).
 */
function somewhere(line: RepoLine, d: string): LineRepo | undefined {
  for (const [key, r] of line) {
    if (!key.startsWith(SOMEWHERE)) continue;
    const tail = key.slice(SOMEWHERE.length).replace(/^(\.\.[\\/])+/, '');
    if (tail !== '' && tail !== '.' && tail !== '..' && d.endsWith(path.sep + tail)) return r;
  }
  return undefined;
}

/**
 * The nearest folder from `dir` up to the filesystem's root that the line recorded (or that may be one
 * it made somewhere unknown), unless a repository on disk is nearer: `at` with the line's record, or
 * `at` alone for the one on disk. Not bounded by the workspace root: `git clone URL ../o && cd ../o/docs`.
 */
function lineEntry(line: RepoLine, dir: string): { at: string; made?: LineRepo } | undefined {
  for (let d = dir; ;) {
    const made = line.get(d) ?? somewhere(line, d);
    if (made) return { at: d, made };
    if (remotesIn(d)) return { at: d };
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/** The repository a git command run in `dir` works in, when the line made it or gave it a remote. */
export function lineRepoAt(line: RepoLine | undefined, dir: string): LineRepo | undefined {
  if (!line || line.size === 0) return undefined;
  return lineEntry(line, dir)?.made;
}

const isSep = (c: string): boolean => c === '/' || (path.sep === '\\' && c === '\\');

/**
 * The folders `git clone URL` (or `git submodule add URL`) may make when none is named, guessed as git
 * does (git_url_basename): past the scheme and a user before the host; trailing separators, blanks and a
 * `/.git` part dropped; a lone host's `:port` dropped (`https://evil.example:8443` → `evil.example`); the
 * last part, `:` counting as a separator; then `.git` stripped, or `.bundle` when the source is a bundle
 * file (known only on disk: both names are kept); `--bare`/`--mirror` add `.git`. None: git stops.
 */
export function cloneFolders(url: string, bare: boolean): string[] {
  const scheme = url.indexOf('://');
  let s = scheme < 0 ? url : url.slice(scheme + 3);
  // A user: up to the last `@` before the first separator.
  let user = -1;
  for (let i = 0; i < s.length && !isSep(s[i]); i++) if (s[i] === '@') user = i;
  s = s.slice(user + 1);
  let end = s.length;
  while (end > 0 && (isSep(s[end - 1]) || /\s/.test(s[end - 1]))) end--;
  if (end > 5 && isSep(s[end - 5]) && s.slice(end - 4, end) === '.git') {
    end -= 5;
    while (end > 0 && isSep(s[end - 1])) end--;
  }
  s = s.slice(0, end);
  if (!s.includes('/') && s.includes(':')) s = s.replace(/:\d*$/, '');
  let start = s.length;
  while (start > 0 && !isSep(s[start - 1]) && s[start - 1] !== ':') start--;
  const last = s.slice(start);
  const names = new Set<string>();
  for (const suffix of ['.git', '.bundle']) {
    const base = last.endsWith(suffix) ? last.slice(0, -suffix.length) : last;
    if (!base || base === '/') continue;
    // git turns each run of blanks and control characters into one space and trims the ends.
    const name = (bare ? `${base}.git` : base).replace(/[\s\p{Cc}]+/gu, ' ').trim();
    if (name) names.add(name);
  }
  return [...names];
}

/**
 * Records that the line made a repository (a clone from `url` under remote `name`, or an empty one) in
 * each of `folders` (the names git may give it; with `--separate-git-dir` its git dir too), for a git
 * command working in `dir` (undefined: known only at run time). One record for all: a remote added
 * through one of them is seen from the others.
 */
export function recordFresh(line: RepoLine, dir: string | undefined, folders: readonly string[], remote?: { name: string; url: string }): void {
  const places = folders.map((f) => placeFor(dir, f));
  const r: LineRepo = places.map((p) => line.get(p)).find((x) => x !== undefined) ?? { fresh: true, remotes: new Map() };
  r.fresh = true;
  if (remote) r.remotes.set(remote.name, [remote.url]);
  for (const p of places) line.set(p, r);
}

/** Records that the line gave remote `name` the URL `url` in the repository a git command in `dir` (undefined: known only at run time) works in. */
export function recordRemote(line: RepoLine, dir: string | undefined, name: string, url: string): void {
  const at = dir === undefined ? placeFor(undefined, '.') : lineEntry(line, dir)?.at ?? dir;
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
