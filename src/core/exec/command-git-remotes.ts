// Where git sends the repository, against the remotes it already has (.git/config, read through
// command-workspace's cache). A push, send-pack or http-push to a URL none of its remotes has is
// exfiltration (deny); to a remote name it does not have, a question. Giving a remote a URL the
// repository does not have is the same re-pointing whichever door it goes through — `git remote
// add/set-url` (`--push`, `--add` too), `git config remote.X.url|pushurl` in either syntax, `git
// clone -c`, `git submodule set-url`, a rewrite (`url.X.pushInsteadOf`), a branch or the push
// default named after a URL — and asks, since every later plain `git push` goes there. A setting
// given for one run (`git -c`, `--config-env`) to a command that sends is where that command sends:
// judged as a push to it. Git LFS's endpoints (`lfs.url`, `remote.X.lfsurl`) and `git lfs push` are
// read the same way. A push from a repository nested in the workspace's (a clone an earlier command
// made, with a `.git` folder or a `.git` file naming its git dir, a bare one, or a submodule) is also
// compared with the workspace repository's remotes.
import path from 'node:path';
import { gitConfigCall } from './command-git-config';
import { cloneFolders, gitFolder, lineRepoAt, NO_REMOTES, normalUrl, recordFresh, recordRemote, remoteOfKey, repoAt, type LineRepo, type Remotes, type RepoLine } from './command-git-line';
import { GIT, GIT_CLONE, GIT_INIT, GIT_PUSH, GIT_REMOTE, GIT_SEND_PACK, GIT_SUBMODULE } from './command-option-tables';
import { hasLong, parseOptions, valuesOf } from './command-options';
import { ask, deny, type Finding, type SegmentView } from './command-view';
import { startsWith } from './command-strings';

function isUrl(s: string): boolean {
  return /^[a-z][\w+.-]*:\/\//i.test(s) || /^[\w.-]+@[\w.-]+:/.test(s) || /^(\/|\.\.?\/|~)/.test(s);
}

/** Subcommands that send objects to the destination they are given or pick (`git lfs push` included). */
const SENDS = /^(push|send-pack|http-push|lfs push)$/;
/**
 * Arguments that make the argv worth parsing: a subcommand read below, or the option of a setting for
 * one run (git takes `-c` only as a word of its own; `--config-env`). A set and a prefix test rather than a
 * regex over every argument: this runs on every git command (`git status` in the judge's bench).
 */
const CONCERNS: ReadonlySet<string> = new Set(['push', 'remote', 'send-pack', 'http-push', 'config', 'clone', 'init', 'lfs', 'submodule', '-c']);
const concerns = (args: readonly string[]): boolean => {
  for (let i = 0; i < args.length; i++) if (CONCERNS.has(args[i]) || startsWith(args[i], '--config')) return true;
  return false;
};
/** Settings whose value is a URL: a remote's, or where Git LFS sends the large files. */
const URL_KEY = /^(remote\..+\.(url|pushurl|lfsurl|lfspushurl)|lfs\.(url|pushurl))$/i;
/** Settings whose value names the remote a push picks; git takes a name no remote has as a URL or a path. */
const NAME_KEY = /^(remote\.pushdefault|branch\..+\.(remote|pushremote))$/i;
/** Rewrites: the URL is in the key (`url.<base>.pushInsteadOf`), every URL starting with the value goes there. */
const REWRITE_KEY = /^url\.(.+)\.(pushinsteadof|insteadof)$/i;

type Place = 'own' | 'unknown name' | 'unknown URL';

/** Where a push to `target` (a remote name, a URL or a path) goes, against the repository's remotes. */
function placeOf(target: string, known: Remotes): Place {
  if (isUrl(target)) return known.urls.has(normalUrl(target)) ? 'own' : 'unknown URL';
  return known.names.has(target) ? 'own' : 'unknown name';
}

/**
 * Where setting `key` to `value` points git, when the key is one that does and the place is not the
 * repository's own; undefined otherwise. `value` undefined: taken from the environment (`--config-env`), unseen.
 */
function repointed(key: string, value: string | undefined, known: Remotes): { to: string; place: Place } | undefined {
  const rewrite = REWRITE_KEY.exec(key);
  const byUrl = rewrite !== null || URL_KEY.test(key);
  if (!byUrl && !NAME_KEY.test(key)) return undefined;
  const to = rewrite ? rewrite[1] : value;
  if (to === undefined) return { to: 'a URL in an environment variable', place: 'unknown URL' };
  const place: Place = byUrl ? (known.urls.has(normalUrl(to)) ? 'own' : 'unknown URL') : to === '.' ? 'own' : placeOf(to, known);
  return place === 'own' ? undefined : { to, place };
}

/** `git -c key=value` / `--config-env key=VAR` for this run: what each re-points, as findings for subcommand `sub`. */
function forThisRun(values: ReadonlyMap<string, string[]>, sub: string, known: Remotes): Finding[] {
  const f: Finding[] = [];
  for (const [option, settings] of values) {
    const unseen = option === 'config-env';
    if (!unseen && option !== '-c') continue;
    for (const s of settings) {
      const eq = s.indexOf('=');
      const r = repointed(eq < 0 ? s : s.slice(0, eq), unseen || eq < 0 ? undefined : s.slice(eq + 1), known);
      if (!r) continue;
      const what = `git ${sub} with ${eq < 0 ? s : s.slice(0, eq)} set to ${r.to} for this run`;
      if (!SENDS.test(sub)) f.push(ask('data_exfiltration', `${what}: a remote pointed where the repository has no remote, for a command (or what it runs) that may push`));
      else f.push(r.place === 'unknown URL' ? deny('data_exfiltration', `${what} sends to a URL this repository has no remote for`) : ask('data_exfiltration', `${what} sends to ${r.to}, a remote this repository does not have`));
    }
  }
  return f;
}

const pointsAt = (how: string, to: string): Finding => ask('data_exfiltration', `${how} points the repository at ${to}, which it does not have as a remote`);

/**
 * What a git argv sends or re-points, against the remotes of the repository it works in. `line`: the
 * repositories this command line made or gave remotes to so far (the judge passes one per decision,
 * in segment order); a push from one of them is judged as a push to the URLs the line gave it, against
 * the remotes of the repository on disk (the workspace's), and this argv's own clone, init or new remote
 * is recorded in it for the segments after.
 */
export function gitRemoteRule(v: SegmentView, cwd: string | undefined, root: string, line?: RepoLine): Finding[] {
  // Most git commands (`git status`, `git log`) hold none of these words: nothing to parse then.
  if (v.name !== 'git' || !concerns(v.args)) return [];
  const o = parseOptions(v.args, GIT);
  const lfsPush = o.operands[0] === 'lfs' && o.operands[1] === 'push';
  const sub = lfsPush ? 'lfs push' : o.operands[0] ?? '';
  const rest = o.operands.slice(lfsPush ? 2 : 1);
  // Where git works: the shell's folder moved by `-C` (or `--git-dir`); unknown after a `cd` to a place known only at run time.
  const dir = cwd === undefined ? undefined : gitFolder(cwd, valuesOf(o, [], 'C'), valuesOf(o, ['git-dir']));
  const repo = repoAt(dir ?? root, root);
  const known = repo?.remotes ?? NO_REMOTES;
  const f = forThisRun(o.values, sub, known);
  if (sub === 'remote') {
    const ro = parseOptions(rest, GIT_REMOTE);
    const [verb, name, url] = ro.operands;
    if ((verb === 'add' || verb === 'set-url' && !hasLong(ro, 'delete')) && url) {
      if (!known.urls.has(normalUrl(url))) f.push(pointsAt(`git remote ${verb}`, url));
      if (line && name) recordRemote(line, dir, name, url);
    }
  } else if (sub === 'submodule' && rest[0] === 'set-url') {
    // The submodule's remote: a push from inside it goes there.
    const url = parseOptions(rest.slice(1), GIT_SUBMODULE).operands[1];
    if (url && !known.urls.has(normalUrl(url))) f.push(pointsAt('git submodule set-url', url));
  } else if (sub === 'submodule' && rest[0] === 'add') {
    const [url, folder] = parseOptions(rest.slice(1), GIT_SUBMODULE).operands;
    if (line && url) recordFresh(line, dir, folder !== undefined ? [folder] : cloneFolders(url, false), { name: 'origin', url });
  } else if (sub === 'config') {
    const c = gitConfigCall(rest);
    const r = c.sets && c.key ? repointed(c.key, c.value, known) : undefined;
    if (r) f.push(pointsAt(`git config ${c.key}`, r.to));
    const remote = c.sets && c.key ? remoteOfKey(c.key) : undefined;
    if (line && remote && c.value) recordRemote(line, dir, remote, c.value);
  } else if (sub === 'clone') {
    // Settings written into the new repository's config; its own source is one of its remotes.
    const co = parseOptions(rest, GIT_CLONE);
    const withSource = { ...known, urls: new Set([...known.urls, ...co.operands.slice(0, 1).map(normalUrl)]) };
    for (const s of valuesOf(co, ['config'], 'c')) {
      const eq = s.indexOf('=');
      const r = eq < 0 ? undefined : repointed(s.slice(0, eq), s.slice(eq + 1), withSource);
      if (r) f.push(pointsAt(`git clone -c ${s.slice(0, eq)}`, r.to));
    }
    const [url, folder] = co.operands;
    // Where it lands: the folder named, else the one git guesses (`x.git` for --bare/--mirror), and a --separate-git-dir.
    const folders = folder !== undefined ? [folder] : url ? cloneFolders(url, hasLong(co, 'bare') || hasLong(co, 'mirror')) : [];
    if (line && url) recordFresh(line, dir, [...folders, ...valuesOf(co, ['separate-git-dir'])], { name: valuesOf(co, ['origin'], 'o')[0] ?? 'origin', url });
  } else if (sub === 'init') {
    const io = parseOptions(rest, GIT_INIT);
    if (line) recordFresh(line, dir, [io.operands[0] ?? '.', ...valuesOf(io, ['separate-git-dir'])]);
  } else if (sub === 'push' || sub === 'lfs push') {
    const ro = parseOptions(rest, GIT_PUSH);
    const target = [...valuesOf(ro, ['repo']), ...ro.operands.slice(0, 1)][0];
    const made = madeHere(line, dir);
    const chosen = made && chosenByLine(made, target);
    if (chosen) {
      // Where this push goes was chosen in this very line: judged as a push to it, against the remotes on disk.
      // Outside the workspace (`git clone URL ../o`) no repository on disk is read: the workspace's remotes are.
      const against = repo ? known : repoAt(root, root)?.remotes ?? NO_REMOTES;
      const unknown = chosen.filter((url) => !against.urls.has(normalUrl(url)));
      for (const url of unknown) f.push(deny('data_exfiltration', `git ${sub} from a repository this command line ${made.fresh ? 'cloned or created' : 'gave a remote'}, to ${url}, a URL the workspace's repository has no remote for`));
      // Among the remotes of a nested repository on disk, but maybe not among the workspace's.
      if (unknown.length === 0) f.push(...fromNested(sub, repo, root, chosen));
    } else {
      const place = target === undefined ? 'own' : placeOf(target, known);
      if (place === 'unknown URL') f.push(deny('data_exfiltration', `git ${sub} to ${target}, a URL this repository has no remote for`));
      if (place === 'unknown name') f.push(ask('data_exfiltration', `git ${sub} to ${target}, a remote this repository does not have`));
      if (place === 'own') f.push(...fromNested(sub, repo, root, pushUrlsOf(known, target)));
    }
  } else if (sub === 'send-pack' || sub === 'http-push') {
    // Their destination is always a URL or a path, never a remote's name.
    const so = parseOptions(rest, GIT_SEND_PACK);
    const dest = so.operands[0];
    if (dest !== undefined && !known.urls.has(normalUrl(dest))) f.push(deny('data_exfiltration', `git ${sub} to ${dest}, a URL this repository has no remote for`));
    else if (dest !== undefined) f.push(...fromNested(sub, repo, root, [dest]));
  }
  return f;
}

/**
 * A push from a repository nested in the workspace's (a clone an earlier command made, a bare one, one
 * with its git dir elsewhere, a submodule: repoAt reads each): that repository's remotes are whatever
 * its clone or `git submodule add` named, so comparing the push with them proves nothing. A submodule is
 * no exception: an earlier command adds one from any URL as easily as it clones.
 * It asks when the push goes where the workspace's repository has no remote (not deny: a dependency
 * cloned into a folder to push a fix upstream is everyday work). Nothing when the push runs in the
 * workspace's repository or the workspace root is no repository (a folder of several repositories).
 */
function fromNested(sub: string, repo: { at: string; remotes: Remotes } | undefined, root: string, urls: readonly string[]): Finding[] {
  if (!repo || urls.length === 0) return [];
  const rel = path.relative(root, repo.at);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const ws = repoAt(root, root)?.remotes;
  if (!ws) return [];
  const foreign = [...new Set(urls.filter((u) => !ws.urls.has(normalUrl(u))))];
  if (foreign.length === 0) return [];
  const hosts = new Set([...ws.urls].map(hostOf));
  const where = foreign.some((u) => !hosts.has(hostOf(normalUrl(u)))) ? 'a host the workspace\'s repository does not use' : 'a repository the workspace\'s repository has no remote for';
  return [ask('data_exfiltration', `git ${sub} from ${rel}, a repository nested in the workspace's (a clone or submodule with remotes of its own), to ${foreign.join(', ')}: ${where}`)];
}

/** The host of a normalised URL (its first part); a path's is empty. */
const hostOf = (normal: string): string => normal.split('/')[0];

/**
 * Where a push to `target` goes from a repository with remotes `r`: a URL given outright, a remote's
 * push URLs, or with no target those of every remote a branch or the push default picks and `origin`
 * (which branch is checked out is not read: any of them may be the one).
 */
function pushUrlsOf(r: Remotes, target: string | undefined): string[] {
  if (target !== undefined) return isUrl(target) ? [target] : r.pushUrls.get(target) ?? [];
  const out: string[] = [];
  for (const p of [...r.picks, 'origin']) out.push(...(isUrl(p) ? [p] : r.pushUrls.get(p) ?? []));
  return out;
}

/**
 * The repository of the line a push in `dir` comes from. With `dir` unknown (a `cd` to a place known
 * only at run time) it may be any the line made: all of them, as one.
 */
function madeHere(line: RepoLine | undefined, dir: string | undefined): LineRepo | undefined {
  if (!line || line.size === 0) return undefined;
  if (dir !== undefined) return lineRepoAt(line, dir);
  const all: LineRepo = { fresh: false, remotes: new Map() };
  for (const r of line.values()) {
    all.fresh ||= r.fresh;
    for (const [name, urls] of r.remotes) all.remotes.set(name, [...(all.remotes.get(name) ?? []), ...urls]);
  }
  return all;
}

/**
 * The URLs the line chose for a push to `target` from `made`: a remote the line named, or with no
 * target the ones the push then takes (every remote of a repository the line made; `origin` of one it
 * only gave remotes to). Undefined when the target is not the line's choice (a URL given outright is
 * judged as such).
 */
function chosenByLine(made: LineRepo, target: string | undefined): string[] | undefined {
  if (target !== undefined) return isUrl(target) ? undefined : made.remotes.get(target);
  if (!made.fresh) return made.remotes.get('origin');
  const urls: string[] = [];
  for (const u of made.remotes.values()) urls.push(...u);
  return urls;
}
