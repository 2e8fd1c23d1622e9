// Rules that compare a command with the workspace it runs in: a package runner (`npx`, `npm exec`,
// `pnpm dlx`, `yarn dlx`, `bunx`) fetching something that is neither a dependency in the nearest
// package.json nor installed in node_modules/.bin asks; a push to a URL the repository has no remote
// for is exfiltration, and to a remote name it does not have asks. The files are read straight from
// the workspace folder (the path guard hides .git from the tools), cached by modification time.
import fs from 'node:fs';
import path from 'node:path';
import { parseOptions } from './command-options';
import { ask, deny, type Finding, type SegmentView } from './command-view';

const cache = new Map<string, { mtimeMs: number; value: unknown }>();
/** A file's modification time (undefined: missing), looked up at most once a second per path: the judge runs often, the workspace changes rarely. */
const stats = new Map<string, { at: number; mtimeMs: number | undefined }>();
const STAT_TTL_MS = 1000;

function mtimeOf(file: string): number | undefined {
  const now = Date.now();
  const hit = stats.get(file);
  if (hit && now - hit.at < STAT_TTL_MS) return hit.mtimeMs;
  let mtimeMs: number | undefined;
  try { mtimeMs = fs.statSync(file).mtimeMs; } catch { mtimeMs = undefined; }
  if (stats.size > 1000) stats.clear();
  stats.set(file, { at: now, mtimeMs });
  return mtimeMs;
}

function readCached<T>(file: string, parse: (text: string) => T): T | undefined {
  const mtimeMs = mtimeOf(file);
  if (mtimeMs === undefined) return undefined;
  const st = { mtimeMs };
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs) return hit.value as T;
  let value: T | undefined;
  try { value = parse(fs.readFileSync(file, 'utf8')); } catch { value = undefined; }
  cache.set(file, { mtimeMs: st.mtimeMs, value });
  return value;
}

/** Folders from `cwd` up to and including `root` (never above it). */
function upTo(cwd: string, root: string): string[] {
  const out: string[] = [];
  let d = cwd;
  for (;;) {
    out.push(d);
    const rel = path.relative(root, d);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) break;
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return out;
}

function dependencies(text: string): Set<string> {
  const pkg = JSON.parse(text) as Record<string, unknown>;
  const names = new Set<string>();
  for (const k of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = pkg[k];
    if (deps && typeof deps === 'object') for (const n of Object.keys(deps)) names.add(n);
  }
  return names;
}

/** The package a runner fetches: `npx -p pkg cmd`, `npx pkg@1 args`, `pnpm dlx pkg`, `npm exec -- pkg`. */
function fetched(v: SegmentView): { pkg: string; alwaysFetches: boolean } | undefined {
  const { name, args } = v;
  let rest: string[] | undefined;
  let always = false;
  if (name === 'npx' || name === 'pnpx' || name === 'bunx') rest = args;
  else if (name === 'npm' && /^(exec|x)$/.test(args.find((a) => !a.startsWith('-')) ?? '')) rest = args.slice(args.findIndex((a) => /^(exec|x)$/.test(a)) + 1);
  else if ((name === 'pnpm' || name === 'yarn') && args.find((a) => !a.startsWith('-')) === 'dlx') { rest = args.slice(args.indexOf('dlx') + 1); always = true; }
  if (!rest) return undefined;
  const o = parseOptions(rest, { shortValue: 'pc', longValue: ['package', 'call', 'cache', 'registry', 'userconfig'], posixOrder: true });
  if ((o.values.get('c') ?? o.values.get('call')) && !(o.values.get('p') ?? o.values.get('package'))) return undefined;
  const pkg = (o.values.get('p') ?? o.values.get('package') ?? [])[0] ?? o.operands[0];
  if (!pkg) return undefined;
  return { pkg: pkg.replace(/(?<=.)@[^/]*$/, ''), alwaysFetches: always };
}

export function packageRunnerRule(v: SegmentView, cwd: string | undefined, root: string): Finding[] {
  const f = fetched(v);
  if (!f || !cwd) return f ? [ask('package_install', `${v.name} fetches and runs ${f.pkg} from the registry`)] : [];
  if (/^[./]/.test(f.pkg)) return [];
  if (!f.alwaysFetches && isLocalPackage(f.pkg, cwd, root)) return [];
  return [ask('package_install', `${v.name} fetches and runs ${f.pkg}, which is not a dependency of this workspace`)];
}

/**
 * Answers of isLocalPackage by folder, then package, kept as long as the file lookups under them
 * (STAT_TTL_MS). Two look-ups of strings the judge already has, not one of a key joined from
 * them: a joined key is a new string to flatten and hash on every call.
 */
const localAnswers = new Map<string, Map<string, { root: string; at: number; local: boolean }>>();

/** `pkg` is installed in node_modules/.bin or a dependency in a package.json from `cwd` up to `root`. */
function isLocalPackage(pkg: string, cwd: string, root: string): boolean {
  const now = Date.now();
  const hit = localAnswers.get(cwd)?.get(pkg);
  if (hit && hit.root === root && now - hit.at < STAT_TTL_MS) return hit.local;
  const bin = pkg.split('/').pop() ?? pkg;
  const local = upTo(cwd, root).some((dir) => mtimeOf(path.join(dir, 'node_modules', '.bin', bin)) !== undefined || readCached(path.join(dir, 'package.json'), dependencies)?.has(pkg) === true);
  if (localAnswers.size > 1000) localAnswers.clear();
  let byPackage = localAnswers.get(cwd);
  if (!byPackage) localAnswers.set(cwd, (byPackage = new Map()));
  if (byPackage.size > 1000) byPackage.clear();
  byPackage.set(pkg, { root, at: now, local });
  return local;
}

/** Remote names and URLs in .git/config (url and pushurl). */
function remotes(text: string): { names: Set<string>; urls: Set<string> } {
  const names = new Set<string>();
  const urls = new Set<string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section) { current = section[1]; names.add(current); continue; }
    if (/^\s*\[/.test(line)) { current = undefined; continue; }
    const url = /^\s*(?:url|pushurl)\s*=\s*(.+?)\s*$/.exec(line);
    if (current && url) urls.add(normalUrl(url[1]));
  }
  return { names, urls };
}

function normalUrl(u: string): string {
  return u.replace(/\.git\/?$/, '').replace(/^(https?|ssh|git):\/\/([^@/]*@)?/, '').replace(/^[^@/]+@([^:]+):/, '$1/').replace(/:\d+\//, '/').toLowerCase();
}

function isUrl(s: string): boolean {
  return /^[a-z][\w+.-]*:\/\//i.test(s) || /^[\w.-]+@[\w.-]+:/.test(s) || /^(\/|\.\.?\/|~)/.test(s);
}

export function gitRemoteRule(v: SegmentView, cwd: string | undefined, root: string): Finding[] {
  // The subcommand is one of the arguments: without `push` or `remote` among them there is nothing to parse.
  if (v.name !== 'git' || !v.args.includes('push') && !v.args.includes('remote')) return [];
  const o = parseOptions(v.args, { shortValue: 'Cc', longValue: ['git-dir', 'work-tree', 'namespace', 'exec-path', 'config-env'], posixOrder: true });
  const sub = o.operands[0];
  if (sub !== 'push' && sub !== 'remote') return [];
  const ro = parseOptions(o.operands.slice(1), { shortValue: 'o', longValue: ['repo', 'receive-pack', 'exec', 'push-option', 'signed', 'recurse-submodules', 'force-with-lease'] });
  const known = (() => {
    for (const dir of upTo(cwd ?? root, root)) {
      const r = readCached(path.join(dir, '.git', 'config'), remotes);
      if (r) return r;
    }
    return { names: new Set<string>(), urls: new Set<string>() };
  })();
  if (sub === 'remote') {
    const [verb, , url] = ro.operands;
    if ((verb === 'add' || verb === 'set-url') && url && !known.urls.has(normalUrl(url))) return [ask('data_exfiltration', `git remote ${verb} points the repository at ${url}, which it does not have as a remote`)];
    return [];
  }
  const target = [...(ro.values.get('repo') ?? []), ...ro.operands.slice(0, 1)][0];
  if (!target) return [];
  if (isUrl(target)) return known.urls.has(normalUrl(target)) ? [] : [deny('data_exfiltration', `git push to ${target}, a URL this repository has no remote for`)];
  if (!known.names.has(target)) return [ask('data_exfiltration', `git push to ${target}, a remote this repository does not have`)];
  return [];
}
