// Wrappers: commands that run another command given in their arguments. Each is unwrapped into the
// command it would run, so `env sh -c "timeout 5 bash -c 'rm -rf /'"` is judged as `rm -rf /`.
// Option parsing follows each tool's manual closely enough to find where the inner command starts;
// when it cannot be found the wrapper is still a segment of its own and the judge sees its name.
import * as path from 'node:path';
import type { ParseProblem, Word } from './command-types';
import { embeddedInArguments, optionScripts, runnerActions, unknownProgramActions } from './command-runners';
import { GIT_COMMAND_SETTING, inCommandPosition, skipOptions, XARGS_VALUE_LETTERS, XARGS_VALUE_LONG, xargsReplaceToken } from './command-wrapper-options';
import { windowsActions } from './command-wrappers-windows';
import { staticWord } from './command-words';
import { has, startsWith } from './command-strings';
import { GIT, GIT_GREP, GIT_RUNS } from './command-option-tables';
import { parseOptions, resolveLong, shortOptionIn, type OptionSpec } from './command-options';

export type WrapAction =
  /** The inner command, as argv (`timeout 5 rm …`). */
  | { kind: 'argv'; label: string; argv: Word[]; assignments?: { name: string; value: Word }[] }
  /** A string the wrapper hands to a shell (`sh -c '…'`): parsed recursively; dynamic → 'eval'. */
  | { kind: 'script'; label: string; script: Word }
  /** A shell with no script argument: it reads its script from stdin (pipe, heredoc, here-string). */
  | { kind: 'stdin-shell'; label: string }
  | { kind: 'problem'; problem: ParseProblem };

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'rbash', 'csh', 'tcsh', 'posh', 'oksh', 'loksh', 'elvish', 'nu', 'xonsh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

type Unwrapper = (argv: Word[], name: string) => WrapAction[];

/** Inner argv after the options (and `count` positionals such as timeout's duration). */
function after(label: string, withArg: string, long: string[], positionals = 0): Unwrapper {
  return (argv) => {
    let i = skipOptions(argv, 1, withArg, long);
    i += positionals;
    return i < argv.length ? [{ kind: 'argv', label, argv: argv.slice(i) }] : [];
  };
}

/** `NAME=value` words before the command (env, sudo). */
function takeAssignments(argv: Word[], i: number, into: { name: string; value: Word }[]): number {
  // `PATH="$PATH"`: the name is written out, only the value is known at run time (and stays marked so).
  while (i < argv.length && ASSIGNMENT.test(argv[i].text) && (!argv[i].dynamic || ASSIGNMENT.test(argv[i].raw))) {
    const eq = argv[i].text.indexOf('=');
    const value = argv[i].text.slice(eq + 1);
    into.push({ name: argv[i].text.slice(0, eq), value: argv[i].dynamic ? { text: value, dynamic: true, raw: argv[i].raw.slice(argv[i].raw.indexOf('=') + 1) } : staticWord(value) });
    i++;
  }
  return i;
}

/**
 * The value of option `-x` / `--long` anywhere in argv (`-c 'cmd'`, `-c'cmd'`, `-lc 'cmd'`, `--command=cmd`,
 * `--comm cmd`). `valueLetters`: the program's short options that take a value, so a cluster is read as
 * getopt reads it (`su -lc CMD` gives -c; in `-uclaire` the c is -u's value).
 */
function optionValue(argv: Word[], short: string, long: string[], valueLetters: string): Word | undefined {
  const known: OptionSpec = { shortValue: valueLetters, longValue: long };
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i].text;
    if (t === '--') return undefined;
    const attached = shortOptionIn(t, short, known);
    if (attached !== undefined) return attached ? { ...argv[i], text: attached } : argv[i + 1];
    if (!startsWith(t, '--')) continue;
    const eq = t.indexOf('=');
    const names = resolveLong(eq < 0 ? t.slice(2) : t.slice(2, eq), known);
    if (!(typeof names === 'string' ? long.includes(names) : names.length)) continue;
    return eq < 0 ? argv[i + 1] : { ...argv[i], text: t.slice(eq + 1) };
  }
  return undefined;
}

/** Several words joined by spaces, as `eval`, `watch` and `parallel` hand them to a shell. */
function joined(words: Word[]): Word {
  return {
    text: words.map((w) => w.text).join(' '),
    dynamic: words.some((w) => w.dynamic),
    raw: words.map((w) => w.raw).join(' '),
  };
}

function shell(argv: Word[], name: string): WrapAction[] {
  let hasC = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const t = argv[i].text;
    if (argv[i].dynamic || t === '-' || t === '--' || !(t.startsWith('-') || t.startsWith('+')) || t.length < 2) break;
    if (t.startsWith('--')) {
      if (t === '--rcfile' || t === '--init-file') i++;
      if (t === '--command') hasC = true; // fish
      continue;
    }
    if (t.includes('c')) hasC = true;
    if (t.includes('o') || t.includes('O')) i++; // -o option-name
  }
  if (argv[i]?.text === '-' || argv[i]?.text === '--') i++;
  const label = `${name} -c`;
  if (hasC) return i < argv.length ? [{ kind: 'script', label, script: argv[i] }] : [];
  if (i >= argv.length) return [{ kind: 'stdin-shell', label: name }];
  if (argv[i].dynamic) {
    return [{ kind: 'problem', problem: { kind: 'eval', detail: `${name} runs a script whose path is only known at run time (${argv[i].raw})` } }];
  }
  return [];
}

function env(argv: Word[]): WrapAction[] {
  const split = optionValue(argv, 'S', ['split-string'], 'uCPS');
  if (split) return [{ kind: 'script', label: 'env -S', script: split }];
  const assignments: { name: string; value: Word }[] = [];
  let i = skipOptions(argv, 1, 'uCP', ['unset', 'chdir', 'argv0']);
  i = takeAssignments(argv, i, assignments);
  return i < argv.length ? [{ kind: 'argv', label: 'env', argv: argv.slice(i), assignments }] : [];
}

/**
 * True when one of the words before index `end` is a short option cluster holding one of `letters` as an
 * option (not inside the value of one of `valueLetters`: in `sudo -uvic` the v is -u's value).
 */
function hasFlag(argv: Word[], end: number, letters: string, long: string[] = [], valueLetters = ''): boolean {
  const known: OptionSpec = { shortValue: valueLetters };
  for (let i = 1; i < end; i++) {
    const t = argv[i].text;
    if (t.startsWith('--') ? long.includes(t.slice(2)) : [...letters].some((c) => shortOptionIn(t, c, known) !== undefined)) return true;
  }
  return false;
}

function sudo(argv: Word[], name: string): WrapAction[] {
  const assignments: { name: string; value: Word }[] = [];
  const valueLetters = name === 'doas' ? 'uC' : 'CDghpRrtTUu';
  let i = skipOptions(argv, 1, valueLetters, [
    'user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user',
  ]);
  // -e edit, -l list, -v validate, -k/-K: no command runs (the sudo segment itself is still judged).
  if (name === 'sudo' && hasFlag(argv, i, 'elvkKV', ['edit', 'list', 'validate', 'version'], valueLetters)) return [];
  i = takeAssignments(argv, i, assignments);
  return i < argv.length ? [{ kind: 'argv', label: name, argv: argv.slice(i), assignments }] : [];
}

function xargs(argv: Word[]): WrapAction[] {
  const i = skipOptions(argv, 1, XARGS_VALUE_LETTERS, XARGS_VALUE_LONG);
  if (i >= argv.length) return [];
  const inner = argv.slice(i);
  const action: WrapAction = { kind: 'argv', label: 'xargs', argv: inner };
  // `xargs -I{} sh -c '{}'`, `xargs -I% %`: each input line becomes the program or the shell text that runs.
  const token = xargsReplaceToken(argv.slice(1, i).map((w) => w.text));
  if (!token) return [action];
  const base = path.posix.basename(inner[0].text);
  const script = SHELLS.has(base) ? shell(inner, base).find((a) => a.kind === 'script') : undefined;
  const runsInput = inner[0].text.includes(token) || (script?.kind === 'script' && inCommandPosition(script.script.text, token));
  if (!runsInput) return [action];
  return [{ kind: 'problem', problem: { kind: 'dynamic-command', detail: `xargs puts each line of its input where ${base} reads the command to run (${token})` } }, action];
}

function find(argv: Word[]): WrapAction[] {
  const out: WrapAction[] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i].text;
    if (t !== '-exec' && t !== '-execdir' && t !== '-ok' && t !== '-okdir') continue;
    let end = i + 1;
    while (end < argv.length && argv[end].text !== ';' && argv[end].text !== '+') end++;
    if (end > i + 1) out.push({ kind: 'argv', label: `find ${t}`, argv: argv.slice(i + 1, end) });
    i = end;
  }
  return out;
}

function timeout(argv: Word[]): WrapAction[] {
  return after('timeout', 'sk', ['signal', 'kill-after'], 1)(argv, 'timeout');
}

function flock(argv: Word[]): WrapAction[] {
  const script = optionValue(argv, 'c', ['command'], 'wEc');
  if (script) return [{ kind: 'script', label: 'flock -c', script }];
  return after('flock', 'wE', ['timeout', 'wait', 'conflict-exit-code'], 1)(argv, 'flock');
}

function watch(argv: Word[]): WrapAction[] {
  const i = skipOptions(argv, 1, 'nq', ['interval', 'equexit']);
  const exec = hasFlag(argv, i, 'x', ['exec'], 'nq');
  if (i >= argv.length) return [];
  if (exec) return [{ kind: 'argv', label: 'watch -x', argv: argv.slice(i) }];
  return [{ kind: 'script', label: 'watch', script: joined(argv.slice(i)) }];
}

function scriptOption(short: string, long: string[], label: string, valueLetters: string): Unwrapper {
  return (argv) => {
    const script = optionValue(argv, short, long, valueLetters);
    return script ? [{ kind: 'script', label, script }] : [];
  };
}

function evalCommand(argv: Word[]): WrapAction[] {
  const problem: WrapAction = { kind: 'problem', problem: { kind: 'eval', detail: 'eval runs a string as a command' } };
  return argv.length > 1 ? [problem, { kind: 'script', label: 'eval', script: joined(argv.slice(1)) }] : [problem];
}

function source(argv: Word[], name: string): WrapAction[] {
  const file = argv[1];
  if (!file?.dynamic) return [];
  return [{ kind: 'problem', problem: { kind: 'eval', detail: `${name} reads a script whose path is only known at run time (${file.raw})` } }];
}

function trap(argv: Word[]): WrapAction[] {
  const action = argv[1];
  if (!action || action.text.startsWith('-')) return [];
  return [{ kind: 'script', label: 'trap', script: action }];
}

function commandBuiltin(argv: Word[]): WrapAction[] {
  const i = skipOptions(argv, 1, '', []);
  if (hasFlag(argv, i, 'vV')) return []; // a lookup, runs nothing
  return i < argv.length ? [{ kind: 'argv', label: 'command', argv: argv.slice(i) }] : [];
}

function parallel(argv: Word[]): WrapAction[] {
  const i = skipOptions(argv, 1, 'jPSaIdnNLE', [
    'jobs', 'sshlogin', 'arg-file', 'delay', 'timeout', 'joblog', 'results', 'colsep', 'tmpdir', 'workdir',
    'halt', 'retries', 'memfree', 'load', 'basefile', 'tagstring', 'env', 'max-args', 'max-replace-args',
    'max-lines', 'delimiter', 'eof',
  ]);
  let end = i;
  while (end < argv.length && !/^:::[:+]?$/.test(argv[end].text)) end++;
  if (end === i) {
    return [{ kind: 'problem', problem: { kind: 'eval', detail: 'parallel reads the commands it runs from its input' } }];
  }
  const cmd = joined(argv.slice(i, end));
  const inputs = argv.slice(end + 1).filter((w) => !/^:::[:+]?$/.test(w.text));
  if (!inputs.length) return [{ kind: 'script', label: 'parallel', script: cmd }];
  // Each input is appended to the command as one more word, quoted as parallel quotes it.
  return inputs.map((w) => ({ kind: 'script', label: 'parallel', script: { ...cmd, text: `${cmd.text} '${w.text.replace(/'/g, "'\\''")}'`, dynamic: cmd.dynamic || w.dynamic } }));
}

const UNWRAPPERS: Record<string, Unwrapper> = {
  env, sudo, doas: sudo, xargs, find, timeout, flock, watch, trap, parallel,
  eval: evalCommand, source, '.': source, command: commandBuiltin,
  nohup: after('nohup', '', []),
  setsid: after('setsid', '', []),
  time: after('time', 'fo', ['format', 'output']),
  exec: after('exec', 'a', []),
  builtin: after('builtin', '', []),
  coproc: after('coproc', '', []),
  busybox: after('busybox', '', []),
  pkexec: after('pkexec', '', ['user']),
  nice: after('nice', 'n', ['adjustment']),
  ionice: (argv) => (hasFlag(argv, skipOptions(argv, 1, 'cnp', []), 'pP', ['pid', 'pgid', 'uid'], 'cn') ? [] : after('ionice', 'cnp', ['class', 'classdata'])(argv, 'ionice')),
  stdbuf: after('stdbuf', 'ioe', ['input', 'output', 'error']),
  chroot: after('chroot', '', ['userspec', 'groups'], 1),
  su: scriptOption('c', ['command', 'session-command'], 'su -c', 'cgGsw'),
  runuser: scriptOption('c', ['command', 'session-command'], 'runuser -c', 'cgGswu'),
  script: scriptOption('c', ['command'], 'script -c', 'cEIOBTo'),
};
/** The same table as a Map: looked up for every argv, where a Map answers faster than hasOwnProperty on the object. */
const UNWRAPPER_OF = new Map<string, Unwrapper>(Object.entries(UNWRAPPERS));

/** The git subcommands whose options hand over a command line: their table, the short letters and long names that do. */
interface CommandOptions { table: OptionSpec; letters: string; names: readonly string[] }
const RUNS_COMMAND: CommandOptions = { table: GIT_RUNS, letters: 'xt', names: ['exec', 'extcmd', 'tool-cmd'] };
const GIT_COMMAND_OPTIONS = new Map<string, CommandOptions>([
  ['rebase', RUNS_COMMAND], ['difftool', RUNS_COMMAND], ['mergetool', RUNS_COMMAND],
  // `git grep -O<pager>` / `--open-files-in-pager=<pager>` runs the pager through the shell with the files found.
  ['grep', { table: GIT_GREP, letters: 'O', names: ['open-files-in-pager'] }],
]);

/** git subcommands that run a command line: `rebase -x`, `rebase -ix`, `submodule foreach`, `bisect run`, `difftool -x`, `grep -O`. */
function gitRunners(argv: Word[]): WrapAction[] {
  const words = argv.map((w) => w.text);
  // The subcommand is the first operand after git's own options (`git -C rebase grep -O…` greps).
  const sub = argv.length - parseOptions(words.slice(1), GIT).operands.length;
  if (sub >= argv.length || !/^(rebase|submodule|bisect|difftool|mergetool|grep)$/.test(words[sub])) return [];
  const rest = argv.slice(sub + 1);
  const out: WrapAction[] = [];
  const runs = GIT_COMMAND_OPTIONS.get(words[sub]);
  for (let i = 0; runs && i < rest.length; i++) {
    const found = commandOption(rest, i, runs.table, runs.letters, runs.names);
    if (found) out.push({ kind: 'script', label: `git ${words[sub]} ${found.option}`, script: found.script });
  }
  const at = (w: string) => rest.findIndex((x) => x.text === w);
  if (words[sub] === 'submodule' && at('foreach') >= 0) {
    const cmd = rest.slice(at('foreach') + 1).filter((w) => !/^--(recursive|quiet)$/.test(w.text));
    if (cmd.length) out.push({ kind: 'script', label: 'git submodule foreach', script: joined(cmd) });
  }
  if (words[sub] === 'bisect' && at('run') >= 0 && rest.length > at('run') + 1) out.push({ kind: 'argv', label: 'git bisect run', argv: rest.slice(at('run') + 1) });
  return out;
}

/**
 * The command line `rest[i]` hands over through one of `letters` or `names`: `-x CMD`, `-xCMD`, a cluster
 * read as git reads it (`-ix CMD`, `-rxCMD`: flags first, the letter that takes a value takes the rest of
 * the word or the next one; a letter whose value is optional only the rest), and the long options in any
 * spelling git takes (`--exec CMD`, `--exec=CMD`, `--ex CMD`, `--e=CMD`; a value only after `=` for an
 * option whose value is optional).
 */
function commandOption(rest: readonly Word[], i: number, table: OptionSpec, letters: string, names: readonly string[]): { option: string; script: Word } | undefined {
  const w = rest[i];
  const t = w.text;
  if (!startsWith(t, '--')) {
    for (const c of letters) {
      const attached = shortOptionIn(t, c, table);
      if (attached === undefined) continue;
      const script = attached ? { ...w, text: attached } : table.shortValue?.includes(c) ? rest[i + 1] : undefined;
      if (script) return { option: `-${c}`, script };
    }
    return undefined;
  }
  const eq = t.indexOf('=');
  const resolved = resolveLong(eq < 0 ? t.slice(2) : t.slice(2, eq), table);
  const list = typeof resolved === 'string' ? [resolved] : resolved;
  if (!list.some((n) => names.includes(n))) return undefined;
  const script = eq >= 0 ? { ...w, text: t.slice(eq + 1) } : list.some((n) => names.includes(n) && table.longValue?.includes(n)) ? rest[i + 1] : undefined;
  return script ? { option: t.replace(/=[\s\S]*$/, ''), script } : undefined;
}

/**
 * `git -c core.pager='less -R' log`, `git clone --config core.sshCommand='ssh -i k' …`: a setting
 * whose value git runs as a command line is judged as one.
 */
function gitSettingCommands(argv: Word[]): WrapAction[] {
  const out: WrapAction[] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i].text;
    const setting = (t === '-c' || t === '--config') && argv[i + 1] ? argv[++i] : startsWith(t, '--config=') ? { ...argv[i], text: t.slice('--config='.length) } : undefined;
    const eq = setting ? setting.text.indexOf('=') : -1;
    if (!setting || eq < 0 || !GIT_COMMAND_SETTING.test(setting.text.slice(0, eq))) continue;
    out.push({ kind: 'script', label: `git -c ${setting.text.slice(0, eq)}`, script: { ...setting, text: setting.text.slice(eq + 1) } });
  }
  return out;
}

/** What a command runs besides itself, if it is a wrapper; [] otherwise. */
export function unwrapCommand(argv: Word[]): WrapAction[] {
  const first = argv[0];
  if (!first || first.dynamic) return [];
  const name = has(first.text, '/') ? path.posix.basename(first.text) : first.text;
  if (SHELLS.has(name)) return shell(argv, name);
  const unwrap = UNWRAPPER_OF.get(name);
  if (unwrap) return unwrap(argv, name);
  const windows = windowsActions(argv, name);
  if (windows) return windows;
  // Appended in place rather than spread: most argvs get no action at all, and this runs on each.
  const options = optionScripts(argv, name);
  append(options, embeddedInArguments(argv, name));
  if (name === 'git') { append(options, gitRunners(argv)); append(options, gitSettingCommands(argv)); }
  const table = runnerActions(argv, name);
  return table ? append(table, options) : append(options, unknownProgramActions(argv, name));
}

function append(to: WrapAction[], more: readonly WrapAction[]): WrapAction[] {
  for (let k = 0; k < more.length; k++) to.push(more[k]);
  return to;
}
