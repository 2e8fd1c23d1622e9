// Environment variables that make a program load or run something else: the dynamic loader,
// shell start-up hooks, git's helpers, interpreter options, proxies and TLS overrides. Setting one
// in a command is env_injection; the runner strips them from the environment it passes on.
import { deny, type Finding, type SegmentView } from './command-view';
import { toUpperCase } from './command-strings';

/** Names matched exactly. */
const EXACT = new Set([
  'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PS1', 'PS0', 'PROMPT_COMMAND', 'IFS', 'CDPATH', 'GLOBIGNORE', 'BASH_XTRACEFD', 'ZDOTDIR', 'HISTFILE',
  'PATH', 'HOME', 'SHELL', 'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'GIT_PAGER', 'BROWSER', 'LESSOPEN', 'LESSCLOSE', 'TERMINFO',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_CEILING_DIRECTORIES', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_EXTRA_CA_CERTS', 'NODE_REPL_EXTERNAL_MODULE',
  'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONINSPECT', 'PYTHONWARNINGS', 'PYTHONBREAKPOINT', 'PYTHONUSERBASE',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'GEM_HOME', 'GEM_PATH', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH',
  'PHPRC', 'PHP_INI_SCAN_DIR', 'LUA_INIT', 'LUA_PATH', 'LUA_CPATH', 'TCLLIBPATH', 'R_PROFILE', 'R_PROFILE_USER', 'DOTNET_STARTUP_HOOKS', 'CORECLR_PROFILER', 'CORECLR_PROFILER_PATH',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'FTP_PROXY', 'NO_PROXY', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE', 'REQUESTS_CA_BUNDLE', 'GIT_SSL_NO_VERIFY', 'GIT_SSL_CAINFO', 'PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'NPM_CONFIG_REGISTRY',
  'MAKEFLAGS', 'MAKEFILES', 'CARGO_BUILD_RUSTC_WRAPPER', 'RUSTC_WRAPPER', 'RUSTC', 'XDG_CONFIG_HOME', 'NPM_CONFIG_SCRIPT_SHELL', 'npm_config_script_shell',
  'PROMPT', 'PROMPT_COMMAND', 'KUBECONFIG', 'DOCKER_HOST', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'GCONV_PATH', 'HOSTALIASES', 'RESOLV_HOST_CONF', 'LOCPATH', 'NLSPATH', 'MALLOC_CHECK_',
]);
/** Prefixes: the loader, git config injection, bash exported functions. */
const PREFIX = /^(LD_|DYLD_|GIT_CONFIG|GIT_TRACE|BASH_FUNC_|NODE_TLS|NPM_CONFIG_|npm_config_|PIP_|UV_INDEX|CARGO_REGISTRIES_|BUNDLE_|GCONV|MALLOC_|__CF|PYTHONX|COMPOSER_|DENO_)/;

/** Whether assigning `name` could inject code or redirect trust. Case-insensitive for proxies (http_proxy). */
export function isInjectionVar(name: string): boolean {
  return EXACT.has(name) || EXACT.has(toUpperCase(name)) || PREFIX.test(name) || /^BASH_FUNC_.*%%$/.test(name);
}

const EDITOR_VALUE = /^(vim?|nvim|nano|emacs(client)?( -nw)?|micro|hx|helix|kak|ed|joe|mg|code( --wait| -w)?|code-insiders --wait|subl( -w| --wait)?|mate -w|gedit|kate|notepad|true|:|cat)$/;
/** An editor a person runs (`vim`, `code --wait`), as the value of EDITOR, core.editor and their kin. */
export function isEverydayEditor(value: string): boolean {
  return EDITOR_VALUE.test(value.trim());
}
const WORKSPACE_FILE = /^(\.\/)?[\w-][\w.-]*(\/[\w.-]+)*$/;
/**
 * JVM options that only tune the machine a program runs on: heap, stack and collector sizes and
 * switches, assertions, and plain locale and encoding properties. Not an agent, a command run on an
 * error (`-XX:OnError=`, `-XX:OnOutOfMemoryError=`), a file of further options (`-XX:Flags=`,
 * `-XX:VMOptionsFile=`, `@argfile`), a class path, or a property that moves trust or traffic.
 */
const JVM_TUNING = /^(\s*(-Xm[snx]\d+[kKmMgG]?|-Xss\d+[kKmMgG]?|-XX:[+-]\w+|-XX:(?!On|Flags|VMOptionsFile)\w+=[\w.%+-]+|-Dfile\.encoding=[\w-]+|-Duser\.(timezone|language|country|region)=[\w/+-]+|-Djava\.awt\.headless=(true|false)|-server|-client|-ea|-da|-esa|-dsa))*\s*$/;

/** Everyday values of otherwise dangerous names: `PAGER=cat`, `NODE_OPTIONS=--max-old-space-size=4096`, `PYTHONPATH=src`. */
const HARMLESS_VALUE: Record<string, RegExp> = {
  PAGER: /^(cat|less( -[A-Za-z]+)?|more|)$/, GIT_PAGER: /^(cat|less( -[A-Za-z]+)?|more|)$/, MANPAGER: /^(cat|less( -[A-Za-z]+)?|more)$/,
  NODE_OPTIONS: /^(\s*--(max-old-space-size|max-semi-space-size|enable-source-maps|no-warnings|trace-warnings|trace-deprecation|stack-size|experimental-vm-modules|no-deprecation|unhandled-rejections|expose-gc|inspect|inspect-brk|openssl-legacy-provider)(=[\w.:-]+)?)*\s*$/,
  PYTHONPATH: /^(\.|[\w-]+(\/[\w.-]+)*)(:(\.|[\w-]+(\/[\w.-]+)*))*$/,
  // An editor a person uses, or `true` (keep the message git proposes): nothing else is run.
  EDITOR: EDITOR_VALUE, VISUAL: EDITOR_VALUE, GIT_EDITOR: EDITOR_VALUE, GIT_SEQUENCE_EDITOR: EDITOR_VALUE,
  // Hosts that skip the proxy: fewer connections through it, never a program or a wildcard.
  NO_PROXY: /^[\w.:/\[\]-]+(,[\w.:/\[\]-]+)*$/, no_proxy: /^[\w.:/\[\]-]+(,[\w.:/\[\]-]+)*$/,
  // An extra certificate authority kept in the workspace (a relative path): trust added for a dev server.
  NODE_EXTRA_CA_CERTS: WORKSPACE_FILE, SSL_CERT_FILE: WORKSPACE_FILE, REQUESTS_CA_BUNDLE: WORKSPACE_FILE, CURL_CA_BUNDLE: WORKSPACE_FILE, GIT_SSL_CAINFO: WORKSPACE_FILE,
  // ssh with a workspace key and ordinary options; ProxyCommand, LocalCommand and the like run programs.
  GIT_SSH_COMMAND: /^ssh(\s+(-[46AaCqTtvVxXYN]+|-[iFlpo]\s*(?!\S*(Proxy|LocalCommand|KnownHostsCommand|Match|Include))[\w./=@:-]+))*\s*$/i,
  // `JAVA_TOOL_OPTIONS=-Xmx2g java -jar app.jar`: sizes and switches of the JVM, nothing loaded or run.
  JAVA_TOOL_OPTIONS: JVM_TUNING, _JAVA_OPTIONS: JVM_TUNING, JDK_JAVA_OPTIONS: JVM_TUNING,
};

/** Assignments in front of a command (or given to env) that inject code; `dynamic` values always count. */
export function injectedNames(assignments: readonly { name: string; value: { text: string; dynamic: boolean } }[]): string[] {
  // `PATH="$PATH"` (as `env -i` needs) passes the value the program would have had anyway.
  const unchanged = (a: { name: string; value: { text: string } }) => a.value.text === `$${a.name}` || a.value.text === `\${${a.name}}`;
  return assignments.filter((a) => isInjectionVar(a.name) && !unchanged(a) && !(HARMLESS_VALUE[a.name] && !a.value.dynamic && HARMLESS_VALUE[a.name].test(a.value.text) && !a.value.text.includes('..'))).map((a) => a.name);
}

/** Builtins whose `NAME=value` words a later command inherits. */
const EXPORTERS = /^(export|declare|typeset|readonly|local|setenv|launchctl)$/;

/** The programs envRules looks at by name: the builtins that export or unset variables. */
export const envConcerns = (name: string): boolean => EXPORTERS.test(name) || name === 'unset';
/** What its check without a name needs in any other argv: an assignment of a variable that makes programs load something. */
export const envWhen = (v: SegmentView): boolean => v.seg.assignments.some((a) => isInjectionVar(a.name));

export function envRules(v: SegmentView): Finding[] {
  const f: Finding[] = [];
  const bad = injectedNames(v.seg.assignments);
  if (bad.length) f.push(deny('env_injection', `setting ${[...new Set(bad)].join(', ')} makes programs load or run something else`));
  // `export LD_PRELOAD=…`, `declare -x PATH=…`, `set -a` + assignment: a later command inherits it.
  if (EXPORTERS.test(v.name)) {
    const pairs = v.words.filter((w) => !w.text.startsWith('-')).map((w) => {
      const eq = w.text.indexOf('=');
      return { name: eq < 0 ? w.text : w.text.slice(0, eq), value: { text: eq < 0 ? '' : w.text.slice(eq + 1), dynamic: w.dynamic || eq < 0 } };
    });
    const names = injectedNames(pairs);
    if (names.length) f.push(deny('env_injection', `${v.name} ${names.join(', ')} changes what later programs load or run`));
  }
  if (v.name === 'unset' && v.args.some((a) => a === 'PATH' || a === 'IFS')) f.push(deny('env_injection', 'unset of PATH/IFS changes how later words are read'));
  return f;
}

/**
 * For the runner: a copy of `env` without the variables above (and exported bash functions).
 * PATH and HOME are kept (the runner needs them) — they are only refused when a command sets them.
 */
export function sanitizeEnv(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; removed: string[] } {
  const keep = new Set(['PATH', 'HOME', 'SHELL', 'TMPDIR', 'XDG_CONFIG_HOME', 'EDITOR', 'VISUAL', 'PAGER', 'CC', 'CXX', 'LDFLAGS', 'PS1', 'PROMPT', 'KUBECONFIG', 'NO_PROXY', 'no_proxy']);
  const out: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  for (const [k, val] of Object.entries(env)) {
    if (val === undefined) continue;
    if (!keep.has(k) && isInjectionVar(k)) removed.push(k);
    else out[k] = val;
  }
  return { env: out, removed: removed.sort() };
}
