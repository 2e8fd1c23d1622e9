// Programs that run what they are handed, described by one table instead of a function each: where
// the command starts (after a subcommand, after N operands, only after `--`), which options take a
// value, and whether the operands are argv or one shell string. Besides the table, two generic
// looks inside every command: option values that are themselves shell text (`--exec=…`,
// `--pre-hook …`, `--password-command …`, `-wrapper …`), and — for a program no rule knows — an
// operand that names a program the rules do judge (`<unknown-wrapper> rm -rf ~`), or a quoted
// operand that is a whole command line (`tool 'curl … | sh'`). Each becomes a segment of its own, so
// the strictest verdict over them decides.
import type { Word } from './command-types';
import { skipOptions } from './command-wrapper-options';
import type { WrapAction } from './command-wrappers';
import { tableFor } from './command-option-tables';
import { codeAt, has, startsWith } from './command-strings';
import { resolveLong, type OptionSpec } from './command-options';

interface RunnerSpec {
  /** The first operand must be one of these (`uv run`, `perf stat`); the command follows it. */
  sub?: readonly string[];
  /** Short options that take a value. */
  short?: string;
  /** Long options that take a value. */
  long?: readonly string[];
  /** Operands before the command (`direnv exec DIR cmd`, `gosu USER cmd`, `faketime TIME cmd`). */
  skip?: number;
  /** The command starts only after `--` (`kubectl exec POD -- cmd`, `aws-vault exec P -- cmd`). */
  dashDash?: boolean;
  /** Every operand is a shell string of its own (`hyperfine 'cmd1' 'cmd2'`, `sops exec-env f 'cmd'`). */
  shellStrings?: boolean;
  /** Options whose value is a shell string (`npx -c 'cmd'`, `hyperfine --prepare 'cmd'`). */
  scriptOptions?: readonly string[];
  /** The command is everything after this word (`gdb --args prog …`). */
  argsAfter?: string;
  /** Subcommands that are the program they start, which takes the rest (`yarn node -e …`, `dotnet fsi …`). */
  runs?: readonly string[];
}

const R: Record<string, RunnerSpec> = {
  'systemd-run': { short: 'upEMHd', long: ['unit', 'property', 'setenv', 'uid', 'gid', 'machine', 'host', 'slice', 'description', 'working-directory', 'nice', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'timer-property', 'path-property', 'socket-property', 'service-type'] },
  setarch: { skip: 1 }, linux32: {}, linux64: {},
  choom: { short: 'np', long: ['adjust', 'pid'] },
  cpulimit: { short: 'lpei', long: ['limit', 'pid', 'exe', 'path'] },
  perf: { sub: ['stat', 'record', 'trace', 'top', 'c2c', 'mem', 'kvm', 'sched', 'lock'], short: 'eoFcptCrGImxTDj', long: ['event', 'output', 'freq', 'count', 'pid', 'tid', 'cpu', 'repeat', 'cgroup', 'interval-print', 'mmap-pages', 'field-separator', 'call-graph', 'delay', 'filter'] },
  uv: { sub: ['run'], short: 'pw', long: ['with', 'python', 'package', 'extra', 'group', 'env-file', 'directory', 'project', 'index', 'default-index', 'with-requirements', 'with-editable', 'only-group', 'no-group', 'index-url', 'extra-index-url', 'find-links', 'config-file'] },
  uvx: { short: 'p', long: ['with', 'python', 'from', 'index', 'index-url', 'extra-index-url', 'with-requirements', 'with-editable'] },
  npx: { short: 'p', long: ['package', 'cache', 'userconfig', 'registry'], scriptOptions: ['c', 'call'] },
  pnpx: { short: 'p', long: ['package'], scriptOptions: ['c', 'call'] },
  bunx: { short: 'p', long: ['package'] },
  npm: { sub: ['exec', 'x'], short: 'pw', long: ['package', 'workspace'], scriptOptions: ['c', 'call'] },
  pnpm: { sub: ['exec', 'dlx'], runs: ['node'], short: 'pC', long: ['package', 'filter', 'dir'], scriptOptions: ['c', 'shell-mode'] },
  yarn: { sub: ['exec', 'dlx'], runs: ['node'], short: 'p', long: ['package'] },
  dotnet: { runs: ['fsi'] },
  bun: { sub: ['x', 'exec'] },
  poetry: { sub: ['run'], short: 'C', long: ['directory', 'project'] },
  pipenv: { sub: ['run'] }, pdm: { sub: ['run'], short: 'p', long: ['project'] }, hatch: { sub: ['run'], short: 'e', long: ['env'] }, rye: { sub: ['run'] },
  conda: { sub: ['run'], short: 'np', long: ['name', 'prefix', 'cwd'] }, mamba: { sub: ['run'], short: 'np', long: ['name', 'prefix'] }, micromamba: { sub: ['run'], short: 'np', long: ['name', 'prefix'] },
  bundle: { sub: ['exec'] }, rbenv: { sub: ['exec'] }, pyenv: { sub: ['exec'] }, nodenv: { sub: ['exec'] }, asdf: { sub: ['exec'] }, goenv: { sub: ['exec'] },
  mise: { sub: ['exec', 'x'], dashDash: true }, rtx: { sub: ['exec', 'x'], dashDash: true },
  direnv: { sub: ['exec'], skip: 1 }, nvm: { sub: ['exec'], skip: 1 }, volta: { sub: ['run'], long: ['node', 'npm', 'yarn', 'env'] }, fnm: { sub: ['exec'], long: ['using'] },
  devbox: { sub: ['run'], short: 'c', long: ['config'] }, 'nix-shell': { scriptOptions: ['run', 'command'], short: 'pAIE', long: ['packages', 'attr', 'arg', 'argstr'] },
  nix: { sub: ['develop', 'shell'], dashDash: true, scriptOptions: [] }, toolbox: { sub: ['run'], short: 'cdr', long: ['container', 'distro', 'release'] },
  distrobox: { sub: ['enter'], dashDash: true }, 'flatpak-spawn': { long: ['env', 'directory', 'forward-fd'] }, 'host-spawn': {},
  'ssh-agent': { short: 'aEPt' }, torify: {}, torsocks: { short: 'uPa', long: ['user', 'pass', 'address', 'port'] }, proxychains: { short: 'f' }, proxychains4: { short: 'f' }, tsocks: {}, graftcp: { short: 'acnp' },
  chronic: {}, unbuffer: {}, faketime: { short: 'f', skip: 1 }, tini: { short: 'slpeg' }, 'dumb-init': {}, catatonit: {}, gosu: { skip: 1 }, 'su-exec': { skip: 1 },
  chpst: { short: 'ugUe/nlmdofcpr' }, setpriv: { long: ['reuid', 'regid', 'groups', 'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile', 'inh-caps', 'ambient-caps', 'bounding-set'] },
  runuser: { short: 'ugG', long: ['user', 'group', 'supp-group'], scriptOptions: ['c', 'command', 'session-command'] },
  prlimit: { long: ['pid'] }, numactl: { short: 'CNmipl', long: ['cpunodebind', 'physcpubind', 'membind', 'interleave', 'preferred', 'localalloc'] },
  taskset: { skip: 1 }, chrt: { skip: 1 }, cgexec: { short: 'g' }, firejail: {}, valgrind: {}, strace: { short: 'oepsuESIbPa', long: ['output', 'trace', 'signal', 'user', 'attach'] },
  ltrace: { short: 'oepsuESna', long: ['output'] }, lldb: { dashDash: true }, rr: { sub: ['record'] }, heaptrack: {}, 'catchsegv': {},
  hyperfine: { shellStrings: true, short: 'wmMrcpsnSLuNj', long: ['warmup', 'min-runs', 'max-runs', 'runs', 'cleanup', 'prepare', 'setup', 'command-name', 'shell', 'parameter-scan', 'parameter-list', 'export-json', 'export-csv', 'export-markdown', 'export-asciidoc', 'output', 'time-unit', 'input', 'style', 'sort', 'reference', 'conclude'], scriptOptions: ['prepare', 'p', 'cleanup', 'c', 'setup', 's', 'conclude'] },
  entr: { short: '' }, watchexec: { short: 'wepdsW', long: ['watch', 'exts', 'filter', 'ignore', 'debounce', 'signal', 'shell', 'on-busy-update', 'project-origin', 'workdir', 'env', 'delay-run', 'poll', 'emit-events-to'] },
  nodemon: { long: ['watch', 'ext', 'ignore', 'delay', 'config', 'signal'], short: 'wexdV', scriptOptions: ['exec', 'x'] },
  'xvfb-run': { short: 'nsfep', long: ['server-num', 'server-args', 'auth-file', 'error-file', 'xauth-protocol'] }, 'dbus-run-session': { long: ['config-file', 'dbus-daemon'] }, 'dbus-launch': {},
  'systemd-inhibit': { long: ['what', 'who', 'why', 'mode'] }, caffeinate: { short: 'tw' }, nq: {}, tsp: { short: 'LDn' }, ts: {},
  'aws-vault': { sub: ['exec'], skip: 1, dashDash: true }, op: { sub: ['run'], dashDash: true, long: ['env-file'] }, doppler: { sub: ['run'], dashDash: true, scriptOptions: ['command'] },
  infisical: { sub: ['run'], dashDash: true, scriptOptions: ['command'] }, dotenvx: { sub: ['run'], dashDash: true }, dotenv: { short: 'ecv', dashDash: true }, 'env-cmd': { short: 'fre', long: ['file', 'rc-file', 'environments'] },
  'cross-env': {}, 'cross-env-shell': { shellStrings: true }, chamber: { sub: ['exec'], dashDash: true }, envchain: { skip: 1 }, sops: { sub: ['exec-env', 'exec-file'], skip: 1, shellStrings: true }, summon: { short: 'fpD', long: ['provider', 'f', 'D'] },
  teller: { sub: ['run'], dashDash: true }, berglas: { sub: ['exec'], dashDash: true }, rlwrap: { short: 'aAbCefFgHlOpPsSwz', long: ['history-filename', 'file', 'prompt-colour', 'substitute-prompt', 'break-chars', 'command-name', 'histsize'] },
  mpirun: { short: 'nN', long: ['np', 'host', 'hostfile', 'map-by', 'bind-to'] }, mpiexec: { short: 'nN', long: ['np', 'host', 'hostfile'] }, srun: { short: 'nNcptJAp', long: ['ntasks', 'nodes', 'cpus-per-task', 'partition', 'time', 'job-name', 'account'] },
  'sandbox-exec': { short: 'fpD' }, fakeroot: { short: 'lsi' }, fakechroot: {}, screen: { short: 'ScpTe' }, xterm: { scriptOptions: ['e'] },
  kubectl: { sub: ['exec', 'run', 'debug', 'create'], dashDash: true }, tmux: { sub: ['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'run-shell', 'run'], short: 'sncFtxyeSclLbp', shellStrings: true, scriptOptions: ['c'] }, oc: { sub: ['exec', 'rsh'], dashDash: true }, docker: { sub: ['exec'], skip: 1, short: 'euwd', long: ['env', 'user', 'workdir', 'detach-keys', 'env-file'] },
  podman: { sub: ['exec'], skip: 1, short: 'euwd', long: ['env', 'user', 'workdir', 'detach-keys', 'env-file'] }, lxc: { sub: ['exec'], skip: 1, dashDash: true },
  expect: { scriptOptions: ['c'] }, retry: { dashDash: true }, vagrant: { sub: ['ssh'], scriptOptions: ['c', 'command'] },
  ansible: { short: 'imuMfetBPkc', long: ['inventory', 'module-name', 'user', 'forks', 'extra-vars', 'become-user', 'connection', 'private-key', 'limit'], scriptOptions: ['a', 'args'] },
  nano: { scriptOptions: ['s', 'speller'] }, pico: { scriptOptions: ['s', 'speller'] }, gdb: { argsAfter: '--args' }, cgdb: { argsAfter: '--args' },
};

/** Shell text handed to a program in an option value: the long name says so. */
const SHELL_OPTION = /^(pipe|exec|exec-batch|execute|command|cmd|run|run-command|entrypoint|shell-command|sh|rsh|ssh|rsh-command|rsync-path|(pre|post)[-_]?(hook|exec|command|cmd|build|install|script|start|run)|[\w-]*-(hook|command|cmd|exec|script|program|wrapper|filter)|password[-_]?(command|cmd|eval)|passcmd|passwordcmd|passeval|askpass|pager|editor|wrapper|launcher|interpreter|proxy-?command|on-[\w-]+|onsuccess|onfailure|callback|notify-command|compress-program|use-compress-program|to-command|checkpoint-action|info-script|new-volume-script|rmt-command|upload-pack|receive-pack|preexec|precmd|shell-escape-command)$/i;
/** Options whose name matches SHELL_OPTION but whose value is data. */
const NOT_SHELL = /^(execution[\w-]*|exec-path|ssh-key|sh-completion|filter|pre-release|post-release|command-name|log-filter|type-filter|path-filter|prefilter)$/i;

function scriptAction(label: string, w: Word): WrapAction {
  return { kind: 'script', label, script: w };
}

/** The table's unwrapping of `argv` by `name`, or undefined when the program is not in the table. */
/** A runner's option lists as skipOptions reads them, with its script options folded in: worked out once per spec. */
const OPTION_LISTS = new Map<RunnerSpec, { long: string[]; shortAll: string; known: OptionSpec }>();
function optionLists(spec: RunnerSpec): { long: string[]; shortAll: string; known: OptionSpec } {
  let o = OPTION_LISTS.get(spec);
  if (!o) {
    const scriptOpts = spec.scriptOptions ?? [];
    const long = [...(spec.long ?? []), ...scriptOpts.filter((x) => x.length > 1)];
    o = { long, shortAll: (spec.short ?? '') + scriptOpts.filter((x) => x.length === 1).join(''), known: { longValue: long } };
    OPTION_LISTS.set(spec, o);
  }
  return o;
}

/** R as a Map: looked up for every argv that is not a wrapper. */
const RUNNER_SPECS = new Map<string, RunnerSpec>(Object.entries(R));

export function runnerActions(argv: Word[], name: string): WrapAction[] | undefined {
  const spec = RUNNER_SPECS.get(name);
  if (!spec) return undefined;
  const out: WrapAction[] = [];
  const scriptOpts = spec.scriptOptions ?? [];
  const { known } = optionLists(spec);
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i].text;
    if (t === '--') break;
    // A long script option in any spelling the program takes: `--command CMD`, `--command=CMD`, `--comm CMD`.
    const eq = t.indexOf('=');
    const names = startsWith(t, '--') ? resolveLong(eq < 0 ? t.slice(2) : t.slice(2, eq), known) : undefined;
    for (const o of scriptOpts) {
      if (o.length === 1 ? t === `-${o}` && argv[i + 1] : names !== undefined && (names === o || typeof names !== 'string' && names.includes(o))) {
        const script = o.length > 1 && eq >= 0 ? { ...argv[i], text: t.slice(eq + 1) } : argv[i + 1];
        if (script) out.push(scriptAction(`${name} ${o.length === 1 ? '-' : '--'}${o}`, script));
      }
    }
  }
  if (spec.argsAfter) {
    const at = argv.findIndex((w) => w.text === spec.argsAfter);
    return at > 0 && at + 1 < argv.length ? [...out, { kind: 'argv', label: `${name} ${spec.argsAfter}`, argv: argv.slice(at + 1) }] : out;
  }
  let i = 1;
  if (spec.sub || spec.runs) {
    i = skipOptions(argv, 1, spec.short ?? '', [...(spec.long ?? [])]);
    // `docker container exec` is `docker exec` in the older spelling.
    if (/^(docker|podman|nerdctl)$/.test(name) && argv[i]?.text === 'container') i++;
    if (spec.runs?.includes(argv[i]?.text ?? '')) return [...out, { kind: 'argv', label: `${name} ${argv[i].text}`, argv: argv.slice(i) }];
    if (!spec.sub || spec.sub.length && !spec.sub.includes(argv[i]?.text ?? '')) return out;
    if (spec.sub.length) i++;
  }
  const afterSub = i;
  const { long, shortAll } = optionLists(spec);
  i = skipOptions(argv, i, shortAll, long);
  for (let k = 0; k < (spec.skip ?? 0) && i < argv.length; k++) i = skipOptions(argv, i + 1, shortAll, long);
  if (spec.dashDash) {
    const dd = argv.findIndex((w, j) => j >= afterSub && w.text === '--');
    if (dd < 0) return out;
    i = dd + 1;
  } else if (argv[i]?.text === '--') i++;
  if (i >= argv.length) return out;
  if (spec.shellStrings) for (const w of argv.slice(i)) out.push(scriptAction(name, w));
  else out.push({ kind: 'argv', label: spec.sub?.length ? `${name} ${argv.find((w) => spec.sub?.includes(w.text))?.text ?? ''}`.trim() : name, argv: argv.slice(i) });
  return out;
}

/**
 * Option values of any program that are shell text: `--exec=…`, `--pre-hook …`, `-wrapper gdb,--args`.
 * A separate value (`--exec cmd`) is taken only for a name that says it runs something.
 */
const LONG_OPTION = /^--?([A-Za-z][\w-]{2,})(=([\s\S]*))?$/;

export function optionScripts(argv: Word[], name: string): WrapAction[] {
  const out: WrapAction[] = [];
  const table = tableFor(name);
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const t = w.text;
    if (t === '--') break;
    // LONG_OPTION needs a leading `-`: other words (most) are passed over without a match.
    if (codeAt(t, 0) !== 0x2d) continue;
    const m = LONG_OPTION.exec(t) ?? (table && startsWith(t, '--') ? /^--([\w-]*)(=([\s\S]*))?$/.exec(t) : null);
    if (!m) continue;
    // A program whose options the judge knows takes any beginning of one (`--rs=…` is `--rsh=…`): its full names are read.
    const resolved = table && startsWith(t, '--') ? resolveLong(m[1], table) : m[1];
    const runs = [m[1], ...(typeof resolved === 'string' ? [resolved] : resolved)].find((n) => !NOT_SHELL.test(n) && SHELL_OPTION.test(n));
    if (runs === undefined) continue;
    m[1] = runs;
    // `-exec` of find, `-e` of interpreters and the like are the program's own grammar, unwrapped elsewhere.
    if (!startsWith(t, '--') && name === 'find') continue;
    const value: Word | undefined = m[2] !== undefined ? { ...w, text: m[3] } : argv[i + 1];
    if (!value || value.text === '' || (m[2] === undefined && startsWith(value.text, '-'))) continue;
    const text = /wrapper$/i.test(m[1]) ? value.text.replace(/,/g, ' ') : value.text;
    out.push(scriptAction(`${name} --${m[1]}`, { ...value, text }));
    if (m[2] === undefined) i++;
  }
  return out;
}

/** `KEY=value` inside any argument whose key says the value runs (`ProxyCommand=…`, `Pre-Invoke::=…`, `runner="…"`, `ssh_command=…`). */
const KEY_RUNS = /([\w.:-]*(?:ProxyCommand|LocalCommand|Invoke|[Cc]ommand|_cmd|Cmd|\.cmd|textconv|\.driver|fsmonitor|[Hh]ook|runner|wrapper|launcher|LAUNCHER|toolexec|vettool|pager|editor|askpass|passcommand|PASSCOMMAND))(?:::)?\s*=\s*(?:"((?:\\.|[^"\\])*)"|'([^']*)'|([^\s'",]+(?:\s[^\s'",=]+)*))/g;

/** Shell text inside arguments: `KEY=value` with a key that runs its value, and fzf-style `execute(…)`. */
export function embeddedInArguments(argv: Word[], name: string): WrapAction[] {
  const out: WrapAction[] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i].text;
    if (!has(t, '=') && !has(t, '(')) continue;
    for (const m of t.matchAll(KEY_RUNS)) {
      const value = (m[2] ?? m[3] ?? m[4] ?? '').replace(/\\"/g, '"');
      if (value.trim()) out.push(scriptAction(`${name} ${m[1]}=`, { ...argv[i], text: /LAUNCHER|wrapper/i.test(m[1]) ? value.replace(/[;,]/g, ' ') : value }));
    }
    for (const m of t.matchAll(/\b(?:execute|execute-silent|become|reload|preview)\(([^)]*)\)/g)) if (m[1].trim()) out.push(scriptAction(`${name} ${m[0].split('(')[0]}()`, { ...argv[i], text: m[1] }));
    if (/^(scripts|hooks?|tasks?)\.[\w:.-]+=/.test(t)) out.push(scriptAction(`${name} ${t.split('=')[0]}`, { ...argv[i], text: t.slice(t.indexOf('=') + 1) }));
  }
  return out;
}

/** Programs whose operands are names, files, patterns or subcommands: an operand that names a program is not run. */
const OPERANDS_ARE_DATA = new Set([
  'man', 'which', 'type', 'whereis', 'whatis', 'apropos', 'tldr', 'info', 'help', 'hash', 'alias', 'unalias', 'complete', 'compgen', 'command', 'cheat',
  'echo', 'printf', 'print', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'awk', 'gawk', 'jq', 'yq', 'test', '[', '[[', 'read', 'export', 'set', 'unset', 'declare', 'local', 'readonly', 'typeset',
  'apt', 'apt-get', 'apt-cache', 'aptitude', 'brew', 'dnf', 'yum', 'pacman', 'snap', 'flatpak', 'zypper', 'apk', 'port', 'nix-env', 'dpkg', 'rpm', 'pkg', 'choco', 'winget', 'scoop',
  'npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'pipx', 'cargo', 'go', 'gem', 'composer', 'conda', 'mamba', 'uv', 'poetry', 'nvm', 'fnm', 'volta', 'asdf', 'mise', 'pyenv', 'rbenv', 'sdk', 'rustup',
  'git', 'docker', 'podman', 'kubectl', 'helm', 'systemctl', 'service', 'journalctl', 'pgrep', 'pkill', 'killall', 'pidof', 'ps', 'top', 'htop', 'lsof', 'kill', 'update-alternatives',
  'rpm', 'ls', 'cat', 'head', 'tail', 'less', 'more', 'file', 'stat', 'du', 'wc', 'diff', 'cmp', 'touch', 'mkdir', 'cp', 'mv', 'ln', 'install', 'chmod', 'chown', 'tar', 'zip', 'unzip', 'rm', 'cd', 'pushd',
  'code', 'vim', 'vi', 'nvim', 'nano', 'emacs', 'open', 'xdg-open', 'make', 'cmake', 'ninja', 'bazel', 'gradle', 'mvn', 'dotnet', 'java', 'javac', 'tsc', 'eslint', 'prettier', 'jest', 'mocha', 'pytest',
  'gh', 'glab', 'aws', 'gcloud', 'gsutil', 'az', 'azcopy', 'rclone', 's3cmd', 'terraform', 'ansible', 'vagrant', 'brew', 'sudo', 'doas', 'env', 'xargs', 'find', 'time', 'nice', 'nohup', 'timeout', 'watch', 'parallel', 'strace', 'ltrace',
  'ssh', 'scp', 'rsync', 'sort', 'uniq', 'cut', 'tr', 'tee', 'column', 'basename', 'dirname', 'realpath', 'readlink', 'true', 'false', ':', 'sleep', 'wait', 'exit', 'return', 'shift', 'trap', 'eval', 'exec', 'source', '.', 'getopts', 'ulimit', 'umask',
]);
/** Programs the rules judge by their arguments: an unknown program given one of these as an operand is taken to run it. */
const JUDGED = new Set([
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox', 'pwsh', 'python', 'python2', 'python3', 'pypy', 'pypy3', 'perl', 'ruby', 'node', 'nodejs', 'deno', 'bun', 'php', 'lua', 'luajit', 'julia', 'R', 'Rscript', 'tclsh', 'wish', 'osascript',
  'rm', 'rmdir', 'shred', 'dd', 'mkfs', 'wipefs', 'truncate', 'chmod', 'chown', 'chattr', 'mv', 'cp', 'tee', 'ln', 'find', 'xargs', 'env', 'printenv', 'set', 'export',
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'tftp', 'openssl', 'base64', 'xxd', 'tar', 'zip', 'gpg', 'cat', 'head', 'tail', 'less', 'strings', 'od', 'hexdump',
  'kill', 'pkill', 'killall', 'crontab', 'at', 'systemctl', 'iptables', 'ufw', 'sudo', 'su', 'doas', 'eval', 'exec', 'source', 'awk', 'gawk', 'sed', 'perl', 'make', 'gdb', 'sqlite3', 'git', 'npm', 'npx', 'pip', 'docker', 'kubectl', 'aws', 'gcloud', 'az', 'terraform', 'gh',
  'xmrig', 'nmap', 'masscan', 'hydra', 'mail', 'sendmail', 'ps', 'dig', 'nslookup', 'ping',
]);

/**
 * Shell text a program may evaluate, written into an argument: `$(…)`, `%(…)` and backticks inside
 * quotes, `system("…")`/`exec("…")` calls. Only for programs whose arguments are not plain data.
 */
function evaluatedFragments(argv: Word[], name: string): WrapAction[] {
  const out: WrapAction[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.dynamic || !/[`(]/.test(w.text)) continue;
    for (const m of w.text.matchAll(/[$%]\(([^()]*)\)|`([^`]+)`|\b(?:system|exec|execute|popen|shell|sh|run|spawn)\s*\(?\s*["']([^"']+)["']/g)) {
      const cmd = (m[1] ?? m[2] ?? m[3] ?? '').trim();
      if (cmd && JUDGED.has(cmd.split(/\s+/)[0].split('/').pop() ?? '')) out.push(scriptAction(`${name} (evaluates)`, { ...w, text: cmd }));
    }
  }
  return out;
}

/** For a program no rule knows: an operand that names a judged program starts the command it runs. */
export function unknownProgramActions(argv: Word[], name: string): WrapAction[] {
  if (OPERANDS_ARE_DATA.has(name) && name !== 'rpm' || JUDGED.has(name)) return [];
  const evaluated = evaluatedFragments(argv, name);
  if (evaluated.length) return evaluated;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.dynamic || startsWith(w.text, '-')) continue;
    const base = w.text.split('/').pop() ?? '';
    if (JUDGED.has(base) && (base === w.text || startsWith(w.text, '/'))) return [{ kind: 'argv', label: `${name} (runs its operands)`, argv: argv.slice(i) }];
    // A quoted operand that is a whole command line: `tool 'curl -s x | sh'`.
    if (/\s/.test(w.text) && /^['"]/.test(w.raw)) {
      const first = w.text.trim().split(/\s+/)[0].split('/').pop() ?? '';
      if (JUDGED.has(first)) return [{ kind: 'script', label: `${name} (runs a command line)`, script: w }];
    }
  }
  return [];
}

/** Whether the runner table or the operand lists above name `name` (its arguments are judged as what they run, or as data). */
export function runnerKnows(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(R, name) || OPERANDS_ARE_DATA.has(name) || JUDGED.has(name);
}
