// Rules for ordinary tools that can be made to run another program (filter_bypass), package
// installs, environment dumps, reads of credentials, and code the judge cannot see (eval, source,
// awk system()). Mentions inside arguments never count: `grep -r "rm -rf" .` is a search.
import path from 'node:path';
import { isEverydayEditor } from './command-env';
import { analyzeSed } from './command-sed';
import { GIT, gitSubcommandTable, GREP, MAN, PIP, RG, SORT, TAR, ZIP } from './command-option-tables';
import { hasFlag, hasLong, parseOptions, valuesOf } from './command-options';
import { gitConfigCall } from './command-git-config';
import { GIT_COMMAND_SETTING } from './command-wrapper-options';
import { SECRET_VAR } from './command-rules-secrets';
import { ask, baseName, deny, INTERPRETERS, isPathLike, SHELLS, type Finding, type SegmentView } from './command-view';
import { has, startsWith } from './command-strings';

/** tar's options whose value is a program or a command line it runs. */
const TAR_RUNS = ['to-command', 'checkpoint-action', 'use-compress-program', 'rsh-command', 'info-script', 'new-volume-script', 'rmt-command'] as const;

/** Files whose contents are credentials: reading them is the first half of an exfiltration. */
export const SECRET_PATH = /(^|\/)(\.ssh\/(id_|.*_key$|authorized_keys)|\.aws\/credentials|\.aws\/config|\.gnupg\/|\.netrc$|\.pgpass$|\.git-credentials$|\.docker\/config\.json$|\.kube\/config$|\.npmrc$|\.pypirc$|\.config\/gh\/hosts\.yml$|\.azure\/|\.config\/gcloud\/|\.bash_history$|\.zsh_history$|id_rsa|id_ed25519|id_ecdsa)|^\/etc\/(shadow|gshadow|sudoers|master\.passwd)|^\/proc\/(\d+|self|\*)\/(environ|mem|maps)/;
const GIT_DANGER_CONFIG = /^(core\.(sshcommand|pager|editor|hookspath|fsmonitor|askpass|gitproxy|alternaterefs)|diff\..*\.(textconv|command)|diff\.external|filter\..*\.(clean|smudge|process)|merge\..*\.driver|credential\.helper|gpg\.(program|.*\.program)|sequence\.editor|protocol\..*\.allow|uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack|proxy)|http\.proxy|https\.proxy|url\..*\.insteadof|include\.path|includeif\..*|init\.templatedir|alias\..*|pager\..*|web\.browser|browser\..*\.cmd|sendemail\..*cmd|notes\.rewriteref|status\.showuntrackedfiles)$/i;

/** A path that leaves the workspace: absolute, in the home folder, or up through `..`. */
const OUTSIDE_WORKSPACE = /^(\/|~|\$\{?HOME\b|[A-Za-z]:[\\/])|(^|[\\/])\.\.([\\/]|$)/;

/** Compression programs tar may be told to use, with their ordinary options. */
const COMPRESSOR = /^(zstd|unzstd|pzstd|xz|pixz|gzip|pigz|bzip2|pbzip2|lbzip2|lz4|lzip|plzip|lzma|lzop|brotli|compress)(\s+-{1,2}[\w=]+)*$/;

/**
 * Every program toolProgramRules can object to: the judge runs that part on no other (the dispatch
 * contract at RULES in command-dispatch.ts). A new `case` below needs its name here.
 */
export const TOOL_PROGRAMS: readonly string[] = [
  'sed', 'gsed', 'sort', 'rg', 'ripgrep', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'man', 'tar', 'gtar',
  'bsdtar', 'zip', 'unzip', 'awk', 'gawk', 'mawk', 'nawk', 'busybox awk', 'vim', 'vi', 'nvim', 'ex', 'emacs',
  'less', 'more', 'ed', 'nano', 'git', 'eval', 'source', '.', 'env', 'printenv', 'export', 'declare',
  'typeset', 'set', 'jq', 'yq', 'gojq', 'jaq', 'compgen', 'echo', 'printf', 'print',
];

/** The checks of named tools: the options that run another program, environment dumps, editors, git. */
export function toolProgramRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  switch (name) {
    case 'sed': case 'gsed': {
      const s = analyzeSed(args);
      if (s.exec) f.push(deny('filter_bypass', 'the sed script runs a program (the e command or flag)'));
      if (s.scriptFile) f.push(ask('filter_bypass', 'sed reads its script from a file the policy cannot see'));
      break;
    }
    case 'sort': {
      if (hasLong(parseOptions(args, SORT), 'compress-program')) f.push(deny('filter_bypass', 'sort --compress-program runs another program'));
      break;
    }
    case 'rg': case 'ripgrep': {
      const o = parseOptions(args, RG);
      if (hasLong(o, 'pre')) f.push(deny('filter_bypass', 'rg --pre runs another program on every file'));
      f.push(...recursiveOverRoot(name, o.operands.slice(valuesOf(o, ['regexp'], 'e').length || valuesOf(o, ['file'], 'f').length ? 0 : 1)));
      break;
    }
    case 'grep': case 'egrep': case 'fgrep': case 'ag': case 'ack': {
      const o = parseOptions(args, GREP);
      const patternGiven = valuesOf(o, ['regexp', 'file'], 'ef').length > 0;
      if (hasFlag(o, 'rR', ['recursive', 'dereference-recursive']) || name === 'ag' || name === 'ack') f.push(...recursiveOverRoot(name, o.operands.slice(patternGiven ? 0 : 1)));
      break;
    }
    case 'man': {
      const o = parseOptions(args, MAN);
      if (hasFlag(o, 'PH', ['pager', 'html', 'browser', 'preprocessor'])) f.push(deny('filter_bypass', 'man --html/--pager runs another program'));
      break;
    }
    case 'tar': case 'gtar': case 'bsdtar': {
      // `-I zstd`, `--use-compress-program='xz -T0'`: a compressor by name is what the option is for.
      const compressor = (i: number, a: string) => a === '-I' && COMPRESSOR.test(args[i + 1] ?? '') || /^-I./.test(a) && COMPRESSOR.test(a.slice(2));
      // The options that run a program, in any spelling tar takes (`--to-c=…`); a compressor by name stays allowed.
      const to = parseOptions(args, TAR);
      const handed = TAR_RUNS.some((n) => hasLong(to, n) && !(n === 'use-compress-program' && valuesOf(to, [n]).length > 0 && valuesOf(to, [n]).every((c) => COMPRESSOR.test(c))));
      if (handed || args.some((a, i) => !compressor(i, a) && /^-[A-Za-z]*[IF]/.test(a) && !a.startsWith('--')))
        f.push(deny('filter_bypass', 'tar runs another program (--to-command, --checkpoint-action, -I …)'));
      // Names kept absolute (-P) are written wherever the archive says: /etc, ~/.ssh.
      if ((hasLong(to, 'absolute-names') || args.some((a) => /^-[A-Za-z]*P/.test(a) && !a.startsWith('--'))) && (hasLong(to, 'extract') || hasLong(to, 'get') || args.some((a) => /^(-[A-Za-z]*x[A-Za-z]*|x[A-Za-z]*)$/.test(a)))) f.push(ask('dangerous_paths', 'tar -P extracts names as absolute paths, anywhere on the machine'));
      break;
    }
    case 'zip': if (args.some((a) => startsWith(a, '-TT')) || hasLong(parseOptions(args, ZIP), 'unzip-command')) f.push(deny('filter_bypass', 'zip -TT runs another program')); break;
    case 'unzip': if (args.some((a) => /^-[A-Za-z]*:/.test(a))) f.push(ask('dangerous_paths', 'unzip -: lets names with ../ write outside the folder')); break;
    case 'awk': case 'gawk': case 'mawk': case 'nawk': case 'busybox awk': {
      const prog = args.find((a) => !a.startsWith('-')) ?? '';
      if (/\bsystem\s*\(|\|\s*getline|\|&|print[^;}]*\|\s*"|\bclose\s*\(/.test(prog)) f.push(ask('code_injection', 'the awk program runs other commands'));
      if (args.some((a) => /^(-f|--file)/.test(a))) f.push(ask('code_injection', 'awk reads its program from a file the policy cannot see'));
      break;
    }
    case 'vim': case 'vi': case 'nvim': case 'ex': case 'emacs': case 'less': case 'more': case 'ed': case 'nano':
      if (args.some((a) => /^(-c|\+|--cmd|--eval|-e|-s)/.test(a) && /!|system|shell|call/.test(a + ' ' + args.join(' '))) || name === 'ed') f.push(ask('code_injection', `${name} can run commands from its arguments or input`));
      break;
    case 'git': f.push(...gitRule(args)); break;
    case 'eval': f.push(ask('code_injection', 'eval runs a string as a command')); break;
    case 'source': case '.':
      if (v.words.some((w) => w.dynamic) || args.some((a) => /^\/dev\/|^\/proc\//.test(a))) f.push(ask('code_injection', 'source of a path computed at run time'));
      else f.push(ask('code_injection', `${name} runs a script file the policy does not read`));
      break;
    case 'env': case 'printenv': {
      const names = v.args.filter((a) => !a.startsWith('-'));
      // `printenv PATH` prints one ordinary variable; `env | grep -i proxy` filters to names that are not secrets.
      if (name === 'printenv' && names.length && names.every((n) => !SECRET_VAR.test(n))) break;
      if (names.length === 0 || name === 'printenv') f.push(filteredOut(v) ? ask('env_dump', `${name} prints the environment, filtered by what reads it`) : deny('env_dump', `${name} prints the environment, secrets included`));
      break;
    }
    case 'export': case 'declare': case 'typeset': case 'set':
      if (args.length === 0 || args.every((a) => /^-[pxr]*$/.test(a))) f.push(deny('env_dump', `${name} without names prints the environment`));
      break;
    case 'jq': case 'yq': case 'gojq': case 'jaq':
      if (args.some((a) => !a.startsWith('-') && /(^|[^\w.$])(\$ENV|\$__loc__|env)\b(?!\s*\.\s*(PATH|HOME|USER|SHELL|PWD|LANG)\b)/.test(a))) f.push(deny('env_dump', `${name} reads the environment in its filter`));
      break;
    case 'compgen': if (args.includes('-v') || args.includes('-e')) f.push(deny('env_dump', 'compgen lists variables')); break;
  }
  if (/^(echo|printf|print)$/.test(name) && v.words.some((w) => [...w.raw.matchAll(/\$\{?!?([A-Za-z_][A-Za-z0-9_]*)/g)].some((m) => SECRET_VAR.test(m[1]))))
    f.push(deny('env_dump', `${name} prints a secret from the environment`));
  return f;
}

/** What any program may read by name (credential files, known_hosts), and package installs. */
/** Package managers by kind: packageRules reads each kind's install verbs (and toolConcerns names them all). */
const NODE_PMS = /^(npm|pnpm|yarn|bun|cnpm)$/;
const PIPS = /^(pip|pip3|pipx|pip2)$/;
const PYTHONS = ['python', 'python3', 'python2'];
const SYSTEM_PMS = /^(apt|apt-get|aptitude|dnf|yum|zypper|apk|pacman|yay|paru|snap|flatpak|brew|port|pkg|emerge|choco|winget|scoop|nix-env|dpkg|rpm|conda|mamba|micromamba|gem|cpan|cpanm|pecl|luarocks|opam|stack|cabal|rustup|sdk|asdf|mise|volta|nvm|n)$/;

/** The programs toolRules looks at by name: package managers (packageRules), and python running one. */
export const toolConcerns = (name: string): boolean => NODE_PMS.test(name) || PIPS.test(name) || SYSTEM_PMS.test(name) || /^(uv|poetry|pdm|pipenv|cargo|go|bundle|composer|deno)$/.test(name)
  || PYTHONS.includes(baseName(name));

/**
 * What its checks without a name (a credential file or known_hosts read) need in any other argv: a
 * path that names one, in an argument or a `<` redirection. The path test is the rule's own
 * (SECRET_PATH; known_hosts needs a `/`), so everyday paths (`out/test`, `src/a.ts`) do not run the
 * rest of the rule, whose other checks all need a package manager's name.
 */
export function toolWhen(v: SegmentView): boolean {
  const args = v.args;
  for (let i = 0; i < args.length; i++) if (namesSecret(args[i])) return true;
  const redirects = v.seg.redirects;
  for (let i = 0; i < redirects.length; i++) if ((redirects[i].op === '<' || redirects[i].op === '<>') && namesSecret(redirects[i].target.text)) return true;
  return false;
}

/** Necessary for toolRules' read checks on `a`: a place (`/`, `~`, `$` first) that SECRET_PATH or known_hosts matches. */
function namesSecret(a: string): boolean {
  return (has(a, '/') || startsWith(a, '~') || startsWith(a, '$')) && (has(a, 'known_hosts') || SECRET_PATH.test(a));
}

export function toolRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  const inputs = v.seg.redirects.filter((r) => r.op === '<' || r.op === '<>').map((r) => r.target.text);
  // What the program reads by name: its arguments and the files redirected into it (most argvs have none).
  const read = inputs.length ? [...args, ...inputs] : args;
  if (!/^(chmod|chown|chgrp|ls|stat|test|ssh-add|ssh-keygen|file)$/.test(name) && read.some((a) => (has(a, '/') || isPathLike(a)) && SECRET_PATH.test(a) && !/\.pub$/.test(a))) f.push(deny('data_exfiltration', 'the command reads a credential file (SSH keys, cloud or registry credentials, /etc/shadow, process environments)'));
  // known_hosts holds no key, only which servers this account reaches (hashed or not): worth a question, not a refusal.
  else if (!/^(ssh-keygen|ssh-keyscan|ls|stat|test)$/.test(name) && read.some((a) => has(a, 'known_hosts') && /(^|\/)\.ssh\/known_hosts2?$/.test(a))) f.push(ask('data_exfiltration', `${name} reads ~/.ssh/known_hosts, the list of servers this account connects to`));
  f.push(...packageRules(v));
  return f;
}

/** `env | grep PATTERN` with a pattern that names no secret: the output is one or a few ordinary variables. */
function filteredOut(v: SegmentView): boolean {
  if (v.seg.joinedBy === '' && v.seg.context === 'top' && v.pipedTo?.name === 'wc') return true; // `env | wc -l` only counts
  return v.seg.joinedBy === '' && v.seg.context === 'top' && v.pipedTo !== undefined && /^(grep|egrep|rg)$/.test(v.pipedTo.name) && v.pipedTo.args.some((a) => !a.startsWith('-')) && !v.pipedTo.args.some((a) => SECRET_VAR.test(a.replace(/^\^/, '')) && !PLAIN_SETTING.test(a) || /^-v$/.test(a));
}

/** Names that match a secret prefix (`NPM_`, `AWS_`) yet say they are an ordinary setting: a proxy, a registry, a region, a path. */
const PLAIN_SETTING = /^\^?[A-Za-z_]*_(proxy|registry|region|path|home|prefix|cache|loglevel|color|profile)\$?$/i;

/** GoClaw advisory: `grep -R` over / or ~ reads every secret on the machine. */
function recursiveOverRoot(name: string, paths: string[]): Finding[] {
  if (paths.some((p) => /^(\/+|~\/?|\$HOME\/?|\/(etc|root|home|Users|proc|sys|var|private)(\/.*)?)$/.test(p)))
    return [ask('dangerous_paths', `${name} searches recursively through system or home folders`)];
  return [];
}

/** Whether a command line starts a shell or an interpreter (`sh -c id`, `python3 x.py`). */
function runsCode(line: string): boolean {
  const program = line.trim().split(/\s+/)[0] ?? '';
  return SHELLS.has(path.posix.basename(program)) || INTERPRETERS.has(baseName(path.posix.basename(program)));
}

function gitRule(args: string[]): Finding[] {
  const f: Finding[] = [];
  const o = parseOptions(args, GIT);
  const configs = valuesOf(o, [], 'c');
  const fromEnv = valuesOf(o, ['config-env']);
  const sub = o.operands[0] ?? '';
  const rest = o.operands.slice(1);
  // A setting whose value is a command line (`core.pager=less`) is judged as that command by the parser;
  // a shell or an interpreter there runs what the setting's name does not say.
  const runsOther = (c: string) => GIT_DANGER_CONFIG.test(c.split('=')[0]) && !(c.includes('=') && GIT_COMMAND_SETTING.test(c.split('=')[0]) && !runsCode(c.slice(c.indexOf('=') + 1)));
  if (configs.some((c) => runsOther(c) || /^alias\..*=!/.test(c)) || fromEnv.some((c) => GIT_DANGER_CONFIG.test(c.split('=')[0]))) f.push(deny('filter_bypass', 'git -c sets an option that runs another program'));
  if (valuesOf(o, ['exec-path']).length) f.push(deny('filter_bypass', 'git --exec-path loads git commands from another folder'));
  const ro = parseOptions(rest, gitSubcommandTable(sub));
  // The programs git runs by default under their own names change nothing; `rebase --exec CMD` runs a
  // command line, which the judge reads like any other argument that is shell text.
  const packs = [...valuesOf(ro, ['upload-pack', 'receive-pack', ...(sub === 'rebase' ? [] : ['exec' as const])]), ...valuesOf(o, ['upload-pack', 'receive-pack', 'exec']), ...(/^(clone|fetch|pull|ls-remote|archive|submodule)$/.test(sub) ? valuesOf(ro, [], 'u') : [])];
  if (packs.some((p) => !/^git[- ](upload-pack|receive-pack|upload-archive)$/.test(p)) || (sub === 'push' && (hasLong(ro, 'receive-pack') || hasLong(ro, 'exec')) && !packs.length))
    f.push(deny('filter_bypass', 'git --upload-pack/--receive-pack/--exec runs another program'));
  if ([...rest, ...valuesOf(ro, ['config'])].some((a) => /^ext::|(^|\s)-c\s*protocol|^fd::/.test(a))) f.push(deny('filter_bypass', 'git ext:: transport runs a command'));
  if ((sub === 'clone' || sub === 'submodule') && valuesOf(ro, ['config'], 'c').some(runsOther)) f.push(deny('filter_bypass', 'git clone -c sets an option that runs another program'));
  // A template's hooks are copied into the new repository and run by git (post-checkout at the end of a
  // clone), as with `-c init.templateDir`: a template from outside the workspace is a program from there.
  if (/^(clone|init|submodule)$/.test(sub) && valuesOf(ro, ['template']).some((d) => OUTSIDE_WORKSPACE.test(d)))
    f.push(deny('filter_bypass', `git ${sub} --template copies hooks from a folder outside the workspace, which git runs`));
  if (sub === 'config') {
    const { sets: setting, unsets: unset, key: name, value, long } = gitConfigCall(rest);
    // Hooks kept in the repository (`.husky`, `.githooks`): the files are the workspace's own, read like any other.
    const ownHooks = /^core\.hookspath$/i.test(name ?? '') && /^(\.\/)?[\w.-]+(\/[\w.-]+)*\/?$/.test(value) && !value.split('/').includes('..')
      || /^(core|sequence)\.editor$/i.test(name ?? '') && isEverydayEditor(value); // `code --wait` is the editor a person uses
    if (unset) { /* taking a setting away runs nothing */ }
    else if (setting && name && GIT_DANGER_CONFIG.test(name) && !ownHooks) f.push(deny('persistence', `git config ${name} makes git run a program later`));
    else if (setting && long.some((l) => l === 'global' || l === 'system')) f.push(ask('write', 'git config --global changes settings outside the workspace'));
  }
  if (sub === 'daemon' || sub === 'instaweb') f.push(deny('network_recon', `git ${sub} serves the repository to the network`));
  return f;
}

const INSTALL_SUB = /^(install|i|add|isntall|in|ins|inst|insta|instal|update|upgrade|up|ci|link|ln|global|dlx|reinstall|sync)$/;

function packageRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const bn = baseName(name);
  const nonOpt = v.operands;
  const sub = nonOpt[0] ?? '';
  const pkgArgs = nonOpt.slice(1);
  const named = (list: readonly string[]) => list.some((p) => !/^(\.|\/|-)/.test(p));
  const deny1 = (what: string) => [deny('package_install', `${what} installs a package from a registry (its install scripts run)`)];
  const ask1 = (what: string) => [ask('package_install', `${what} installs the project's dependencies (their install scripts run)`)];
  if (NODE_PMS.test(name)) {
    if (name === 'yarn' && (args.length === 0 || sub === 'install')) return args.includes('-g') || args.includes('--global') ? deny1('yarn global') : ask1('yarn install');
    if (name === 'yarn' && (sub === 'global' || sub === 'add' || sub === 'dlx')) return deny1(`yarn ${sub}`);
    if (sub === 'exec' || sub === 'x' || sub === 'dlx' || sub === 'create' || sub === 'init' && pkgArgs.length) return [];
    if (INSTALL_SUB.test(sub) && sub !== 'update' && sub !== 'upgrade' && sub !== 'up' || sub === 'add') {
      if (args.some((a) => a === '-g' || a === '--global' || a === '--location=global')) return deny1(`${name} ${sub} -g`);
      return named(pkgArgs) || sub === 'add' ? deny1(`${name} ${sub}`) : ask1(`${name} ${sub}`);
    }
    if (/^(update|upgrade|up)$/.test(sub)) return ask1(`${name} ${sub}`);
    return [];
  }
  if (PIPS.test(name) || PYTHONS.includes(bn) && args[0] === '-m' && /^(pip|pip3|ensurepip)$/.test(args[1] ?? '')) {
    const a2 = name.startsWith('pip') ? args : args.slice(2);
    const o = parseOptions(a2, PIP);
    if (o.operands[0] !== 'install') return o.operands[0] === 'download' ? deny1('pip download') : [];
    const pkgs = o.operands.slice(1);
    return named(pkgs) ? deny1('pip install') : ask1('pip install');
  }
  if (name === 'uv' || name === 'poetry' || name === 'pdm' || name === 'pipenv') {
    if (/^(add|install)$/.test(sub) && named(pkgArgs)) return deny1(`${name} ${sub}`);
    if (sub === 'pip' && nonOpt[1] === 'install') return deny1('uv pip install');
    if (/^(sync|install|lock)$/.test(sub)) return ask1(`${name} ${sub}`);
    return [];
  }
  if (SYSTEM_PMS.test(name)) {
    if (/^(install|add|reinstall|-S|-U|-i|--install|upgrade|dist-upgrade|full-upgrade|localinstall|get)$/.test(sub) || args.some((a) => /^-(S|U|i|ivh|Uvh)[a-z]*$/.test(a)) && /^(pacman|yay|paru|rpm|dpkg)$/.test(name))
      return deny1(`${name} ${sub}`.trim());
    return [];
  }
  if (name === 'cargo' && (sub === 'install' || sub === 'binstall')) return deny1('cargo install');
  if (name === 'go' && (sub === 'install' || sub === 'get')) return named(pkgArgs) && pkgArgs.some((p) => /@|\./.test(p)) ? deny1(`go ${sub}`) : [];
  if (name === 'bundle' && sub === 'install' || name === 'composer' && /^(install|update)$/.test(sub)) return ask1(`${name} ${sub}`);
  if (name === 'composer' && sub === 'require' || name === 'deno' && sub === 'install') return deny1(`${name} ${sub}`);
  return [];
}
