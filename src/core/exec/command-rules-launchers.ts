// Programs told to load or start code the command line does not show: a Python module that serves
// and runs scripts (`-m http.server --cgi`) or starts a terminal (`-m pty`), a JVM agent or native
// agent loaded from outside the workspace (`-javaagent:`, `-agentpath:`, in any argument or in
// JAVA_TOOL_OPTIONS), a build tool's init script fetched from a URL, and the desktop launcher
// starting an application, a terminal or a script file from outside the workspace.
import { ask, deny, looksLikeUrl, type Finding, type SegmentView, before } from './command-view';
import { someHas } from './command-strings';

const PYTHONS = /^(python[\d.]*|pypy[\d.]*|py)$/;
const GRADLES = /^(gradle|gradlew|\.\/gradlew)$/;

/** Python modules whose `-m` run starts other programs: CGI scripts a web request names, a shell on a pty. */
function pythonModule(v: SegmentView): Finding[] {
  if (!PYTHONS.test(v.name)) return [];
  const at = v.args.indexOf('-m');
  const mod = at >= 0 ? v.args[at + 1] : undefined;
  const rest = at >= 0 ? v.args.slice(at + 2) : [];
  if (mod === 'http.server' && rest.includes('--cgi')) return [ask('code_injection', 'python -m http.server --cgi runs the scripts in cgi-bin for anyone who can reach the port')];
  if (mod === 'pty') return [ask('code_injection', 'python -m pty starts a program on a pseudo-terminal')];
  return [];
}

/** A JVM or native agent loaded into a program: `-javaagent:/tmp/a.jar`, `-agentpath:/x.so`. */
const AGENT = /-(javaagent|agentpath|agentlib):([^\s'"=,]+)/g;
/** Variables whose options the JVM or a build tool reads as its own. */
const JAVA_OPTIONS_VAR = /^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|JAVA_OPTS|MAVEN_OPTS|GRADLE_OPTS|SBT_OPTS)$/;
/** Where an agent may come from without asking: the workspace, and the build tools' own caches. */
const INSIDE = /^(\.\/|[\w-][\w./-]*$|\$\{?(PWD|PROJECT_DIR|projectDir|rootDir)\}?|~\/\.(m2|gradle)\/)/;

function agents(v: SegmentView): Finding[] {
  const texts = [...v.args, ...v.seg.assignments.filter((a) => JAVA_OPTIONS_VAR.test(a.name)).map((a) => a.value.text)];
  for (const t of texts) {
    if (!t.includes('-agent') && !t.includes('-javaagent')) continue;
    for (const m of t.matchAll(AGENT)) {
      const file = m[2].split('=')[0];
      if (m[1] === 'agentlib' && !file.includes('/')) continue; // a JDK library by name: jdwp, hprof
      if (!INSIDE.test(file) || file.includes('..')) return [ask('code_injection', `${v.name} loads an agent from outside the workspace (-${m[1]}:${file}) into the program`)];
    }
  }
  return [];
}

/** Gradle's `--init-script URL` / `-I URL`: a script fetched and run before the build. */
function initScript(v: SegmentView): Finding[] {
  if (!GRADLES.test(v.name)) return [];
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i];
    const value = /^(--init-script|-I)$/.test(a) ? v.args[i + 1] : /^--init-script=/.test(a) ? a.slice(14) : /^-I./.test(a) ? a.slice(2) : undefined;
    if (value && /^[a-z][\w+.-]*:\/\//i.test(value)) return [deny('code_injection', `${v.name} runs an init script fetched from ${value}`)];
    if (value && /^(\/|~|\.\.)/.test(value)) return [ask('code_injection', `${v.name} runs an init script from outside the workspace (${value})`)];
  }
  return [];
}

/** macOS `open`: an application, a terminal or a script file from outside the workspace is started, not shown. */
function launcher(v: SegmentView): Finding[] {
  if (v.name !== 'open') return [];
  const app = v.args.find((a, i) => /^-[a-zA-Z]*a$/.test(before(v.args, i) ?? '') || /^-b$/.test(before(v.args, i) ?? ''));
  const targets = v.args.filter((a) => !a.startsWith('-') && a !== app && !looksLikeUrl(a));
  const runnable = targets.find((t) => /\.(app|command|tool|terminal|workflow|scpt|pkg|mpkg|dmg)\/?$/i.test(t) && /^(\/|~|\.\.)/.test(t));
  if (runnable) return [ask('code_injection', `open starts ${runnable}, a program or script from outside the workspace`)];
  if (app && /^(terminal|iterm2?|iterm|script editor|automator|warp|alacritty|kitty)$/i.test(app.replace(/\.app$/i, '')) && targets.some((t) => /^(\/|~|\.\.)/.test(t))) return [ask('code_injection', `open -a ${app} runs ${targets[0]} from outside the workspace`)];
  return [];
}

/** The programs launcherRules looks at by name: python, gradle, open. */
export const launcherConcerns = (name: string): boolean => PYTHONS.test(name) || GRADLES.test(name) || name === 'open';

/** What its check without a name (an agent loaded) needs in any other argv: the word agent, or a JVM options variable. */
export const launcherWhen = (v: SegmentView): boolean => someHas(v.args, 'agent') || v.seg.assignments.some((a) => JAVA_OPTIONS_VAR.test(a.name));

export function launcherRules(v: SegmentView): Finding[] {
  return [...pythonModule(v), ...agents(v), ...initScript(v), ...launcher(v)];
}
