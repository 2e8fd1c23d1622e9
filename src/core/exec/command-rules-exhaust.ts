// Resources exhausted on purpose: processes started without end (fork bombs in any spelling, loops
// that start a background job each time round), the disk filled (a file allocated or written at a
// size no project needs, an endless device or `yes` written into a file), the memory filled (an
// endless stream kept whole), and load generators run without bounds. A bounded, modest run of the
// same tools — `stress-ng --cpu 1 --timeout 10s`, `fallocate -l 1G swapfile`, `head -c 32 /dev/urandom`
// — is a test or a chore: it asks or runs.
import { isForkBomb } from './command-flow';
import { ask, deny, type Finding, type SegmentView } from './command-view';
import { has, someHas, startsWith } from './command-strings';

/** Devices that never end. */
const ENDLESS = /^\/dev\/(zero|u?random|full)$/;
/** dd's input given as one (tested on every argument of every argv, so made once here). */
const ENDLESS_INPUT = /^if=\/dev\/(zero|u?random|full)$/;
/** Sizes in bytes for `10G`, `1T`, `500M`, `2GiB`, `1e12`. */
function bytes(s: string): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmgtpe]?)(i?b)?$/i.exec(s.trim());
  if (!m) return 0;
  const power = 'bkmgtpe'.indexOf((m[2] || 'b').toLowerCase());
  return Number(m[1]) * 1024 ** Math.max(power, 0);
}
const GB = 1024 ** 3;
/** Larger than any file a project writes on purpose: the disk is being filled. */
const FILLS = 100 * GB;
const LARGE = 20 * GB;

/** A program that stops a stream after so many bytes or lines. */
function limits(v: SegmentView): boolean {
  const { name, args } = v;
  return /^(head|dd)$/.test(name) && (name === 'head' || args.some((a) => /^count=/.test(a)))
    || name === 'xxd' && args.some((a) => /^-(l|len)/.test(a)) || name === 'od' && args.some((a) => /^-N|^--read-bytes/.test(a))
    || name === 'hexdump' && args.some((a) => /^-n/.test(a)) || name === 'pv' && args.some((a) => /^-(S|-stop-at-size)$/.test(a));
}

/** Whether a stream started at `v` meets a limiter further down the pipeline. */
function limitedDownstream(v: SegmentView): boolean {
  for (let p: SegmentView | undefined = v; p; p = p.pipedTo) if (p !== v && limits(p)) return true;
  return false;
}

/** The stage at the end of the pipeline that starts at `v`. */
function last(v: SegmentView): SegmentView {
  let p = v;
  while (p.pipedTo) p = p.pipedTo;
  return p;
}

const writesFile = (v: SegmentView) => v.seg.redirects.some((r) => /^(>|>>|>\||&>|&>>)$/.test(r.op) && (r.fd === undefined || r.fd === 1) && r.target.text !== '/dev/null' && !/^&?\d$/.test(r.target.text))
  || v.name === 'tee' && v.args.some((a) => !a.startsWith('-') && a !== '/dev/null');

/** The programs exhaustRules looks at by name. */
export const exhaustConcerns = (name: string): boolean => /^(yes|ulimit|dd|fallocate|truncate|mkfile|xfs_mkfile|head|stress|stress-ng|memtester|sysbench|openssl|stressapptest|cpuburn|burnP6|burnK7|xargs|parallel)$/.test(name);

/** What its one check without a name (an endless device read) needs in any other argv: a device path. */
export function exhaustWhen(v: SegmentView): boolean {
  return someHas(v.args, '/dev/') || redirectsToDevice(v);
}

/** A redirection whose target is under /dev/ (shared by the gates that look for a device). */
export function redirectsToDevice(v: SegmentView): boolean {
  const redirects = v.seg.redirects;
  for (let i = 0; i < redirects.length; i++) if (startsWith(redirects[i].target.text, '/dev/')) return true;
  return false;
}

export function exhaustRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  // An endless device read whole: into a file it fills the disk, into a program that keeps it, the memory.
  const endless = args.some((a) => ENDLESS.test(a) || ENDLESS_INPUT.test(a)) || v.seg.redirects.some((r) => r.op === '<' && ENDLESS.test(r.target.text));
  if (endless && name !== 'dd' && !limits(v) && !limitedDownstream(v) && !/^(ls|stat|file|test|\[|echo|printf)$/.test(name)) {
    if (writesFile(v) || writesFile(last(v))) f.push(deny('destructive_ops', `${name} writes an endless stream into a file until the disk is full`));
    else if (/^(cp|install|rsync|mv|ln)$/.test(name)) f.push(deny('destructive_ops', `${name} copies an endless device into a file until the disk is full`));
    else if (name !== 'openssl') f.push(ask('destructive_ops', `${name} reads an endless device with nothing to stop it`));
  }
  // `yes > file` fills the disk; `yes "$(yes)"` the memory.
  if (name === 'yes' && !limitedDownstream(v) && (writesFile(v) || v.pipedTo && writesFile(last(v)))) f.push(deny('destructive_ops', 'yes writes lines into a file without end until the disk is full'));
  // `yes > /dev/null` (in the background, many times) does nothing but keep a CPU busy.
  if (name === 'yes' && !v.pipedTo && v.seg.redirects.some((r) => /^>/.test(r.op) && r.target.text === '/dev/null')) f.push(deny('destructive_ops', 'yes into /dev/null keeps a CPU busy without end'));
  if (name === 'ulimit' && args.includes('unlimited') && args.some((a) => /^-[a-z]*[uvmsdl]/.test(a) || a === '-a')) f.push(ask('destructive_ops', 'ulimit lifts the limit that stops a runaway process or fork bomb'));
  if (name === 'yes' && v.seg.context === 'command-substitution' && !limitedDownstream(v)) f.push(deny('destructive_ops', 'yes inside a substitution is kept in memory without end'));
  if (name === 'dd') {
    const of = args.find((a) => a.startsWith('of='))?.slice(3);
    const size = bytes(args.find((a) => a.startsWith('bs='))?.slice(3) ?? '512') * Number(args.find((a) => a.startsWith('count='))?.slice(6) ?? NaN);
    if (endless && of && !/^\/dev\//.test(of) && !args.some((a) => a.startsWith('count=')) || size >= FILLS) f.push(deny('destructive_ops', `dd writes ${Number.isNaN(size) ? 'without end' : `${Math.round(size / GB)} GB`}: the disk fills up`));
    else if (size >= LARGE) f.push(ask('destructive_ops', `dd writes ${Math.round(size / GB)} GB`));
  }
  // A file allocated at a size (sparse or not) the disk cannot hold, or that takes most of it.
  const size = /^(fallocate|truncate|mkfile|xfs_mkfile|head)$/.test(name) ? sizeOf(name, args) : 0;
  if (size >= FILLS && (name !== 'head' || endless)) f.push(deny('destructive_ops', `${name} allocates ${Math.round(size / GB)} GB: the disk fills up`));
  else if (size >= LARGE && (name !== 'head' || endless)) f.push(ask('destructive_ops', `${name} allocates ${Math.round(size / GB)} GB`));
  if (/^(stress|stress-ng|memtester|sysbench|openssl|stressapptest|cpuburn|burnP6|burnK7)$/.test(name)) f.push(...loadRule(name, args));
  // Hundreds of processes at once from one line.
  if ((name === 'xargs' || name === 'parallel') && args.some((a, i) => /^(-P|--max-procs|-j|--jobs)$/.test(a) && /^\d+$/.test(args[i + 1] ?? '') && Number(args[i + 1]) >= 256 || /^(-P|-j|--max-procs=|--jobs=)(\d+)$/.test(a) && Number(/(\d+)$/.exec(a)?.[1]) >= 256))
    f.push(ask('destructive_ops', `${name} starts hundreds of processes at once`));
  return f;
}

function sizeOf(name: string, args: string[]): number {
  const flag = name === 'fallocate' ? /^(-l|--length)$/ : name === 'truncate' ? /^(-s|--size)$/ : /^(-c|--bytes)$/;
  for (let i = 0; i < args.length; i++) {
    if (flag.test(args[i])) return bytes((args[i + 1] ?? '').replace(/^\+/, ''));
    const glued = /^(?:-[lsc]|--(?:length|size|bytes)=)\+?(.+)$/.exec(args[i]);
    if (glued && (name !== 'head' || args[i].startsWith('-c') || args[i].startsWith('--bytes'))) return bytes(glued[1]);
  }
  if (name === 'mkfile' || name === 'xfs_mkfile') return bytes(args.find((a) => /^\d/.test(a)) ?? '');
  return 0;
}

/**
 * Load generators on this machine: a short run with a few workers is a test (it asks); no time limit,
 * a worker count of 0 (one per CPU) or in the dozens, most of the memory or the disk, or the fork and
 * "all stressors" classes is an attack on the machine.
 */
function loadRule(name: string, args: string[]): Finding[] {
  if (name === 'openssl') {
    const multi = args.findIndex((a) => a === '-multi');
    return args[0] === 'speed' && multi >= 0 && Number(args[multi + 1]) >= 32 ? [deny('destructive_ops', 'openssl speed -multi runs dozens of busy processes')] : [];
  }
  if (name === 'sysbench') {
    const threads = Number(/^--(?:num-)?threads=(\d+)$/.exec(args.find((a) => /^--(num-)?threads=/.test(a)) ?? '')?.[1] ?? 1);
    return threads >= 64 || args.includes('--time=0') ? [deny('destructive_ops', 'sysbench runs without a time limit or with dozens of threads')] : [];
  }
  if (name === 'memtester') return bytes(args.find((a) => /^\d/.test(a)) ?? '') >= 4 * GB ? [deny('destructive_ops', 'memtester locks most of the memory')] : [ask('destructive_ops', 'memtester locks part of the memory')];
  const value = (re: RegExp) => args.flatMap((a, i) => (re.test(a) ? [args[i + 1] ?? ''] : [])).concat(args.flatMap((a) => { const m = /^--([\w-]+)=(.+)$/.exec(a); return m && re.test(`--${m[1]}`) ? [m[2]] : []; }));
  const seconds = value(/^(-t|--timeout)$/).map((t) => { const m = /^(\d+)(s|m|h|d)?$/.exec(t); return m ? Number(m[1]) * ({ s: 1, m: 60, h: 3600, d: 86400 }[m[2] ?? 's'] ?? 1) : Infinity; });
  const workers = value(/^(-c|--cpu|-m|--vm|-i|--io|-d|--hdd|--fork|--clone|--all|--sock|--matrix|--malloc|--[a-z]+)$/).filter((x) => /^\d+$/.test(x)).map(Number);
  const share = value(/^(--vm-bytes|--hdd-bytes|--malloc-bytes|--bigheap-bytes)$/);
  const unbounded = !seconds.length || seconds.some((s) => s === 0 || s > 600) || workers.some((w) => w === 0 || w > 16) || share.some((s) => /%$/.test(s) && Number.parseFloat(s) >= 50 || bytes(s) >= 8 * GB)
    || args.some((a) => /^--(fork|clone|all|class|sequential|exec|fork-max)/.test(a));
  return [unbounded ? deny('destructive_ops', `${name} loads the machine without a time limit, with dozens of workers or most of its memory or disk`) : ask('destructive_ops', `${name} loads the machine for a short test`)];
}

/** Condition words a loop never leaves by itself. */
const FOREVER = /^(while\s+(:|true|1|\[\s*1\s*\]|\[\[\s*1\s*\]\]|\(\(\s*1\s*\)\)|test\s+1)|until\s+(false|!\s*:|!\s*true|\[\s*0\s*=\s*1\s*\]|\(\(\s*0\s*\)\)))\s*;?\s*do\b/;
/** A count of iterations past any job a person would start by hand. */
const MANY = /^for\s+\w+\s+in\s+(\$\(\s*seq\s+(\d+\s+)?(\d{5,}|inf)\s*\)|\{\d+\.\.\d{5,}\})\s*;?\s*do\b/;

/**
 * Command-line level: a loop that never ends (or runs tens of thousands of times) and starts a job in
 * the background each time round with no pause in the foreground, or a function that starts copies
 * of itself (`f(){ f|f & }; f`, `x(){ x & x; }; x`). These never end until the machine stops.
 */
export function endlessSpawning(text: string): Finding[] {
  if (isForkBomb(text) || selfSpawning(text)) return [deny('destructive_ops', 'a function that starts copies of itself without end (fork bomb)')];
  if (!has(text, 'done')) return [];
  for (const m of text.matchAll(/\b(while|until|for)\b/g)) {
    const rest = text.slice(m.index);
    const forever = FOREVER.test(rest) || /^for\s*\(\(\s*;\s*;\s*\)\)\s*;?\s*do\b/.test(rest) || MANY.test(rest);
    if (!forever) continue;
    const body = rest.slice(rest.search(/\bdo\b/) + 2, rest.search(/\bdone\b/) >= 0 ? rest.search(/\bdone\b/) : undefined);
    const background = /(^|[^&>|])&(?![&>])/.test(body);
    // `while true; do job & sleep 60; done` waits each round: a watcher, not a bomb.
    const paced = /\bsleep\s+[\d.]+[smhd]?\s*(;|\n|$)/.test(body) || /\b(wait|read)\b/.test(body);
    if (background && !paced) return [deny('destructive_ops', 'a loop without end that starts a background process each time (fork bomb)')];
    // A folder, a file or a copy made each round with no pause: the disk (or its inodes) fills up.
    if (!paced && /(^|[;&|(])\s*(mkdir|touch|cp|dd|fallocate|truncate|mktemp|ln)\s|>>\s*(?!\/dev\/null)[^\s&]/.test(body)) return [ask('destructive_ops', 'a loop without end that creates a file or folder each time, until the disk is full')];
  }
  return [];
}

/** `NAME(){ … NAME & … }; NAME` or `NAME(){ NAME|NAME; }`: the body starts the function as another process (a tree of copies). */
function selfSpawning(text: string): boolean {
  if (!has(text, '{') || !has(text, '}')) return false;
  for (const m of text.matchAll(/(?:function\s+)?([^\s(){};|&<>]+)\s*\(\s*\)\s*\{([^}]*)\}/g)) {
    const [, fn, body] = m;
    const esc = fn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const bg = new RegExp(`(^|[\\s;|&({])${esc}\\s*(\\|[^|]|&(?!&))`).test(body);
    const invoked = new RegExp(`(^|[\\s;&|])${esc}\\s*(;|&|$|\\|)`).test(text.slice((m.index ?? 0) + m[0].length));
    if (invoked && bg) return true;
  }
  return false;
}
