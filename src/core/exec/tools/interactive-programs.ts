// Which interactive jobs read commands: a shell, an interpreter's REPL or a database shell started
// with `interactive: true` turns every later `process write` into a command the judge never saw, so
// exec asks before starting one and the process tool judges (or asks about) each line sent to it.
// A program counts only when it would read its commands from input: `bash` and `python3 -i x.py`
// do, `bash build.sh` and `python3 -c '…'` do not (the judge sees their code in the command line).
import { parseCommand } from '../command-parse';
import type { Word } from '../command-types';

export type InteractiveKind = 'shell' | 'repl' | 'database';

/** What an interactive job's input goes to. */
export interface InputTarget {
  kind: InteractiveKind;
  /** The program's name as the command gives it (for messages). */
  program: string;
}

interface Reader {
  kind: InteractiveKind;
  /** Options that hand it the code or file to run instead of reading input (`-c`, `-e`, `--file`). */
  runs?: readonly string[];
  /** Options that make it read input anyway (`-i`; `perl -d`; `php -a`; `sudo -s`). */
  force?: readonly string[];
  /** Options that take the next word as their value. */
  values?: readonly string[];
  /** Operands it may have and still read input (a database name, a host); more mean a script or a query. */
  operands?: number;
  /** It reads input only when one of these options is given (`sudo -i`). */
  needs?: readonly string[];
  /** Options compared without case (PowerShell). */
  caseless?: boolean;
}

const SHELL: Reader = { kind: 'shell', runs: ['-c', '--version', '--help'], force: ['-i', '-s'], values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'] };
const REPL: Reader = { kind: 'repl' };

const READERS: Record<string, Reader> = {
  ...Object.fromEntries(['sh', 'bash', 'rbash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'csh', 'tcsh'].map((n) => [n, SHELL])),
  fish: { kind: 'shell', runs: ['-c', '--command', '--version', '--help'], force: ['-i', '--interactive'], values: ['-C', '--init-command'] },
  ...Object.fromEntries(['nu', 'xonsh', 'elvish'].map((n) => [n, { kind: 'shell', runs: ['-c', '--commands', '--version', '--help'] } satisfies Reader])),
  ...Object.fromEntries(['pwsh', 'powershell'].map((n) => [n, {
    kind: 'shell', caseless: true, force: ['-noexit'],
    runs: ['-c', '-command', '-f', '-file', '-e', '-ec', '-encodedcommand', '-v', '-version', '-h', '-help', '-?'],
    values: ['-ex', '-ep', '-executionpolicy', '-wd', '-workingdirectory', '-configurationname', '-custompipename', '-inputformat', '-outputformat', '-settingsfile', '-windowstyle'],
  } satisfies Reader])),
  su: { kind: 'shell', runs: ['-c', '--command'], values: ['-s', '--shell', '-g', '--group', '-G', '-w'], operands: 1 },
  sudo: { kind: 'shell', needs: ['-s', '-i', '--shell', '--login'], values: ['-u', '--user', '-g', '--group', '-C', '-D', '-h', '--host', '-p', '--prompt', '-U', '-r', '-t', '-T'] },
  doas: { kind: 'shell', needs: ['-s'], values: ['-u', '-C'] },
  script: { kind: 'shell', runs: ['-c', '--command'], values: ['-t', '-T', '--timing', '-I', '-O', '-B', '-E'], operands: 1 },
  ssh: { kind: 'shell', values: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'], operands: 1 },

  python: { kind: 'repl', runs: ['-c', '-m', '-V', '--version', '-h', '--help'], force: ['-i'], values: ['-W', '-X'] },
  pypy: { kind: 'repl', runs: ['-c', '-m', '-V', '--version'], force: ['-i'], values: ['-W', '-X'] },
  ipython: { kind: 'repl', runs: ['-c', '-m', '--version'], force: ['-i'] },
  ...Object.fromEntries(['bpython', 'ptpython', 'irb', 'pry', 'jshell', 'scala', 'clojure', 'clj', 'sbcl', 'guile', 'racket', 'erl', 'iex',
    'ocaml', 'utop', 'swift', 'tclsh', 'wish', 'kotlinc'].map((n) => [n, REPL])),
  ...Object.fromEntries(['ghci', 'gdb', 'lldb'].map((n) => [n, { kind: 'repl', operands: Number.POSITIVE_INFINITY, runs: ['--version', '-batch', '--batch'] } satisfies Reader])),
  node: { kind: 'repl', runs: ['-e', '--eval', '-p', '--print', '--test', '--run', '-v', '--version', '-h', '--help', '-c', '--check'], force: ['-i', '--interactive'],
    values: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--title'] },
  ruby: { kind: 'repl', runs: ['-e', '-v', '--version', '-h', '--help', '-c'], values: ['-r', '-I', '-C', '-E', '-F'] },
  perl: { kind: 'repl', runs: ['-e', '-E', '-v', '-V', '-c', '-h'], force: ['-d'], values: ['-I', '-M', '-m'] },
  php: { kind: 'repl', runs: ['-r', '-f', '-R', '-F', '-B', '-E', '-S', '-v', '-h', '-l', '-m', '-i'], force: ['-a'], values: ['-c', '-d', '-t', '-z'] },
  lua: { kind: 'repl', runs: ['-e', '-v'], force: ['-i'], values: ['-l'] },
  luajit: { kind: 'repl', runs: ['-e', '-v', '-b'], force: ['-i'], values: ['-l', '-j', '-O'] },
  r: { kind: 'repl', runs: ['-e', '-f', '--file', '--version'] },
  julia: { kind: 'repl', runs: ['-e', '-E', '--eval', '--print', '-v', '--version', '-h', '--help'], force: ['-i'], values: ['-p', '-t', '-C', '-J', '-L', '--load'] },

  psql: { kind: 'database', operands: 2, runs: ['-c', '--command', '-f', '--file', '-l', '--list', '-V', '--version', '-?', '--help'],
    values: ['-h', '--host', '-p', '--port', '-U', '--username', '-d', '--dbname', '-o', '--output', '-v', '--set', '--variable', '-P', '--pset', '-T', '-F', '-R', '-L', '--log-file'] },
  ...Object.fromEntries(['mysql', 'mariadb'].map((n) => [n, { kind: 'database', operands: 1, runs: ['-e', '--execute', '-V', '--version', '-?', '--help'],
    values: ['-h', '--host', '-P', '--port', '-u', '--user', '-S', '--socket', '-D', '--database'] } satisfies Reader])),
  ...Object.fromEntries(['sqlite', 'duckdb'].map((n) => [n, { kind: 'database', operands: 1, runs: ['-version', '--version', '-help', '--help', '-c', '-s'],
    values: ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-vfs'] } satisfies Reader])),
  'redis-cli': { kind: 'database', runs: ['-v', '--version', '--help', '--eval', '--scan', '--bigkeys', '--stat', '--latency'],
    values: ['-h', '-p', '-s', '-a', '-u', '-n', '-r', '-i', '-d', '--user', '--pass'] },
  ...Object.fromEntries(['mongosh', 'mongo'].map((n) => [n, { kind: 'database', operands: 1, runs: ['--eval', '-f', '--file', '--version', '--help'], force: ['--shell'],
    values: ['--host', '--port', '-u', '--username', '-p', '--password', '--authenticationDatabase'] } satisfies Reader])),
  cqlsh: { kind: 'database', operands: 2, runs: ['-e', '--execute', '-f', '--file', '--version'], values: ['-u', '-p', '-k', '--keyspace'] },
  'clickhouse-client': { kind: 'database', runs: ['-q', '--query', '--queries-file', '--version'], values: ['-h', '--host', '--port', '-u', '--user', '--password', '-d', '--database'] },
  sqlcmd: { kind: 'database', runs: ['-Q', '-i', '-?'], values: ['-S', '-U', '-P', '-d', '-q'] },
  ...Object.fromEntries(['pgcli', 'mycli', 'litecli', 'usql'].map((n) => [n, { kind: 'database', operands: 1, runs: ['-e', '--execute', '-c', '--command', '-f', '--file', '--version'],
    values: ['-h', '--host', '-p', '--port', '-u', '-U', '--user', '-d', '--database'] } satisfies Reader])),
};

/** `tool sub …` that opens a shell, a REPL or a database shell (`poetry shell`, `rails console`, `deno repl`). */
const SUBCOMMANDS: Record<string, Record<string, InteractiveKind>> = {
  poetry: { shell: 'shell' }, pipenv: { shell: 'shell' }, vagrant: { ssh: 'shell' }, multipass: { shell: 'shell' },
  toolbox: { enter: 'shell' }, distrobox: { enter: 'shell' }, nix: { develop: 'shell', shell: 'shell', repl: 'repl' }, 'nix-shell': { '': 'shell' },
  deno: { '': 'repl', repl: 'repl' }, bun: { repl: 'repl' }, stack: { ghci: 'repl', repl: 'repl' }, cabal: { repl: 'repl', 'v2-repl': 'repl' },
  lein: { repl: 'repl' }, sbt: { console: 'repl' }, rails: { console: 'repl', c: 'repl', dbconsole: 'database', db: 'database' },
  clickhouse: { client: 'database' }, docker: { attach: 'shell' }, podman: { attach: 'shell' }, kubectl: { attach: 'shell' },
};

/** Programs that run another program given later in their arguments: a container, a pod, a remote host. */
const ENTRIES = new Set(['docker', 'podman', 'nerdctl', 'kubectl', 'oc', 'lxc', 'incus', 'machinectl', 'flatpak-spawn', 'ssh']);

/** The program's table name: the lower-cased basename without a version (`python3.12` → `python`, `sqlite3` → `sqlite`). */
export function readerName(word: string): string {
  const base = (word.replace(/\\/g, '/').split('/').pop() ?? word).toLowerCase().replace(/\.exe$/, '');
  const bare = base.replace(/[\d.]+$/, '');
  return READERS[base] || !bare ? base : bare;
}

function optionName(word: string, caseless: boolean | undefined): string {
  const name = word.includes('=') && word.startsWith('-') ? word.slice(0, word.indexOf('=')) : word;
  return caseless ? name.toLowerCase() : name;
}

/** Whether `args` leave the program reading its commands from input. */
function readsInput(reader: Reader, args: readonly string[]): { reads: boolean; rest: string[] } {
  const has = (set: readonly string[] | undefined, opt: string) => !!set?.includes(opt);
  let runs = false;
  let force = false;
  let needed = !reader.needs;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') { operands.push(...args.slice(i + 1)); break; }
    if (!/^[-+]./.test(a) || operands.length) { operands.push(a); continue; }
    const opt = optionName(a, reader.caseless);
    const known = [reader.runs, reader.force, reader.values, reader.needs].some((s) => has(s, opt));
    if (known || a.startsWith('--') || (reader.caseless && /^[-+][^-]{3,}$/.test(a))) {
      runs ||= has(reader.runs, opt);
      force ||= has(reader.force, opt);
      needed ||= has(reader.needs, opt);
      if (has(reader.values, opt) && !a.includes('=')) i++;
      continue;
    }
    // A cluster of one-letter options (`-lc`, `-de0`): a letter that takes a value takes the rest.
    for (let k = 1; k < a.length; k++) {
      const one = `${a[0]}${a[k]}`;
      runs ||= has(reader.runs, one);
      force ||= has(reader.force, one);
      needed ||= has(reader.needs, one);
      if (has(reader.values, one)) {
        if (k === a.length - 1) i++;
        break;
      }
    }
  }
  const limit = reader.operands ?? 0;
  const real = operands.filter((o) => o !== '-');
  return { reads: needed && (force || (!runs && real.length <= limit)), rest: real.slice(limit) };
}

/** The program `argv` starts, when it reads its commands from input. */
export function inputTargetOf(argv: readonly string[], depth = 0): InputTarget | undefined {
  if (!argv.length || depth > 4) return undefined;
  const name = readerName(argv[0]);
  const sub = SUBCOMMANDS[name];
  if (sub) {
    const first = argv.slice(1).find((a) => !a.startsWith('-')) ?? '';
    if (sub[first]) return { kind: sub[first], program: first ? `${argv[0]} ${first}` : argv[0] };
  }
  const reader = READERS[name];
  if (reader) {
    const r = readsInput(reader, argv.slice(1));
    if (r.reads) return { kind: reader.kind, program: argv[0] };
    // A remote command: `ssh host psql` opens a database shell over there.
    if (name !== 'ssh' || !r.rest.length) return undefined;
    return inputTargetOf(r.rest, depth + 1);
  }
  if (!ENTRIES.has(name)) return undefined;
  // `docker exec -it box bash`, `kubectl exec -it pod -- psql`: whatever program follows.
  for (let i = 1; i < argv.length; i++) {
    if (READERS[readerName(argv[i])]) return inputTargetOf(argv.slice(i), depth + 1);
  }
  return undefined;
}

const RANK: Record<InteractiveKind, number> = { shell: 1, database: 2, repl: 2 };

/** Of every program the command starts (wrappers unwrapped), the one whose input the judge can see least of. */
export async function inputTargetOfCommand(command: string): Promise<InputTarget | undefined> {
  const parsed = await parseCommand(command);
  let found: InputTarget | undefined;
  for (const seg of parsed.segments) {
    const t = inputTargetOf(seg.argv.map((w: Word) => w.text));
    if (t && (!found || RANK[t.kind] > RANK[found.kind])) found = t;
  }
  return found;
}

/** Words for messages: "an interactive shell (bash)". */
export function describeTarget(t: InputTarget): string {
  const what = t.kind === 'shell' ? 'an interactive shell' : t.kind === 'repl' ? 'an interpreter\'s REPL' : 'a database shell';
  return `${what} (${t.program})`;
}
