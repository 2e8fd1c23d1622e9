// Code handed to an interpreter or a tool on the command line (`python3 -c`, `node -e`, `perl -e`,
// `php -r`, `julia -e`, `Rscript -e`, awk programs, `make --eval`, `gdb -ex`, `sqlite3 .shell`,
// `latex \write18`, `m4 esyscmd`) or in a heredoc it reads. Two uses: the parser lifts out the
// command lines such code hands to a shell (`os.system("…")`, backticks, `system("…")`), so they are
// judged as commands; the judge classifies the code itself — recognisably hostile (deletes outside
// the workspace, forks without end, dumps the environment, opens a socket, uploads, reads
// credentials) is denied, recognisably harmless (prints, arithmetic, JSON on stdin, version checks)
// runs, anything else asks.
import type { Word } from './command-types';
import { toLowerCase } from './command-strings';
import { resolveLong } from './command-options';

export interface InlineCode {
  /** The language family: python, node, perl, ruby, php, lua, julia, r, awk, make, gdb, sqlite, tex, m4, tcl, applescript, powershell. */
  lang: string;
  code: string;
}

/** Letters that introduce code, and letters that take another value, per interpreter. */
const CODE_FLAGS: Record<string, { lang: string; code: string; value: string; long?: readonly string[] }> = {
  python: { lang: 'python', code: 'c', value: 'mWXQ' }, python2: { lang: 'python', code: 'c', value: 'mWXQ' }, python3: { lang: 'python', code: 'c', value: 'mWXQ' },
  pypy: { lang: 'python', code: 'c', value: 'mWXQ' }, pypy3: { lang: 'python', code: 'c', value: 'mWXQ' },
  node: { lang: 'node', code: 'ep', value: 'r', long: ['eval', 'print'] }, nodejs: { lang: 'node', code: 'ep', value: 'r', long: ['eval', 'print'] }, bun: { lang: 'node', code: 'e', value: 'r', long: ['eval', 'print'] },
  perl: { lang: 'perl', code: 'eE', value: 'IMmdDx' }, ruby: { lang: 'ruby', code: 'e', value: 'rIECFKTWx' }, irb: { lang: 'ruby', code: '', value: 'rI' }, php: { lang: 'php', code: 'rBER', value: 'cdfz' },
  lua: { lang: 'lua', code: 'e', value: 'l' }, luajit: { lang: 'lua', code: 'e', value: 'l' }, julia: { lang: 'julia', code: 'eE', value: 'LJp', long: ['eval', 'print'] },
  r: { lang: 'r', code: 'e', value: '', long: [] }, rscript: { lang: 'r', code: 'e', value: '', long: [] }, osascript: { lang: 'applescript', code: 'e', value: 'ls' },
  pwsh: { lang: 'powershell', code: 'c', value: 'f', long: ['command'] }, powershell: { lang: 'powershell', code: 'c', value: 'f', long: ['command'] },
};
/** Interpreters, REPLs and tools with a command language of their own, taking code in their arguments. */
const GENERIC_CODE = /^(pic|nroff|groff|troff|eqn|tbl|pdb|jjs|jrunscript|slsh|ginsh|knife|rview|rvim|gvim|evim|vimdiff|rake|ri|tclsh|wish|expect|jshell|groovy|groovysh|scala|scala-cli|amm|guile|racket|sbcl|clisp|ecl|ghc|ghci|runghc|runhaskell|stack|elixir|iex|erl|escript|nim|octave|maxima|gnuplot|emacs|emacsclient|vim|vi|nvim|view|ex|cpan|py|kotlin|kotlinc|swift|dart|crystal|raku|perl6|rakudo|dc|bc|clojure|clj|bb|lein|node-repl|deno|php-cli|hhvm|pry|rails|ipython|jupyter|matlab|mathematica|wolframscript|sage|gp|pari|lisp|chicken|csi|gsi|chez|scheme|mit-scheme|ocaml|utop|fsi|dotnet-script|csi\.exe|coffee|ts-node|tsx|esno|zx|vite-node)$/;
const LATEX = /^(latex|pdflatex|xelatex|lualatex|tex|pdftex|luatex|xetex|latexmk|context|platex|uplatex)$/;

/** The interpreter family of a program name (`python3.12` → python3), lower-cased. */
function family(name: string): string {
  const n = toLowerCase(name);
  const m = /^(python|pypy|perl|ruby|node|php|lua|julia)[\d.]*$/.exec(n);
  if (!m) return n;
  return m[1] === 'python' || m[1] === 'pypy' ? (n.startsWith(`${m[1]}3`) ? `${m[1]}3` : m[1]) : m[1];
}

/** Whether the code rules read code given in the arguments of program `name`. */
export function takesCode(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(CODE_FLAGS, family(name)) || GENERIC_CODE.test(name) || LATEX.test(name);
}

/**
 * Whether inlineCode or stdinLanguage can find code for this program at all: both read the program's
 * family first, and every other family has none (a plain index read, as theirs, so the answers agree).
 */
export function findsCode(name: string): boolean {
  const fam = family(name);
  return !!CODE_FLAGS[fam] || CODE_FAMILIES.test(fam) || LATEX.test(fam) || GENERIC_CODE.test(fam);
}
/** The families inlineCode and stdinLanguage read by name besides CODE_FLAGS, LATEX and GENERIC_CODE. */
const CODE_FAMILIES = /^(deno|awk|gawk|mawk|nawk|make|gmake|gdb|gdb-multiarch|cgdb|lldb|sqlite3|sqlite|m4)$/;

/** Inline code in `args` of program `name` (not heredocs; see stdinCode). */
export function inlineCode(name: string, args: readonly string[]): InlineCode[] {
  const fam = family(name);
  const out: InlineCode[] = [];
  const flags = CODE_FLAGS[fam];
  if (flags) {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      // `bun run -e …`: the subcommand before the code changes nothing.
      if (i === 0 && fam === 'bun' && a === 'run') continue;
      const url = flags.lang === 'node' ? dataUrlCode(a.replace(/^--(import|require|loader|experimental-loader)=/, '')) : undefined;
      if (url !== undefined) { out.push({ lang: 'node', code: url }); continue; }
      if (a.startsWith('--')) {
        const [n, v] = a.slice(2).split(/=(.*)/s);
        // Any beginning the interpreter's getopt takes (`julia --ev …`) names the option too.
        const names = flags.long?.length ? resolveLong(n, { longValue: flags.long }) : n;
        if ((flags.long ?? []).some((l) => l === names || typeof names !== 'string' && names.includes(l))) { out.push({ lang: flags.lang, code: v ?? args[++i] ?? '' }); continue; }
        continue;
      }
      if (!a.startsWith('-') || a === '-') break; // the script file: its own arguments follow
      if (fam === 'pwsh' || fam === 'powershell') { if (/^-(c|command|encodedcommand|e|ec|enc|en)$/i.test(a)) out.push({ lang: 'powershell', code: args.slice(i + 1).join(' ') }); continue; }
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        const rest = a.slice(j + 1);
        if (flags.code.includes(c)) { out.push({ lang: flags.lang, code: rest || args[++i] || '' }); break; }
        if (flags.value.includes(c)) { if (!rest) i++; break; }
      }
    }
    return out;
  }
  if (fam === 'deno') {
    const i = args.indexOf('eval');
    if (i >= 0) out.push({ lang: 'node', code: args.slice(i + 1).filter((a) => !a.startsWith('-')).join(' ') });
    for (const a of args) { const url = dataUrlCode(a.replace(/^--[\w-]+=/, '')); if (url !== undefined) out.push({ lang: 'node', code: url }); }
    return out;
  }
  if (/^(awk|gawk|mawk|nawk)$/.test(fam)) {
    let program: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-f' || a === '--file' || a.startsWith('--file=')) return [{ lang: 'awk', code: '\0file' }];
      if (a === '-e' || a === '--source') { out.push({ lang: 'awk', code: args[++i] ?? '' }); continue; }
      if (a === '-v' || a === '-F' || a === '--assign' || a === '--field-separator') { i++; continue; }
      if (a.startsWith('-') && a !== '-') continue;
      if (program === undefined && !out.length) { program = a; out.push({ lang: 'awk', code: a }); }
      break;
    }
    return out;
  }
  if (fam === 'make' || fam === 'gmake') {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--eval' || args[i] === '-E') out.push({ lang: 'make', code: args[i + 1] ?? '' });
      else if (args[i].startsWith('--eval=')) out.push({ lang: 'make', code: args[i].slice(7) });
    }
    return out;
  }
  if (fam === 'gdb' || fam === 'gdb-multiarch' || fam === 'cgdb') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (/^--?(ex|iex|eval-command|init-eval-command)$/.test(a)) out.push({ lang: 'gdb', code: args[i + 1] ?? '' });
      else if (/^--?(eval-command|init-eval-command)=/.test(a)) out.push({ lang: 'gdb', code: a.slice(a.indexOf('=') + 1) });
      else if (/^--?(x|ix|command|init-command)$/.test(a)) out.push({ lang: 'gdb', code: '\0file' });
    }
    return out;
  }
  if (fam === 'lldb') {
    for (let i = 0; i < args.length; i++) if (/^(-o|--one-line|-O|-k|--source)$/.test(args[i])) out.push({ lang: 'gdb', code: args[i] === '--source' ? '\0file' : args[i + 1] ?? '' });
    return out;
  }
  if (fam === 'sqlite3' || fam === 'sqlite') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-cmd' || a === '--cmd') { out.push({ lang: 'sqlite', code: args[++i] ?? '' }); continue; }
      if (!a.startsWith('-')) out.push({ lang: 'sqlite', code: a });
    }
    return out;
  }
  if (LATEX.test(fam)) {
    const escape = args.some((a) => /^--?(shell-escape|enable-write18)$/.test(a) || /shell_escape\s*=\s*[tpy1]/i.test(a));
    // A document given inline (`latex '\input{…}'`) is code: what it reads and writes is judged.
    const tex = args.filter((a) => /\\/.test(a)).join('\n');
    if (escape || tex) out.push({ lang: 'tex', code: `${escape ? '\0escape\n' : ''}${tex}` });
    return out;
  }
  if (GENERIC_CODE.test(fam)) {
    // Languages the judge does not model: every argument that looks like code is code.
    const code = args.filter((a) => /[\s()'"`;{}$!]/.test(a) || /^[:!]/.test(a)).join('\n');
    if (code) out.push({ lang: 'generic', code });
    return out;
  }
  if (fam === 'm4') { const d = args.filter((a) => /(esys|sys)cmd/.test(a)); if (d.length) out.push({ lang: 'm4', code: d.join('\n') }); return out; }
  return out;
}

/** Programs inlineCode reads besides CODE_FLAGS' interpreters, LATEX and GENERIC_CODE (its other branches). */
const OTHER_CODE_TAKERS = new Set(['deno', 'awk', 'gawk', 'mawk', 'nawk', 'make', 'gmake', 'gdb', 'gdb-multiarch', 'cgdb', 'lldb', 'sqlite3', 'sqlite', 'm4']);

/**
 * Whether inlineCode can find anything in the arguments of program `name`: false means it returns []
 * whatever the arguments. The parser asks it of every command; a pure function of the name, so the
 * answer is kept per name (as the rule dispatch keeps its own) instead of re-running four look-ups.
 */
function argumentsMayHoldCode(name: string): boolean {
  let known = HOLDS_CODE.get(name);
  if (known === undefined) {
    const fam = family(name);
    known = Object.prototype.hasOwnProperty.call(CODE_FLAGS, fam) || OTHER_CODE_TAKERS.has(fam) || LATEX.test(fam) || GENERIC_CODE.test(fam);
    if (HOLDS_CODE.size >= 2000) HOLDS_CODE.clear(); // names come from commands: keep the table bounded
    HOLDS_CODE.set(name, known);
  }
  return known;
}
const HOLDS_CODE = new Map<string, boolean>();

/**
 * The program text of a `data:` URL given as a script or a module to load (`deno run data:…,code`,
 * `node --import data:text/javascript,…`): percent- or base64-decoded, so it is judged like `-e` code.
 */
export function dataUrlCode(arg: string): string | undefined {
  const m = /^data:([^,]*),([\s\S]*)$/i.exec(arg);
  if (!m) return undefined;
  if (/;base64$/i.test(m[1])) return Buffer.from(m[2], 'base64').toString('utf8');
  try { return decodeURIComponent(m[2]); } catch { return m[2]; }
}

/** Operands of an interpreter, the values of its value-taking letters (`-r fileutils`) not counted. */
function operandCount(args: readonly string[], value: string): number {
  let n = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) n++;
    else if (a.length === 2 && value.includes(a[1])) i++;
  }
  return n;
}

/** The language a program reads from its stdin when given no script file, for heredoc bodies. */
export function stdinLanguage(name: string, args: readonly string[]): string | undefined {
  const fam = family(name);
  const flags = CODE_FLAGS[fam];
  if (flags && inlineCode(name, args).length === 0 && (operandCount(args, flags.value) === 0 || args.includes('-'))) return flags.lang;
  if (GENERIC_CODE.test(fam)) return 'generic';
  if (fam === 'sqlite3' || fam === 'sqlite' || fam === 'm4' || fam === 'gdb') return fam === 'gdb' ? 'gdb' : fam.startsWith('sqlite') ? 'sqlite' : 'm4';
  if ((fam === 'make' || fam === 'gmake') && args.some((a, i) => (a === '-f' || a === '--file' || a === '--makefile') && /^(-|\/dev\/stdin)$/.test(args[i + 1] ?? '') || /^(-f-|--file=-|--makefile=-)$/.test(a))) return 'make';
  return undefined;
}

/** The start of a command line in a string literal: a program the judge knows how to judge, then an argument. */
const SHELL_LINE = /^\s*(sh|bash|zsh|rm|curl|wget|nc|ncat|cat|env|chmod|chown|python3?|perl|node|dd|find|xargs|sudo|kill|pkill|mkfs|shred|scp|rsync|base64|tar)\s/;
const STR = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/;
/** Calls that hand their (first) string argument to a shell or run it as a program. */
const SHELL_CALL = /\b(os\.system|os\.popen|popen[23]?|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|system2?|exec|execSync|spawnSync|execFileSync|spawn|execFile|shell_exec|passthru|proc_open|os\.execute|io\.popen|Kernel\.(?:system|exec|spawn)|IO\.popen|Open3\.\w+|run|shell|pipeline|esyscmd|syscmd|child_process\.\w+)(?![\w.])\s*\(?\s*\[?\s*/g;

/**
 * Command lines the code hands to a shell, as far as they are written literally: the first string
 * of a shell call (or every string of a list: `subprocess.run(["rm", "-rf", "/"])`), backticks,
 * `qx{}`/`%x()`, awk's `system("…")` and `"cmd" | getline`, gdb's `shell …`/`!…`, sqlite's
 * `.shell …`/`.system …`, TeX's `\write18{…}`, make's `$(shell …)` and recipe lines.
 */
export function embeddedCommands(c: InlineCode): string[] {
  const code = c.code;
  const out: string[] = [];
  if (c.lang === 'gdb') {
    const m = /^\s*(?:shell|!|pipe\s+[^|]*\|)\s*([\s\S]+)$/.exec(code);
    if (m) out.push(m[1]);
    return out;
  }
  if (c.lang === 'sqlite') {
    for (const line of code.split(/\n|;(?=\s*\.)/)) { const m = /^\s*\.(?:shell|system)\s+([\s\S]+)$/.exec(line); if (m) out.push(m[1]); }
    return out;
  }
  if (c.lang === 'tex') {
    for (const m of code.matchAll(/\\write18\s*\{([^}]*)\}/g)) out.push(m[1]);
    return out;
  }
  if (c.lang === 'make') {
    for (const m of code.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) out.push(m[1]);
    for (const line of code.split('\n')) if (/^\t/.test(line)) out.push(line.replace(/^\t[@+-]*/, ''));
    const inline = /^[^:=#\n]+:[^=\n]*;\s*(.+)$/m.exec(code);
    if (inline) out.push(inline[1]);
    return out;
  }
  if (c.lang === 'm4') {
    for (const m of code.matchAll(/\b(?:esyscmd|syscmd)\s*\(\s*`?([^`')]*)'?\s*\)/g)) out.push(m[1]);
    return out;
  }
  if (c.lang === 'applescript') {
    for (const m of code.matchAll(/\bdo\s+shell\s+script\s+"((?:\\.|[^"\\])*)"/g)) out.push(m[1]);
    return out.map((x) => x.replace(/\\(["\\])/g, '$1'));
  }
  if (c.lang === 'awk') {
    for (const m of code.matchAll(/\bsystem\s*\(\s*"((?:\\.|[^"\\])*)"/g)) out.push(m[1]);
    for (const m of code.matchAll(/"((?:\\.|[^"\\])*)"\s*\|\s*getline/g)) out.push(m[1]);
    for (const m of code.matchAll(/\|\s*"((?:\\.|[^"\\])*)"/g)) out.push(m[1]);
    // A command line kept in a variable first (`cmd = "rm -rf ~"; system(cmd)`): any string that starts like one, when the program runs commands.
    if (/\bsystem\s*\(\s*[A-Za-z_]|\|\s*getline|\|\s*[A-Za-z_]/.test(code)) for (const m of code.matchAll(/"((?:\\.|[^"\\])*)"/g)) if (SHELL_LINE.test(m[1]) && !out.includes(m[1])) out.push(m[1]);
    return out;
  }
  for (const m of code.matchAll(SHELL_CALL)) {
    const after = code.slice((m.index ?? 0) + m[0].length);
    const list = m[0].trimEnd().endsWith('[');
    if (list) {
      const inside = after.slice(0, Math.max(0, after.indexOf(']')));
      const parts = [...inside.matchAll(new RegExp(STR.source, 'g'))].map((x) => x[2]);
      if (parts.length) out.push(parts.map((p) => (/\s/.test(p) ? `'${p.replace(/'/g, '')}'` : p)).join(' '));
      continue;
    }
    const s = STR.exec(after);
    if (s && s.index === 0) out.push(s[2]);
  }
  if (c.lang === 'generic') {
    for (const line of code.split('\n')) { const m = /^\s*(?::?!|\.(?:pso|sy)\s)\s*([\s\S]+)$/.exec(line); if (m) out.push(m[1]); }
    for (const m of code.matchAll(/(["'])((?:\\.|(?!\1)[^\\])*)\1/g)) if (SHELL_LINE.test(m[2])) out.push(m[2]);
  }
  if (/^(perl|ruby|php|julia|node|generic)$/.test(c.lang) || c.lang === 'r') {
    for (const m of code.matchAll(/(?:^|[^\\\w])`([^`]+)`/g)) out.push(m[1]);
    for (const m of code.matchAll(/\b(?:qx|%x)\s*[{(\[/|!]([^})\]/|!]*)[})\]/|!]/g)) out.push(m[1]);
  }
  return out.map((s) => s.replace(/\\(["'\\])/g, '$1'));
}

/** Parser side: each literal command line inside inline or heredoc code, as a word to parse. */
export function embeddedCommandWords(name: string, argv: readonly Word[], heredocs: readonly string[] = []): { label: string; script: Word }[] {
  // Without a heredoc only inline code can hold a command line, and only the programs inlineCode reads take any.
  if (!heredocs.length && !argumentsMayHoldCode(name)) return [];
  const codes = inlineCode(name, argv.slice(1).map((w) => w.text));
  const lang = stdinLanguage(name, argv.slice(1).map((w) => w.text));
  if (lang) for (const h of heredocs) codes.push({ lang, code: h });
  const out: { label: string; script: Word }[] = [];
  for (const c of codes) {
    for (const cmd of embeddedCommands(c)) if (cmd.trim()) out.push({ label: `${name} code`, script: { text: cmd, dynamic: /\$\{|\$\(|#\{|\{\$|\$[A-Za-z_]/.test(cmd) && c.lang !== 'awk', raw: cmd } });
  }
  // Interactive programs run a `!command` line of their input in a shell (ed, ex, ftp, sftp, tasksh,
  // tdbtool, mysql's `\!` …): what a program of that kind is fed is judged line by line.
  if (!lang && !STDIN_TEXT_ONLY.test(name)) {
    for (const h of heredocs) for (const m of h.matchAll(/^\s*(?:\\!|:?!)\s*(\S[^\n]*)$/gm)) out.push({ label: `${name} !`, script: { text: m[1], dynamic: /\$\{|\$\(|\$[A-Za-z_]/.test(m[1]), raw: m[1] } });
  }
  return out;
}

/** Programs that only read or pass on their input as text (a `!` line in it is data) and the shells, whose input the walker reads itself. */
const STDIN_TEXT_ONLY = /^(cat|tee|grep|egrep|fgrep|rg|sed|sort|uniq|wc|head|tail|tr|cut|paste|column|jq|yq|base64|xxd|od|less|more|diff|patch|git|gh|curl|wget|echo|printf|read|mail|mailx|sh|bash|dash|zsh|ksh|fish|ash|mksh|tcsh|csh)$/;
