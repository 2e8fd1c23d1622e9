// What a rule sees of one segment: the executable's name (basename, so `/bin/rm` and `rm` are the
// same rule), the argument texts, and where relative paths land. Rules return findings; a finding
// names a group (or another named rule) and says why in words, never by pattern.
import type { Decision, Segment, Word } from './command-types';
import type { GroupName } from './command-policy';
import { codeAt, endsWith, lastIndexOf, slice, startsWith, toLowerCase } from './command-strings';

export interface SegmentView {
  seg: Segment;
  /** argv[0] as given (`/usr/bin/rm`, `./x`, `rm`). */
  exe: string;
  /** Basename of argv[0], lower-cased (`RM` on a case-insensitive disk is `rm`). */
  name: string;
  /** argv[1..] texts. */
  args: string[];
  /** argv[1..] words. */
  words: Word[];
  /**
   * The argument texts that are not options (do not start with `-`), in order: worked out once per
   * argv, since most rules look at them. Whoever builds a view with other `args` sets it anew.
   */
  operands: readonly string[];
  /** The command this one's output is piped into, when the judge knows it. */
  pipedTo?: SegmentView;
}

export interface Finding {
  decision: Exclude<Decision, 'allow'>;
  /** A deny group, or another named rule ('write', 'parse', 'allowlist', 'unicode', 'security'). */
  group: GroupName | 'write' | 'parse' | 'allowlist' | 'unicode' | 'security' | 'inline-code';
  reason: string;
  /** Never softened by a group whose action is 'ask': destruction of `/` or the home folder. */
  fixed?: boolean;
}

export const deny = (group: Finding['group'], reason: string): Finding => ({ decision: 'deny', group, reason });
/** A denial no setting turns into a question (see Finding.fixed). */
export const denyAlways = (group: Finding['group'], reason: string): Finding => ({ decision: 'deny', group, reason, fixed: true });
export const ask = (group: Finding['group'], reason: string): Finding => ({ decision: 'ask', group, reason });

export function viewOf(seg: Segment, argv: Word[] = seg.argv): SegmentView {
  const exe = argv[0]?.text ?? '';
  // The basename after the last `/` or `\` (a Windows-style path names the same program).
  const base = slice(exe, Math.max(lastIndexOf(exe, '/'), lastIndexOf(exe, '\\')) + 1);
  const words = argv.slice(1);
  // `curl.exe`, `PowerShell.EXE`: Windows finds the same program without the suffix, so the rules do too.
  const args = words.map((w) => w.text);
  // `pipedTo` is in the literal, unset: the judge sets it on some views, and an object that gains a
  // property changes its hidden class, which would make every rule's reads of a view polymorphic.
  const lower = toLowerCase(base);
  return { seg, exe, name: endsWith(lower, '.exe') ? slice(lower, 0, -4) : lower, args, words, operands: operandsOf(args), pipedTo: undefined };
}

/**
 * `xs[i - 1]` without the negative index: at i = 0 that read leaves the array fast path (a property
 * look-up of "-1", ~60 ns), and rules make it on the first argument of every argv.
 */
export function before<T>(xs: readonly T[], i: number): T | undefined {
  return i > 0 ? xs[i - 1] : undefined;
}

/** The arguments that are not options, for SegmentView.operands. */
export function operandsOf(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) if (!startsWith(args[i], '-')) out.push(args[i]);
  return out;
}

/**
 * The names an exact-name pattern (`^(a|b|c)$`, no flags) accepts: a rule part's program list for
 * the judge's index, read from the pattern the rule itself tests so the two cannot differ.
 */
export function namesOf(re: RegExp): string[] {
  // Plain letters and `|`; of the escapes only a literal `.`, `-` or `/` (`\d` or a bare `.` is no name).
  const m = /^\^\(((?:[^()[\]{}*+?^$.\\]|\\[.\-/])*)\)\$$/.exec(re.source);
  if (!m || re.flags) throw new Error(`not a list of names: /${re.source}/${re.flags}`);
  return m[1].split('|').map((n) => n.replace(/\\(.)/g, '$1'));
}

/** Interpreters: a blanket allowlist rule never covers them, and stdin fed to them is a script. */
export const INTERPRETERS = new Set([
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox', 'pwsh', 'powershell',
  'python', 'python2', 'python3', 'pypy', 'pypy3', 'perl', 'ruby', 'node', 'nodejs', 'deno', 'bun', 'php', 'lua', 'tclsh', 'osascript', 'irb', 'jshell',
]);
/** Package managers, package runners and programs that run what their arguments say: never a blanket rule. */
export const PACKAGE_MANAGERS = new Set([
  'npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bunx', 'pip', 'pip3', 'pipx', 'uv', 'uvx', 'poetry', 'gem', 'bundle', 'cargo', 'go', 'composer',
  'apt', 'apt-get', 'dnf', 'yum', 'apk', 'brew', 'pacman', 'zypper', 'snap', 'conda', 'mamba', 'nix', 'nix-env',
  'make', 'env', 'xargs', 'sudo', 'doas', 'find', 'git', 'docker', 'podman', 'kubectl', 'ssh',
]);
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash']);

/** Versioned names run the same program: python3.12 → python3, node18 → node. */
export function baseName(name: string): string {
  // Every name below starts with p, r, n or l: the others (most) skip the pattern, which runs on every argv.
  const c = codeAt(name, 0);
  if (c !== 0x70 && c !== 0x72 && c !== 0x6e && c !== 0x6c) return name;
  const m = /^(python|pypy|perl|ruby|node|php|lua)[\d.]*$/.exec(name);
  return m ? m[1] === 'python' && name.startsWith('python3') ? 'python3' : m[1] : name;
}

/** A word that names a file rather than a message: starts like a path and has no spaces. */
export function isPathLike(s: string): boolean {
  return /^(\/|~|\.\.?\/|\$HOME|\$\{HOME\})/.test(s) && !/\s/.test(s);
}

/** Loopback and the unspecified address: a dev server on this machine. */
export function isLoopbackUrl(u: string): boolean {
  const host = hostOf(u);
  return host !== undefined && /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0|[\w-]+\.localhost)$/i.test(host);
}

/** Cloud metadata services hand out credentials to whoever asks. */
export function isMetadataUrl(u: string): boolean {
  const host = hostOf(u);
  return host !== undefined && /^(169\.254\.169\.254|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata|100\.100\.100\.200)$/i.test(host);
}

export function hostOf(u: string): string | undefined {
  const m = /^(?:[a-z][\w+.-]*:\/\/)?(?:[^@/\s]*@)?(\[[^\]]+\]|[^:/\s?#]+)/i.exec(u.trim());
  return m?.[1];
}

export function looksLikeUrl(s: string): boolean {
  return /^[a-z][\w+.-]*:\/\//i.test(s) || /^(localhost|\d{1,3}(\.\d{1,3}){3}|[\w-]+(\.[\w-]+)+)(:\d+)?(\/|$)/i.test(s);
}
