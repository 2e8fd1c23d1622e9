// Every path in any argument — not only in the options rules know — that leads outside the workspace
// to a credential store, a start-up file, a scheduled job or a system secret is treated as the access
// it would be: read by a program that prints or copies files, a credential is exfiltration; a system
// secret is always refused; a start-up file handed to a program that is not a plain reader may be
// changed. Output options of any program (`-o`, `--output`, `--outFile`, `-Logfile`, `--junit-xml`,
// `--dump-bin` …) are write targets, checked like redirections.
import path from 'node:path';
import type { PathResolver } from '../fs/types';
import type { WriteTarget } from './command-writes';
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { codeAt, endsWith, has, startsWith } from './command-strings';
import { relativeGoesUp } from './command-cwd';
import { T_DOLLAR0, T_SLASH, T_TILDE0, traitsOf } from './command-traits';

/** Credential stores under the home folder: keys, cloud/registry/CLI tokens, keychains, browser profiles. */
const CREDENTIAL_STORE = /^(\.ssh\/(?!.*\.pub$)(?!known_hosts$)(?!config$).+|\.ssh\/?$|\.aws(\/|$)|\.config\/gh(\/|$)|\.docker\/config\.json$|\.docker\/?$|\.kube(\/|$)|\.npmrc$|\.netrc$|\.git-credentials$|\.gnupg(\/|$)|\.pypirc$|\.pgpass$|\.my\.cnf$|\.config\/gcloud(\/|$)|\.azure(\/|$)|\.oci(\/|$)|\.config\/doctl(\/|$)|Library\/Keychains(\/|$)|\.local\/share\/keyrings(\/|$)|\.password-store(\/|$)|\.mozilla\/firefox(\/|$)|\.config\/(google-chrome|chromium|BraveSoftware|microsoft-edge|vivaldi|opera)(\/|$)|Library\/Application Support\/(Google\/Chrome|Firefox|BraveSoftware|Microsoft Edge|com\.apple\.TCC)(\/|$)|Library\/Cookies(\/|$)|Library\/Safari(\/|$)|\.vault-token$|\.terraform\.d\/credentials|\.cargo\/credentials|\.gem\/credentials|\.config\/hub$|\.config\/op(\/|$)|\.config\/rclone(\/|$)|\.s3cfg$|\.boto$|\.bash_history$|\.zsh_history$|\.python_history$|\.psql_history$|\.mysql_history$|\.node_repl_history$|\.config\/Code\/User\/globalStorage|\.vscode-server\/data\/User\/globalStorage|\.gradle\/gradle\.properties$|\.m2\/settings(-security)?\.xml$|(\.nuget\/NuGet|\.config\/NuGet|AppData\/Roaming\/NuGet)\/NuGet\.Config$|\.ivy2\/\.credentials$|\.sbt\/(\d[\w.]*\/)?credentials|\.config\/containers\/auth\.json$|\.databrickscfg$|\.snowsql\/config$|\.pulumi\/credentials\.json$|\.kaggle\/kaggle\.json$|(\.cache\/)?huggingface\/token$|\.config\/configstore\/firebase-tools\.json$|\.config\/netlify(\/|$)|\.netlify\/config\.json$|\.fly\/config\.yml$|\.wrangler\/config|\.config\/helm\/repositories\.yaml$|\.dbt\/profiles\.yml$|AppData\/Roaming\/(gcloud|GitHub CLI|rclone|FileZilla|Microsoft\/(Credentials|Protect|Crypto))(\/|$)|AppData\/Local\/(Google\/Chrome\/User Data|Microsoft\/(Credentials|Edge\/User Data)|BraveSoftware)(\/|$)|AppData\/Roaming\/Mozilla\/Firefox(\/|$))/;
const SYSTEM_SECRET = /^(\/etc\/(shadow|gshadow|sudoers|sudoers\.d|master\.passwd|security\/opasswd|ssh\/ssh_host_[\w]+_key)$|\/etc\/(shadow|gshadow)-$|\/proc\/[^/]+\/(environ|mem|root|cwd|fd|maps|auxv)(\/|$)|\/proc\/(kcore|kallsyms)$|\/dev\/(mem|kmem|port)$|\/root(\/|$)|\/var\/run\/secrets(\/|$)|\/run\/secrets(\/|$)|\/var\/lib\/(docker|containerd|kubelet|sss)(\/|$)|\/etc\/krb5\.keytab$|\/etc\/ssl\/private(\/|$)|[^/]\.keytab$)/;
const STARTUP = /^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.cshrc|\.tcshrc|\.kshrc|\.xprofile|\.xinitrc|\.config\/fish\/config\.fish|\.config\/autostart(\/.*)?|\.config\/systemd(\/.*)?|\.config\/fish(\/.*)?|\.local\/bin(\/.*)?|Library\/LaunchAgents\/.*|\.ssh\/(authorized_keys2?|rc|environment|config)|\.gitconfig|\.config\/git\/config)$/;
const SYSTEM_STARTUP = /^\/etc\/(cron[\w.]*(\/.*)?|crontab|anacrontab|systemd\/.*|init\.d\/.*|rc\.local|profile(\.d\/.*)?|bash\.bashrc|environment|ld\.so\.preload|update-motd\.d\/.*)$|^\/var\/spool\/(cron|at)(\/|$)|^\/Library\/(LaunchAgents|LaunchDaemons)\//;

/** Programs that only read or list what they are given, or manage a key without showing it. */
const PLAIN_READERS = /^(cat|bat|batcat|less|more|head|tail|grep|egrep|fgrep|rg|wc|diff|cmp|file|stat|ls|ll|exa|eza|tree|md5sum|sha1sum|sha256sum|test|\[|\[\[|realpath|readlink|dirname|basename|echo|printf)$/;
const KEY_TOOLS = /^(chmod|chown|chgrp|ls|stat|test|\[|\[\[|ssh-add|ssh-keygen|mkdir|touch|file|realpath|readlink|dirname|basename|echo|printf|ll|exa|eza|tree)$/;

export type PathClass = 'credential' | 'system-secret' | 'startup' | 'tool-settings';

/** File names that are keys, passwords, tokens, wallets or records of what was typed, wherever a tool keeps them. */
const SECRET_BASENAME = /^\.?([^/]*\.(key|pem|p12|pfx|jks|keystore|kdbx|kdb|ppk|ovpn|keytab|credentials?|nmconnection|pot)|[^/]*(passw|secret|token|credential|apikey|api_key|private)[^/]*|passwd|wallet\.dat|keys\.txt|[\w.-]*_?history|logins\.json|key[34]\.db|signons\.sqlite|cookies(\.sqlite)?|login data|web data|vault[_-]?pass[\w.]*|tailscaled\.state|sitemanager\.xml|recentservers\.xml|accounts\.xml)$/i;
/** System configuration that holds keys or passwords: VPN, Wi-Fi, cluster admin, CI and database service accounts, certificate keys. */
const SYSTEM_SECRET_NAME = /^\/etc\/(openvpn|wireguard|ipsec\.d|strongswan|NetworkManager\/system-connections)\/|^\/etc\/letsencrypt\/(live|archive)\/.*privkey|^\/etc\/kubernetes\/([\w-]+\.conf|pki\/.*\.key)$|^\/etc\/rancher\/.*\.yaml$|^\/var\/lib\/jenkins\/(secrets|credentials\.xml)|^\/etc\/gitlab(-runner)?\/|^\/etc\/mysql\/debian\.cnf$|^\/opt\/vault\/|\/[^/]*(\.key|privkey[^/]*|secret[^/]*|credentials?[^/]*|passw[^/]*|\.keytab)$/i;

/** A command-line tool's own settings file in the home folder, where most CLIs keep their login token. */
const TOOL_SETTINGS = /^(\.config\/[^/]+|\.[^/.][^/]*)\/(config|auth|hosts|credentials?|token|session|cookies?|accounts?)(\.(json|toml|ya?ml|ini|cfg|conf))?$/i;

/** The class of an absolute, resolved path, or undefined for an ordinary one. */
export function classifyPath(abs: string, home: string): PathClass | undefined {
  let rel = path.relative(home, abs);
  // Another user's home folder holds the same kinds of files (`/home/user/.ssh`, `/Users/x/.aws`).
  const other = /^\/(?:home\/[^/]+|Users\/[^/]+|root)\/(.*)$/.exec(abs);
  if ((rel.startsWith('..') || path.isAbsolute(rel)) && other) rel = other[1];
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    // The home folder may be /root: what is inside it is judged as a home folder, not as a system path.
    if (CREDENTIAL_STORE.test(rel)) return 'credential';
    if (STARTUP.test(rel)) return 'startup';
    // In a tool's hidden folder or a dotfile, a name that says key, secret, token, wallet or history is one.
    if (/^(\.|Library\/|AppData\/)/.test(rel) && SECRET_BASENAME.test(path.basename(rel))) return 'credential';
    if (TOOL_SETTINGS.test(rel) || /^\.[\w-]+rc(\.(ya?ml|json|toml))?$/.test(rel) && !/^\.(vim|gvim|nano|input|tmux|screen|wget|curl|nvm|editorconfig|prettier|eslint|babel|mocha|nyc)rc/.test(rel)
      || /^\.(config\/)?[\w.-]+\/.*\.(ya?ml|toml|json|conf|cfg|ini|state)$/.test(rel) && !/^\.(cache|npm|vscode|local\/share\/(nvim|vim)|config\/(nvim|Code\/User\/(settings|keybindings)\.json))/.test(rel)) return 'tool-settings';
    return undefined;
  }
  if (SYSTEM_SECRET.test(abs) || /^\/(etc|var\/lib|opt|srv)\//.test(abs) && SYSTEM_SECRET_NAME.test(abs)) return 'system-secret';
  if (SYSTEM_STARTUP.test(abs)) return 'startup';
  return undefined;
}

/** Where a path inside a longer argument can start: the scan below runs only on arguments with one (a matchAll costs an iterator and a regex copy). */
const EMBEDDED_PATH_START = /[=:;@,][/~]/;

/** Hoisted: candidates runs on every argument of every argv, and a regex literal in a function is a new object per evaluation. */
const OPTION_VALUE = /^--?[\w-]+=(.+)$/;
const PATH_START = /^(\/|~|\$HOME|\$\{HOME\}|\.\.\/)/;
const PARENT_STEP = /(^|\/)\.\.(\/|$)/;
const ROOTED = /^(\/|~)/;
const RUNTIME_NAME = /[$`]/;
const GLUED_OUTPUT = /^-o((?:\/|~|\.\.?\/).+)$/;
const OPTION_NAME = /^--?([A-Za-z][\w-]*)(=(.*))?$/;
const OUTPUT_VALUE = /^(\/|~|\$HOME|\.\.?\/)/;
const COPYING_CLIS = /^(docker|podman|nerdctl|kubectl|oc|lxc|incus)$/;

/** Candidate paths in the arguments: each word, and the value of `--opt=VALUE` / `-oVALUE`-less forms. */
function candidates(v: SegmentView, cwdOutside: boolean, traits: number): string[] {
  const out: string[] = [];
  // An argument is looked at only when it has a `/` or starts with `~` or `$` (or the folder is outside): the traits say whether any does.
  if (cwdOutside || (traits & (T_SLASH | T_TILDE0 | T_DOLLAR0)) !== 0) for (const a of v.args) {
    if (!cwdOutside && !has(a, '/') && !startsWith(a, '~') && !startsWith(a, '$')) continue;
    const eq = OPTION_VALUE.exec(a);
    const s = eq ? eq[1] : a;
    if (PATH_START.test(s) || PARENT_STEP.test(s)) out.push(s);
    else if (cwdOutside && !startsWith(a, '-')) out.push(a);
    // A path inside a longer argument: `if=/etc/shadow`, `xml:/home/u/.bashrc`, `LogFileName=~/.profile`, `x@/etc/shadow`.
    if (EMBEDDED_PATH_START.test(a)) for (const m of a.matchAll(/[=:;@,](\/[^\s;,"'=:]+|~\/[^\s;,"'=:]+)/g)) out.push(m[1]);
  }
  for (const x of v.seg.assignments) if (ROOTED.test(x.value.text)) out.push(x.value.text);
  for (const w of v.words) { const p = windowsHomePath(w.raw); if (p) out.push(p); }
  for (const r of v.seg.redirects) if (r.op === '<' || r.op === '<>') out.push(r.target.text);
  return out;
}

/**
 * A Windows spelling of a place in the home folder, as a POSIX path under `~` (`%USERPROFILE%\.ssh\id_rsa`,
 * `$env:APPDATA\gcloud\credentials.db`, `C:\Users\dev\.aws\credentials`), so the same classes apply.
 */
export function windowsHomePath(raw: string): string | undefined {
  if (!has(raw, '\\') && !has(raw, '%') && !has(raw, '$')) return undefined; // what the pattern below needs
  if (!/[\\%]|\$env:/i.test(raw)) return undefined;
  const s = raw.replace(/^["']|["']$/g, '').replace(/\\+/g, '/');
  const m = /^(?:%(userprofile|homepath)%|\$env:(userprofile|home|homepath)|\$home|~|[a-z]:\/users\/[^/]+)(\/.*)?$/i.exec(s);
  if (m) return `~${m[3] ?? ''}`;
  const app = /^(?:%(appdata|localappdata)%|\$env:(appdata|localappdata))(\/.*)?$/i.exec(s);
  if (app) return `~/AppData/${/^local/i.test(app[1] ?? app[2]) ? 'Local' : 'Roaming'}${app[3] ?? ''}`;
  return undefined;
}

export interface PathContext {
  cwd: string | undefined;
  home: string;
  guard?: PathResolver;
}

/** Resolves symlinks of what exists (the workspace link to ~/.ssh is ~/.ssh); lexical otherwise. */
function resolved(p: string, ctx: PathContext): string {
  const expanded = p.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, ctx.home);
  const lexical = path.resolve(ctx.cwd ?? ctx.home, expanded);
  if (!ctx.guard?.resolveSync) return lexical;
  try {
    return ctx.guard.resolveSync(lexical, 'read').abs;
  } catch {
    return lexical; // outside the workspace or refused: the lexical path is what the class is judged on
  }
}

/** Secrets a glob may name (`/etc/sh*ow`, `/etc/s[h]adow`). */
const GLOB_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/master.passwd', '/etc/krb5.keytab'];

function globHitsSecret(word: string): boolean {
  if (!startsWith(word, '/etc/') || !/[*?[]/.test(word)) return false;
  const re = new RegExp(`^${word.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  return GLOB_SECRETS.some((p) => re.test(p));
}

/** `traits`: the argv's traits (command-traits.ts), when the caller has worked them out. */
export function argumentPathRules(v: SegmentView, ctx: PathContext, root?: string, traits: number = traitsOf(v)): Finding[] {
  const f: Finding[] = [];
  // The three checks below need a `/` in the argument (`/etc/…`, `…/environ`, `…/proc/…`): most argvs have none.
  const slash = (traits & T_SLASH) !== 0;
  if (slash && v.args.some(globHitsSecret)) f.push(deny('data_exfiltration', `${v.name} is given a pattern that matches a system secret`));
  if (slash && v.args.some((a) => endsWith(a, '/environ') && /^(\/proc|\$)/.test(a))) f.push(deny('env_dump', `${v.name} reads a process's environment`));
  // The host's /proc mounted into a container (`/host/proc/1/root`): another process's root is the host's file system.
  if (slash && v.args.some((a) => has(a, '/proc/') && /.\/proc\/\d+\/(root|cwd)(\/|$)/.test(a))) f.push(deny('container_escape', `${v.name} reaches another process's root through a mounted /proc`));
  const cwdOutside = outsideRoot(root, ctx.cwd);
  for (const p of candidates(v, cwdOutside, traits)) {
    const cls = classifyPath(resolved(p, ctx), ctx.home);
    if (cls === 'system-secret') f.push(deny(/\/proc\/1\/root|\/var\/lib\/(docker|containerd)/.test(p) ? 'container_escape' : 'data_exfiltration', `${v.name} is given a system secret or another process's memory, environment or root (${p})`));
    else if (cls === 'credential' && (!KEY_TOOLS.test(v.name) || optionValue(v, p) && !/^ssh-(add|keygen)$/.test(v.name)) && !ownSettings(v.name, p)) f.push(deny('data_exfiltration', `${v.name} is given a credential store (${p}): keys, tokens, keychains or browser profiles`));
    else if (cls === 'tool-settings' && !KEY_TOOLS.test(v.name)) f.push(ask('data_exfiltration', `${v.name} is given a tool's settings file in the home folder (${p}), where CLIs keep their login tokens`));
    else if (cls === 'startup' && !PLAIN_READERS.test(v.name)) f.push(ask('persistence', `${v.name} is given a start-up or scheduled-job file (${p}) it may change`));
  }
  // A program known only at run time already asks as a parse problem, which names the real reason.
  if (!f.length && root !== undefined && !LOOKERS.test(v.name) && !RUNTIME_NAME.test(v.exe)) {
    const far = foreignPlace(v, ctx, root);
    if (far) f.push(ask('dangerous_paths', far.kind === 'temp'
      ? `${v.name} is given something in a shared temporary folder (${far.p}), which anyone on the machine can have put there, to load or run`
      : `${v.name} is given ${far.p}, a folder outside the workspace (the home folder, another user's or the whole system), to work on`));
  }
  return f;
}

/**
 * Whether the working directory lies outside the workspace root. Every argv of a command asks with
 * the same two paths (until a `cd`), so the last answer is kept: path.relative was a third of the rule's time.
 */
let lastOutside: { root: string; cwd: string; outside: boolean } | undefined;
function outsideRoot(root: string | undefined, cwd: string | undefined): boolean {
  if (root === undefined || cwd === undefined) return false;
  if (lastOutside?.root !== root || lastOutside.cwd !== cwd) lastOutside = { root, cwd, outside: relativeGoesUp(root, cwd) };
  return lastOutside.outside;
}

/** `file -f LIST`, `file -m MAGIC`, `--from=FILE`: the path is read as the option's input, not looked at. */
function optionValue(v: SegmentView, p: string): boolean {
  return v.args.some((a, i) => a === p && /^-[A-Za-z]$|^--[\w-]+$/.test(before(v.args, i) ?? '') || a.endsWith(p) && /^(--[\w-]+=|-[A-Za-z])./.test(a) && a !== p);
}

/** A build tool handed its own settings file (`mvn -s ~/.m2/settings.xml`): it reads the credentials it was given them for. */
function ownSettings(name: string, p: string): boolean {
  return /^(mvn|mvnw|mvnd)$/.test(name) && /\.m2\//.test(p) || /^(gradle|gradlew)$/.test(name) && /\.gradle\//.test(p) || /^(nuget|dotnet)$/.test(name) && /NuGet\.Config$/i.test(p) || name === 'sbt' && /\.(sbt|ivy2)\//.test(p);
}

/** Programs that only look: listing, reading or finding in a folder outside the workspace changes nothing. */
const LOOKERS = /^(cd|pushd|ls|ll|la|dir|exa|eza|tree|du|df|stat|file|which|type|realpath|readlink|dirname|basename|echo|printf|test|\[|\[\[|cat|bat|batcat|less|more|head|tail|grep|egrep|fgrep|rg|ag|ack|wc|diff|cmp|md5sum|sha1sum|sha256sum|mkdir|mktemp|touch|code|open|xdg-user-dir|git|jq|yq|man)$/;
/** foreignPlace's patterns, hoisted (a regex literal in a loop is a new object each time). */
const SAME_VALUE = /^(\w+)=\$\{?\1\}?$/;
const PLACE_ARG = /^(?:-[A-Za-z]{1,2}(?=[/~])|--?[\w-]+=|[\w.-]+=)?((?:\/|~|\$HOME|\$\{HOME\})[^\s]*)$/;
const FILE_URL = /^(file:\/\/)(\/[^\s]*)$/;
/** find only looks unless it runs, deletes or prints into files. */
const FIND_ACTS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

/**
 * An argument naming a place outside the workspace a program should not be pointed at: the home
 * folder itself or something in it, another user's home, the root of the file system (a server, an
 * archive or a copy rooted there reaches every file), or a shared temporary folder (code or a
 * configuration loaded from there may have been planted). Option values count (`-o/home/u`,
 * `-B/tmp/x`, `--plugin=/tmp/x.so`).
 */
function foreignPlace(v: SegmentView, ctx: PathContext, root: string): { p: string; kind: 'home' | 'temp' } | undefined {
  if (v.name === 'find' && !v.args.some((a) => FIND_ACTS.test(a))) return undefined;
  for (const a of v.args) {
    // Every form below names a path with `/`, `~` or `$HOME`: most arguments have none of them.
    if (!has(a, '/') && !has(a, '~') && !has(a, '$')) continue;
    // Each form below starts with `/`, `~`, `$` or `-`, holds a `=`, or is a file:// URL: a relative path (most) names no place.
    const c0 = codeAt(a, 0);
    const eq = has(a, '=');
    if (c0 !== 0x2f && c0 !== 0x7e && c0 !== 0x24 && c0 !== 0x2d && !eq && !startsWith(a, 'file://')) continue;
    if (eq && SAME_VALUE.test(a)) continue; // `env -i HOME=$HOME`: the value the program would have had anyway
    const m = PLACE_ARG.exec(a) ?? FILE_URL.exec(a)?.slice(1);
    if (!m) continue;
    const p = m[1];
    if (/^\/(tmp|var\/tmp|dev\/shm)\/./.test(p)) return { p, kind: 'temp' };
    const abs = path.resolve(p.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, ctx.home));
    const rel = path.relative(root, abs);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) continue;
    const inHome = abs === ctx.home || !path.relative(ctx.home, abs).startsWith('..');
    if (abs === '/' || inHome || /^\/(home|Users)\/[^/]+(\/|$)|^\/root(\/|$)/.test(abs)) return { p, kind: 'home' };
  }
  return undefined;
}

/** Long options (any program) whose value is a file the program writes. */
const OUTPUT_OPTION = /^(o|output|output-path|outputfile|target-dir|pack-destination|coverprofile|resultlog|tee|report-dir|html-dir|out|outfile|out-file|output-file|outdir|out-dir|output-dir|output-directory|log|logfile|log-file|log-path|junit-xml|junitxml|xml|dump|dump-bin|dump-file|report|report-file|save|save-to|write|write-to|export|dest|destination|html|json-report|coverage-file|pidfile|pid-file|result-file|results|trace-file|keylog|cookie-jar|dump-header)$/i;

/** `KEY=PATH` inside an argument, with a key that names where output goes. */
const OUTPUT_KEY = /(?:^|[:;,\s])(?:LogFile|logfile|log|OutFile|outfile|OutDir|outdir|OutputPath|output_path|output_dir|outputdir|out|output|dest|destination|target_dir)=((?:\/|~|\.\.\/)[^;,\s]*)/g;

/** `docker cp CONTAINER:SRC DEST`, `kubectl cp POD:SRC DEST`: DEST is written on this machine. */
export function copyOutTargets(v: SegmentView): WriteTarget[] {
  if (!COPYING_CLIS.test(v.name)) return [];
  const w = v.args.filter((a) => !a.startsWith('-'));
  const at = w.findIndex((x) => x === 'cp' || x === 'file' && v.name !== 'docker');
  const [src, dest] = w.slice(at + (w[at] === 'file' ? 2 : 1));
  if (at < 0 || !src || !dest || !/^[\w.-]+:/.test(src) || /^[\w.-]+:/.test(dest)) return [];
  return [{ text: dest, dynamic: false, by: `${v.name} cp` }];
}

/** `-o FILE`, `--output=FILE`, `-Logfile FILE`, `--junit-xml=FILE` … of any program, when the value is a path. */
export function outputOptionTargets(v: SegmentView): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i];
    // Every form below starts at an option (`-…`) or holds a `=`: other words (most) name no output.
    if (codeAt(a, 0) !== 0x2d && !has(a, '=')) continue;
    // `-o/etc/cron.d`, `-o../../x` (7-Zip's only spelling, and a common one for compilers).
    const glued = startsWith(a, '-o') ? GLUED_OUTPUT.exec(a) : null;
    if (glued) { out.push({ text: glued[1], dynamic: v.words[i]?.dynamic ?? false, by: `${v.name} -o` }); continue; }
    // An output named inside a longer argument: `-flp:LogFile=/x`, `-var out=/x`, `/p:OutDir=/x`.
    if (has(a, '=')) for (const m of a.matchAll(OUTPUT_KEY)) out.push({ text: m[1], dynamic: v.words[i]?.dynamic ?? false, by: `${v.name} ${m[0].split('=')[0].replace(/^[:;,]/, '')}=` });
    // `csplit -f PREFIX`: the pieces are written under the prefix.
    if (v.name === 'csplit' && /^(-f|--prefix)$/.test(a) && /^(\/|~|\.\.\/)/.test(v.args[i + 1] ?? '')) out.push({ text: v.args[i + 1], dynamic: v.words[i + 1]?.dynamic ?? false, by: 'csplit -f' });
    const m = startsWith(a, '-') ? OPTION_NAME.exec(a) : null;
    if (!m || !OUTPUT_OPTION.test(m[1])) continue;
    const value = m[2] !== undefined ? m[3] : v.args[i + 1];
    if (!value || !OUTPUT_VALUE.test(value)) continue;
    out.push({ text: value, dynamic: (m[2] !== undefined ? v.words[i] : v.words[i + 1])?.dynamic ?? false, by: `${v.name} ${m[0].split('=')[0]}` });
  }
  const copied = copyOutTargets(v);
  for (let k = 0; k < copied.length; k++) out.push(copied[k]);
  return out;
}
