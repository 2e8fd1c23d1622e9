// Rules that compare a command with the workspace it runs in: a package runner (`npx`, `npm exec`,
// `pnpm dlx`, `yarn dlx`, `bunx`) fetching something that is neither a dependency in the nearest
// package.json nor installed in node_modules/.bin asks (git's remotes: command-git-remotes.ts). The
// files are read straight from the workspace folder (the path guard hides .git from the tools),
// cached by modification time.
import fs from 'node:fs';
import path from 'node:path';
import { NPX } from './command-option-tables';
import { hasLongSurely, parseOptions, valuesOf } from './command-options';
import { ask, type Finding, type SegmentView } from './command-view';

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

/** `file` parsed, again only when its modification time changed; undefined when missing or unparsable. */
export function readCached<T>(file: string, parse: (text: string) => T): T | undefined {
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
export function upTo(cwd: string, root: string): string[] {
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
  // npm takes any unambiguous beginning of an option (`--pack=x`): the table resolves it.
  const o = parseOptions(rest, NPX);
  const packages = valuesOf(o, ['package'], 'p');
  // A `--call` script is judged as a command elsewhere; only one surely given (not `--c`, which `--cache` shares) lets the package go.
  if ((o.short.has('c') || hasLongSurely(o, 'call')) && !packages.length) return undefined;
  const pkg = packages[0] ?? o.operands[0];
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
