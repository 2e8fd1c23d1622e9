// A command that writes a file and runs it in the same line (`echo '…' > x.sh && bash x.sh`,
// `cat > Makefile <<EOF … EOF && make`, a package.json written then `npm run`) is judged on what it
// wrote: a shell script or a build file's recipes as commands, a package.json's scripts as
// commands, a Python/Node/Perl/Ruby file as code. When what was written cannot be seen (copied,
// downloaded, edited in place, built at run time), running it asks.
import path from 'node:path';
import { MAKE, SCRIPT_RUNNER } from './command-option-tables';
import { parseOptions, valuesOf } from './command-options';
import { outputOptionTargets } from './command-paths';
import { grantInText } from './command-rules-grants';
import { DESTRUCTIVE_SQL } from './command-rules-remote';
import { isUnknownProgram } from './command-rules-unknown';
import { ask, baseName, deny, INTERPRETERS, SHELLS, type Finding, type SegmentView, before } from './command-view';
import { skipOptions, XARGS_VALUE_LETTERS, XARGS_VALUE_LONG, xargsReplaceToken } from './command-wrapper-options';
import type { WriteTarget } from './command-writes';
import { has, replace } from './command-strings';

export interface Staged {
  /** Normalised relative or absolute path as written in the command. */
  file: string;
  /** What was written, when the command shows it and it is the whole file (echo/printf arguments, a heredoc). */
  content?: string;
  /** What the command shows being written, whole or appended. */
  shown?: string;
}

const key = (p: string): string => path.posix.normalize(replace(p, /^\.\//, ''));

/** Programs that change a file's mode, owner or times, never its content; echo and printf (fedBy). Hoisted: both run on every argv. */
const KEEPS_CONTENT = /^(chmod|chown|chgrp|touch)$/;
const PRINTERS = /^(echo|printf)$/;

/** The files a segment writes (`written`: its writeTargets, which the judge works out once), with their content when the segment shows it. */
export function stagedBy(v: SegmentView, written: readonly WriteTarget[]): Staged[] {
  // A mode, owner or time change leaves the content as it was.
  if (KEEPS_CONTENT.test(v.name)) return [];
  // What a downloader saves (`aria2c -o x URL`, `axel -o x`, `http --download -o x`) is unseen content.
  const downloads = DOWNLOADERS.test(v.name);
  // Nothing written and nothing downloaded (nearly every argv): no staged file.
  if (!written.length && !downloads) return [];
  const fetched = downloads ? outputOptionTargets(v).concat(v.args.filter((a, i) => /^-o$/.test(before(v.args, i) ?? '') && !/^[/~.]/.test(a)).map((text) => ({ text, dynamic: false, by: `${v.name} -o` }))) : [];
  const targets = [...written, ...fetched].filter((t) => !t.dynamic);
  if (!targets.length) return [];
  let content: string | undefined;
  if (v.name === 'echo') {
    const text = v.args.filter((a, i) => !(i === 0 && /^-[neE]+$/.test(a))).join(' ') + '\n';
    // `echo -e` turns \n and \t into the line breaks and tabs a Makefile or script needs.
    content = /^-[nE]*e[nE]*$/.test(v.args[0] ?? '') ? text.replace(/\\n/g, '\n').replace(/\\t/g, '\t') : text;
  }
  else if (v.name === 'printf') content = printfFormat(v.args);
  else if ((v.name === 'cat' || v.name === 'tee') && v.seg.heredocs.length) content = v.seg.heredocs.join('\n');
  else if (v.name === 'cat' && v.seg.redirects.some((r) => r.op === '<<<')) content = v.seg.redirects.find((r) => r.op === '<<<')?.target.text;
  const appended = targets.some((t) => has(t.by, '>>'));
  return targets.map((t) => ({ file: key(t.text), content: appended || fetched.includes(t) ? undefined : content, shown: content }));
}

/** Programs that save what they fetch under a name their `-o` gives. */
const DOWNLOADERS = /^(aria2c|axel|http|https|xh|httpie|wget2|lftp|fetch|curlie)$/;

/** printf's format with its escapes turned into the characters (`printf -- '…'` skips the `--`). */
function printfFormat(args: readonly string[]): string {
  return (args[0] === '--' ? args[1] ?? '' : args[0] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

/** Text a command line shows being fed to another program: echo/printf into a process substitution or a pipe. */
export function fedBy(v: SegmentView): string | undefined {
  // `xargs -I{} sh -c '{}' <<< '…'`: what xargs reads becomes (part of) the shell's command line.
  if (v.name === 'xargs' && v.args.some((a, i) => /^(sh|bash|dash|zsh)$/.test(a) && v.args[i + 1] === '-c')) {
    const input = v.seg.redirects.find((r) => r.op === '<<<')?.target.text ?? v.seg.heredocs[0];
    return input === undefined ? undefined : xargsRuns(v, input) ?? input;
  }
  if (v.seg.context !== 'process-substitution' && !v.pipedTo || !PRINTERS.test(v.name)) return undefined;
  return v.name === 'printf' ? printfFormat(v.args) : v.args.filter((a, i) => !(i === 0 && /^-[neE]+$/.test(a))).join(' ');
}

/** The script of `sh -c SCRIPT …` (any shell, `-c` alone or among other letters); undefined for anything else. */
function shellScript(argv: readonly string[]): string | undefined {
  if (!SHELLS.has(path.posix.basename(argv[0] ?? ''))) return undefined;
  const c = argv.findIndex((a, k) => k > 0 && /^-[a-z]*c[a-z]*$/.test(a));
  return c > 0 ? argv[c + 1] : undefined;
}

/**
 * The command lines `xargs -I R sh -c …` runs for `input`: its command (or the text its shell is given)
 * with R replaced by each input line, so `xargs -I{} sh -c 'echo {}'` fed `rm -rf ~` only prints.
 * Undefined without a replace string or a shell script (then the input is read like any other text).
 */
export function xargsRuns(v: SegmentView, input: string): string | undefined {
  const i = skipOptions(v.words, 0, XARGS_VALUE_LETTERS, XARGS_VALUE_LONG);
  const token = xargsReplaceToken(v.args.slice(0, i));
  const inner = v.words.slice(i);
  const script = token && inner.length ? shellScript(inner.map((w) => w.text)) : undefined;
  if (!token || script === undefined) return undefined;
  return input.split('\n').filter((l) => l.trim()).map((l) => script.split(token).join(l)).join('\n');
}

/** Database clients that run the SQL they are fed (on stdin or from a file). */
const SQL_CLIENTS = /^(psql|mysql|mariadb|sqlcmd|redis-cli|valkey-cli|keydb-cli|clickhouse-client|clickhouse|cqlsh|mongo|mongosh|cockroach|snowsql|duckdb|sqlite3|trino|presto|bq|usql|pgcli|mycli|litecli)$/;

/** Plain writers and readers: running one of them after a write runs nothing that was written. */
const INERT = /^(echo|printf|cat|tee|chmod|chown|touch|mkdir|cd|pushd|popd|true|false|:|ls|head|tail|grep|wc|diff|sort|uniq|sed|awk|cp|mv|ln|rm|test|\[|sleep|git)$/;

/**
 * Command lines inside text a command wrote (any file, any syntax): every line with its leading
 * `key:`/`key =`/`- `/`RUN`/`.shell`/`:!` stripped, and every quoted string, when it starts with a
 * program the rules judge. Used when a later segment runs a program that may read the file as its
 * configuration (a Taskfile, a pre-commit config, a build script, a Procfile …).
 */
export function commandLinesIn(text: string): { line: string; explicit: boolean }[] {
  const entities = (x: string) => x.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  const t = entities(text).replace(/\\n/g, '\n');
  const out = new Map<string, boolean>();
  const add = (l: string, explicit: boolean) => out.set(l, explicit || (out.get(l) ?? false));
  const judged = /^((\/usr)?(\/local)?\/s?bin\/)?(sh|bash|zsh|dash|rm|curl|wget|nc|ncat|socat|cat|env|printenv|chmod|python3?|perl|ruby|node|php|dd|find|xargs|sudo|kill|pkill|base64|tar|scp|rsync|git|npm|npx|pip|mkfs|shred|crontab|ssh|telnet|openssl|xmrig|nmap|docker|kubectl|aws|terraform|mail|sendmail|printf|echo)\b/;
  /** A prefix that says the rest of the line is run by a shell. */
  const SHELL_PREFIX = /^(\/\/go:generate|RUN|CMD|ENTRYPOINT|\.?(shell|system)|exec|-?\s*(shell|command|raw|script|cmd|run)\s*:)\s*/i;
  for (const line of t.split('\n')) {
    let l = line.trim();
    const explicit = /^:?!\s*\S/.test(l) || SHELL_PREFIX.test(l);
    l = l.replace(/^:?!\s*(?=\S)/, '').replace(/^(\/\/go:generate|#!?\S*|RUN|CMD|ENTRYPOINT|\.?(shell|system)|exec)\s+/i, '').replace(/^(--(mount|network|security)=\S+\s+)+/, '').replace(/^-\s+/, '').replace(/^[\w.@/-]+\s*(:|=)\s*(-\s+)?/, '')
      .replace(/[;\s]+$/, '').replace(/^["']|["']$/g, '').replace(/^\[?["']?|["']?\]?$/g, '').trim();
    if (judged.test(l)) add(l, explicit);
  }
  for (const m of t.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) if (judged.test(m[2].trim()) && /\s/.test(m[2].trim())) add(m[2].trim(), false);
  // Calls that hand their text to a shell (m4's syscmd, vim's system(), a template's exec(…)).
  for (const m of t.matchAll(/\b(?:esyscmd|syscmd|system|shell|exec|popen)\s*\(\s*[`'"]?([^)`'"]+)/g)) if (judged.test(m[1].trim())) add(m[1].trim(), true);
  // Build files in XML (Ant, MSBuild, NAnt): a program and the arguments given to it (entities decoded in each value).
  for (const m of text.replace(/\\n/g, '\n').matchAll(/<(?:exec|apply|Exec)\b[^>]*?\b(?:executable|Command)\s*=\s*"([^"]+)"[^>]*>?([\s\S]*?)(?:<\/(?:exec|apply|Exec)>|$)/g)) {
    const args = [...m[2].matchAll(/<arg\s+(?:line|value)\s*=\s*"([^"]*)"/g)].map((a) => entities(a[1]));
    add(entities([m[1], ...args].join(' ')), true);
  }
  return [...out].map(([line, explicit]) => ({ line, explicit }));
}

/** Findings from what earlier segments wrote, for a later segment that may read it as configuration. */
export async function contentFindings(v: SegmentView, shown: readonly string[], judges: StagedJudges): Promise<Finding[]> {
  if (!shown.length || INERT.test(v.name)) return [];
  // A shell xargs starts with a script reads no input and no file: xargs is judged on what it puts in the script.
  if (v.name !== 'xargs' && shellScript([v.name, ...v.args]) !== undefined && (v.seg.via.includes('xargs') || /(^|\/)xargs$/.test(v.seg.argv[0]?.text ?? ''))) return [];
  const f: Finding[] = [];
  for (const fed of shown) {
    const runs = v.name === 'xargs' ? xargsRuns(v, fed) : undefined;
    if (runs !== undefined) {
      // `xargs -I{} sh -c 'cd x; {}'`: each line is a command line xargs has its program run.
      for (const line of runs.split('\n')) {
        const found = await judges.shell(line);
        if (found && !/^(parse|allowlist)$/.test(found.group)) f.push({ ...found, reason: `xargs runs ${line.slice(0, 60)}: ${found.reason}` });
      }
      continue;
    }
    const text = fed;
    if (SQL_CLIENTS.test(v.name) && DESTRUCTIVE_SQL.test(text)) f.push(deny('remote_destruction', `${v.name} runs SQL this command wrote or fed it that drops, truncates or empties data`));
    const grant = SQL_CLIENTS.test(v.name) ? grantInText(v.name, text) : undefined;
    if (grant) f.push(grant);
    const code = judges.code('generic', text);
    if (code && code.decision === 'deny') f.push({ ...code, reason: `${v.name} may run what this command wrote: ${code.reason}` });
    for (const { line, explicit } of commandLinesIn(text)) {
      // A bare shell in text a program reads (`exec "/bin/sh"` in a cow file or a config) is a shell escape.
      if (explicit && /^((\/usr)?(\/local)?\/s?bin\/)?(sh|bash|zsh|dash|ksh|fish)(\s+-[ilp]+)*$/.test(line)) { f.push(ask('code_injection', `${v.name} may start a shell from what this command fed it (${line})`)); continue; }
      const found = await judges.shell(line);
      // A line a shell prefix marks (`.shell`, `:!`, `shell:`) runs as written, so its writes outside count too.
      if (found && !(explicit ? /^(parse|allowlist|inline-code|package_install)$/ : /^(write|parse|allowlist|inline-code|package_install)$/).test(found.group)) f.push({ ...found, reason: `${v.name} may run what this command wrote (${line.slice(0, 60)}): ${found.reason}` });
    }
  }
  return f;
}

/** runs()'s name tests, hoisted: it runs on every argv after a write, and a literal in it was a new object per call. */
const BATCH = /\.(bat|cmd)$/i;
const BATCH_RUNNERS = /^(cmd|call|start)$/;
const SCRIPT_SHELLS = /^(sh|bash|dash|zsh|ksh|source|\.)$/;
const MAKES = /^(make|gmake|remake)$/;
const PACKAGE_RUNNERS = /^(npm|pnpm|yarn|bun)$/;

/** What a segment runs from the workspace: the file, and how its content is to be read. */
function runs(v: SegmentView): { file: string; as: 'shell' | 'code' | 'make' | 'package' | 'opaque'; lang?: string }[] {
  const bn = baseName(v.name);
  const out: { file: string; as: 'shell' | 'code' | 'make' | 'package' | 'opaque'; lang?: string }[] = [];
  if (has(v.exe, '/')) out.push({ file: key(v.exe), as: 'shell' });
  // cmd runs a batch file named bare from the current folder (`x.bat`), and through `cmd /c`, `call` and `start`.
  else if (BATCH.test(v.exe)) out.push({ file: key(v.exe), as: 'shell' });
  if (BATCH_RUNNERS.test(v.name)) { const bat = v.args.find((a) => BATCH.test(a)); if (bat) out.push({ file: key(bat), as: 'shell' }); }
  const shell = SCRIPT_SHELLS.test(bn);
  // The first operand is read only by the three uses below; other programs (most) skip the option parse.
  const first = shell || INTERPRETERS.has(bn) || v.name === 'cargo' ? parseOptions(v.args, SCRIPT_RUNNER).operands[0] : undefined;
  if (shell && first) out.push({ file: key(first), as: 'shell' });
  else if (INTERPRETERS.has(bn) && first) out.push({ file: key(first), as: 'code', lang: bn.startsWith('python') || bn.startsWith('pypy') ? 'python' : bn === 'nodejs' || bn === 'deno' || bn === 'bun' ? 'node' : bn });
  if (MAKES.test(v.name)) {
    const o = parseOptions(v.args, MAKE);
    const files = valuesOf(o, ['file', 'makefile'], 'f');
    for (const f of files.length ? files : ['GNUmakefile', 'makefile', 'Makefile']) out.push({ file: key(f), as: 'make' });
  }
  if (PACKAGE_RUNNERS.test(v.name)) out.push({ file: 'package.json', as: 'package' });
  if (v.name === 'cmake') out.push({ file: 'CMakeLists.txt', as: 'opaque' });
  if (v.name === 'just') out.push({ file: 'justfile', as: 'make' }, { file: 'Justfile', as: 'make' });
  if (v.name === 'rake') out.push({ file: 'Rakefile', as: 'code', lang: 'ruby' });
  // Cargo compiles and runs a package's build script before building it.
  if (v.name === 'cargo' && /^(build|b|check|c|test|t|run|r|bench|doc|clippy|install)$/.test(first ?? '')) out.push({ file: 'build.rs', as: 'code', lang: 'rust' });
  if (v.name === 'pytest' || bn === 'python3' && v.args[0] === '-m' && v.args[1] === 'pytest') out.push({ file: 'conftest.py', as: 'code', lang: 'python' });
  return out;
}

export interface StagedJudges {
  /** Judges shell text as a command line; returns its strictest finding, if any. */
  shell(text: string): Promise<Finding | undefined>;
  /** Judges code in a language; returns its strictest finding, if any. */
  code(lang: string, code: string): Finding | undefined;
}

/** Recipe lines and `$(shell …)` of a Makefile or justfile. */
function recipes(text: string): string {
  const lines: string[] = [];
  for (const m of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) lines.push(m[1]);
  for (const l of text.split('\n')) {
    if (/^(\t| {2,})\S/.test(l)) lines.push(l.trim().replace(/^[@+-]+/, ''));
    // `target: deps ; recipe` — a recipe on the rule's own line.
    const inline = /^[\w.%/-]+\s*:(?!=)[^;=\n]*;\s*(\S.*)$/.exec(l);
    if (inline) lines.push(inline[1].replace(/^[@+-]+/, ''));
  }
  return lines.join('\n');
}

/**
 * Findings for segment `v` against what earlier segments of the same command wrote. Synchronous (an
 * empty list) when `v` runs none of those files, as nearly every segment: the judge awaits only a
 * promise, and an async function would make one for every segment after a write.
 */
export function stagedFindings(v: SegmentView, earlier: readonly Staged[], judges: StagedJudges): Finding[] | Promise<Finding[]> {
  if (!earlier.length) return [];
  const ran = runs(v);
  for (const r of ran) for (const s of earlier) if (s.file === r.file) return judgeStaged(v, ran, earlier, judges);
  return [];
}

async function judgeStaged(v: SegmentView, ran: ReturnType<typeof runs>, earlier: readonly Staged[], judges: StagedJudges): Promise<Finding[]> {
  const f: Finding[] = [];
  for (const r of ran) {
    const hit = [...earlier].reverse().find((s) => s.file === r.file);
    if (!hit) continue;
    if (hit.content === undefined || r.as === 'opaque') { f.push(ask('code_injection', `${v.name} runs ${r.file}, written earlier in this command in a way the judge cannot read`)); continue; }
    let found: Finding | undefined;
    if (r.as === 'shell') found = await judges.shell(hit.content);
    else if (r.as === 'make') found = await judges.shell(recipes(hit.content));
    else if (r.as === 'code') found = judges.code(r.lang ?? 'python', hit.content);
    else {
      let scripts: string[] = [];
      try { scripts = Object.values((JSON.parse(hit.content) as { scripts?: Record<string, string> }).scripts ?? {}).filter((x) => typeof x === 'string'); }
      catch { f.push(ask('code_injection', `${v.name} runs scripts from a package.json written in this command that does not parse`)); continue; }
      found = await judges.shell(scripts.join('\n'));
    }
    if (found) f.push({ ...found, reason: `${v.name} runs ${r.file}, written earlier in this command: ${found.reason}` });
  }
  return f;
}

/**
 * Command lines carried inside one argument of any program (`-o 'platform shell …'`, `-qc '…'`,
 * `-toolexec 'sh -c …'`, `ssh_command=…`, `-Dexec.args="-c '…'"`): the argument itself, what follows
 * an `=` or a `shell`/`-c`, and each quoted piece with a space in it. A program may well run such
 * text, so one the judge would deny asks here (the program may also only print it).
 */
export async function argumentCommandFindings(v: SegmentView, judges: StagedJudges): Promise<Finding[]> {
  const f: Finding[] = [];
  const unknown = isUnknownProgram(v.name);
  for (const a of v.args) {
    if (!/\s/.test(a) || a.length > 2000) continue;
    const texts = new Set([a]);
    const eq = /^[\w.-]*=(.*\s.*)$/s.exec(a);
    if (eq) texts.add(eq[1]);
    for (const m of a.matchAll(/(?:^|\s)(?:shell|-c)\s+(.*\S)/gs)) texts.add(m[1]);
    for (const m of a.matchAll(/(["'])([^"']*\s[^"']*)\1/g)) texts.add(m[2]);
    for (const t of texts) {
      const found = await judges.shell(t);
      // A program the rules do not know may well run it: the strictest verdict on the text stands.
      if (found && unknown && found.decision === 'deny') { f.push({ ...found, reason: `${v.name}, a program the rules do not know, is handed a command line (${t.slice(0, 60)}): ${found.reason}` }); break; }
      if (found && unknown && !/^(parse|allowlist|inline-code|package_install|write)$/.test(found.group)) { f.push(ask(found.group, `${v.name}, a program the rules do not know, is handed a command line it may run (${t.slice(0, 60)}): ${found.reason}`)); break; }
      if (found?.decision === 'deny') { f.push(ask('code_injection', `${v.name} is handed a command line it may run (${t.slice(0, 60)}): ${found.reason}`)); break; }
    }
  }
  return f;
}
