// Where a segment writes: redirection targets and the file arguments of known writers. Every
// target goes through the path guard (resolved against the segment's working directory): outside
// the workspace asks, a denied path (.git internals, settings' denyPaths) or a symlink escape is
// denied, start-up files and scheduled jobs are persistence whatever the guard says.
import path from 'node:path';
import { PathError, type PathResolver } from '../fs/types';
import { analyzeSed } from './command-sed';
import { CHMOD, COMPRESS, copyTable, CURL, GIT, MKDIR, MV, PATCH, RM, RMDIR, SHRED, SORT, SPLIT, TAR, TEE, TOUCH, TRUNCATE, UNIQ, WGET, ZIP } from './command-option-tables';
import { hasLong, parseOptions, valuesOf } from './command-options';
import { ask, deny, type Finding, type SegmentView } from './command-view';
import { replace, startsWith } from './command-strings';

export interface WriteTarget {
  text: string;
  dynamic: boolean;
  /** What writes it, for the reason: 'redirection', 'tee', 'sort -o' … */
  by: string;
}

const FILE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** `>&2`, `>&3-`, `>&-`: a descriptor, not a file. */
const DESCRIPTOR = /^(\d+-?|-)$/;

export function writeTargets(v: SegmentView): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const r of v.seg.redirects) {
    const t = r.target;
    if (FILE_OPS.has(r.op) || (r.op === '>&' && !DESCRIPTOR.test(t.text))) out.push({ text: t.text, dynamic: t.dynamic, by: `redirection ${r.op}` });
  }
  const { name, args } = v;
  switch (name) {
    case 'tee': add(out, v, parseOptions(args, TEE).operands, 'tee'); break;
    case 'cp': case 'install': case 'ln': case 'rsync': case 'gcp': {
      const o = parseOptions(args, copyTable(name));
      const t = valuesOf(o, ['target-directory'], 't');
      add(out, v, t.length ? t : o.operands.length > 1 ? [o.operands[o.operands.length - 1]] : name === 'ln' ? ['.'] : [], name);
      if (hasLong(o, 'remove-source-files')) add(out, v, o.operands.slice(0, -1), `${name} --remove-source-files`);
      break;
    }
    case 'mv': {
      const o = parseOptions(args, MV);
      add(out, v, o.operands, 'mv');
      add(out, v, valuesOf(o, ['target-directory'], 't'), 'mv');
      break;
    }
    case 'rm': case 'rmdir': case 'unlink': case 'touch': case 'mkdir': case 'shred': case 'mkfifo':
      add(out, v, parseOptions(args, name === 'touch' ? TOUCH : name === 'mkdir' || name === 'mkfifo' ? MKDIR : name === 'shred' ? SHRED : name === 'rm' ? RM : RMDIR).operands, name); break;
    case 'truncate': add(out, v, parseOptions(args, TRUNCATE).operands, name); break;
    case 'chmod': case 'chown': case 'chgrp': {
      const o = parseOptions(args, CHMOD);
      add(out, v, hasLong(o, 'reference') ? o.operands : o.operands.slice(1), name);
      break;
    }
    case 'sort': add(out, v, valuesOf(parseOptions(args, SORT), ['output'], 'o'), 'sort -o'); break;
    case 'uniq': { const ops = parseOptions(args, UNIQ).operands; if (ops.length > 1) add(out, v, [ops[1]], 'uniq'); break; }
    case 'sed': case 'gsed': { const s = analyzeSed(args); add(out, v, s.inPlace, 'sed -i'); add(out, v, s.writes, 'sed w'); break; }
    case 'dd': add(out, v, args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)), 'dd of='); break;
    case 'curl': {
      const o = parseOptions(args, CURL);
      add(out, v, [...valuesOf(o, ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'output-dir'], 'oDc')], 'curl -o');
      break;
    }
    case 'wget': { const o = parseOptions(args, WGET); add(out, v, valuesOf(o, ['output-document', 'output-file', 'append-output', 'directory-prefix'], 'OoaP'), 'wget -O'); break; }
    case 'tar': case 'gtar': case 'bsdtar': {
      const o = parseOptions(args, TAR);
      const bundled = /^[A-Za-z]+$/.test(args[0] ?? '') ? new Set(args[0]) : new Set<string>();
      const has = (c: string, l: 'extract' | 'get' | 'create' | 'append' | 'update') => o.short.has(c) || bundled.has(c) || hasLong(o, l);
      if (has('x', 'extract') || has('x', 'get')) add(out, v, valuesOf(o, ['directory'], 'C').concat(valuesOf(o, ['directory'], 'C').length ? [] : ['.']), 'tar -x');
      if (has('c', 'create') || has('r', 'append') || has('u', 'update')) add(out, v, valuesOf(o, ['file'], 'f'), 'tar -c -f');
      break;
    }
    case 'unzip': { const i = args.indexOf('-d'); add(out, v, i >= 0 && args[i + 1] ? [args[i + 1]] : ['.'], 'unzip'); break; }
    case 'zip': case 'gzip': case 'gunzip': case 'xz': case 'bzip2': case 'zstd': case 'unxz': case 'bunzip2': case 'brotli':
      if (!args.some((a) => /^-[A-Za-z]*[ctl]/.test(a) || a === '--stdout' || a === '--to-stdout' || a === '--list' || a === '--test')) add(out, v, parseOptions(args, name === 'zip' ? ZIP : COMPRESS).operands.slice(0, name === 'zip' ? 1 : undefined), name);
      break;
    case 'patch': add(out, v, valuesOf(parseOptions(args, PATCH), ['output', 'directory', 'reject-file'], 'odr'), 'patch'); break;
    case 'find': for (let i = 0; i < args.length; i++) if (/^-(fprint0?|fprintf|fls)$/.test(args[i]) && args[i + 1]) add(out, v, [args[i + 1]], `find ${args[i]}`); break;
    // In POSIX order the options end at the first operand: `git status --short` has none to read.
    case 'git': { if (!startsWith(args[0] ?? '', '-')) break; const o = parseOptions(args, GIT); add(out, v, [...valuesOf(o, ['git-dir', 'work-tree'], 'C')], 'git -C'); break; }
    case 'split': case 'csplit': { const ops = parseOptions(args, SPLIT).operands; if (ops.length > 1) add(out, v, [ops[ops.length - 1]], name); break; }
    case 'ssh-keygen': { const i = args.indexOf('-f'); if (i >= 0 && args[i + 1]) add(out, v, [args[i + 1]], 'ssh-keygen -f'); break; }
  }
  return out;
}

/** Appends the files of `list` (not `` nor `-`) a program writes, each dynamic when a word of the argv with its text is. */
function add(out: WriteTarget[], v: SegmentView, list: readonly string[], by: string): void {
  for (const s of list) if (s !== '' && s !== '-') out.push({ text: s, dynamic: v.words.some((w) => w.text === s && w.dynamic), by });
}

/** Shell start-up files, scheduled jobs, services, login keys: a write there runs again later. */
const PERSIST = /(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.zlogout|\.cshrc|\.tcshrc|\.kshrc|\.mkshrc|\.xprofile|\.xinitrc|\.xsession|\.inputrc|\.pam_environment|config\.fish|\.ssh\/(authorized_keys2?|config|rc|environment)|\.config\/(systemd|autostart)\/|Library\/(LaunchAgents|LaunchDaemons)\/|\.git\/hooks\/|\.gitconfig$|\.config\/git\/config$|\.npmrc$|\.pythonrc|\.vimrc$|\.exrc$|\.emacs$|\.config\/nvim\/init)|^\/etc\/(cron|crontab|anacrontab|systemd|init\.d|init\/|rc\.local|rc\d\.d|profile|bash\.bashrc|zsh|environment|update-motd\.d|xdg\/autostart|sudoers|ld\.so\.preload|pam\.d|security)|^\/var\/spool\/(cron|at)|^\/(usr\/lib|lib)\/systemd\//;
/** Files a workspace opens with: VS Code tasks can run on folder open; direnv runs .envrc on cd. */
const WORKSPACE_HOOKS = /(^|\/)(\.vscode\/(tasks|settings|launch)\.json|\.envrc|\.husky\/[^/]+|\.devcontainer\/)$|(^|\/)\.husky\/|(^|\/)\.devcontainer\//;
const HARMLESS_DEV = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+|zero)$/;
/** checkWrite's tests, hoisted: a regex literal in a function body is a new object each time it runs. */
const DEV_NET = /^\/dev\/(tcp|udp)\//;
const DEV = /^\/dev\//;
const KERNEL = /^\/(proc|sys)\//;
const HOME_WORD = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/;
const HOME_START = /^(~|\$HOME|\$\{HOME\})/;
const USR_LOCAL = /^\/usr\/local(\/|$)/;
const SYSTEM_DIR = /^\/(etc|usr|bin|sbin|lib|lib64|boot)(\/|$)/;

export interface WriteContext {
  /** The working directory the segment runs in; undefined once a `cd` made it unknowable. */
  cwd: string | undefined;
  guard?: PathResolver;
  /** Without a guard: the folder writes must stay in. */
  root: string;
  home: string;
}

/**
 * The write check of one target. The judge is advisory and runs before the command, so a synchronous
 * look at the disk as it is now (resolveSync) is exactly as good as an async one, and costs a few µs
 * instead of hundreds; the check is then synchronous too (an async function would cost a promise and
 * a turn of the microtask queue per target). Only a guard without resolveSync makes it a promise.
 */
export function checkWrite(t: WriteTarget, ctx: WriteContext): Finding | undefined | Promise<Finding | undefined> {
  const p = t.text;
  if (HARMLESS_DEV.test(p)) return undefined;
  if (DEV_NET.test(p)) return deny('reverse_shell', `${t.by} to /dev/tcp opens a network connection`);
  if (DEV.test(p)) return deny('destructive_ops', `${t.by} writes to a device (${p})`);
  if (KERNEL.test(p)) return deny('container_escape', `${t.by} writes to kernel settings under /proc or /sys`);
  const expanded = replace(p, HOME_WORD, ctx.home);
  const lexical = ctx.cwd ? path.resolve(ctx.cwd, expanded) : expanded;
  if (PERSIST.test(p) || PERSIST.test(lexical)) return deny('persistence', `${t.by} writes a start-up, scheduled-job or login file (${p})`);
  // /usr/local is where software is installed by hand (`tar -C /usr/local`, `install x /usr/local/bin`): a person decides.
  if (USR_LOCAL.test(lexical)) return ask('dangerous_paths', `${t.by} installs into /usr/local (${p}), outside the workspace, for every user of the machine`);
  if (SYSTEM_DIR.test(lexical)) return deny('dangerous_paths', `${t.by} writes into system folders (${p})`);
  if (t.dynamic && HOME_START.test(p) === false) return ask('write', `${t.by} writes to a path known only at run time (${p})`);
  if (!ctx.cwd && !path.isAbsolute(expanded)) return ask('write', `${t.by} writes to ${p} after a cd to a folder known only at run time`);
  if (WORKSPACE_HOOKS.test(lexical)) return ask('persistence', `${t.by} changes a file that runs commands when the workspace opens (${p})`);
  if (!ctx.guard) {
    const rel = path.relative(ctx.root, lexical);
    return rel.startsWith('..') || path.isAbsolute(rel) ? ask('write', `${t.by} writes outside the workspace (${p})`) : undefined;
  }
  const guard = ctx.guard;
  if (!guard.resolveSync) return guard.resolve(lexical, 'write').then(() => undefined, (e: unknown) => refusal(e, t, p));
  try {
    guard.resolveSync(lexical, 'write');
    return undefined;
  } catch (e) {
    return refusal(e, t, p);
  }
}

/** What the guard's refusal of a write target means for the command; any other error propagates. */
function refusal(e: unknown, t: WriteTarget, p: string): Finding {
  if (!(e instanceof PathError)) throw e;
  if (e.code === 'outside') return ask('write', `${t.by} writes outside the workspace (${p})`);
  return deny('write', `${t.by} writes a path the workspace guard refuses (${p}): ${e.message}`);
}

