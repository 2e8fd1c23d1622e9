// Checks across segments: a download or a decoder feeding an interpreter (`curl … | sh`,
// `base64 -d | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `curl -o x.sh … && sh x.sh`), a shell
// reading its script from stdin, fork bombs, and wrappers the parser may not unwrap.
import type { ParsedCommand, Segment, Word } from './command-types';
import { CURL, INTERPRETER, PYTHON, SHELL, WGET } from './command-option-tables';
import { hasLongSurely, parseOptions, valuesOf } from './command-options';
import { isOutsidePath, REMOVERS } from './command-rules-system';
import { ask, baseName, deny, INTERPRETERS, operandsOf, SHELLS, type Finding, type SegmentView, before } from './command-view';
import { charAt, has, lastIndexOf, replace, slice, startsWith } from './command-strings';

const FETCHERS = /^(curl|wget|wget2|fetch|aria2c|http|https|xh|nc|ncat|netcat|socat|telnet|ftp|tftp|lftp|scp|sftp|rsync|ssh|gh|dig|nslookup)$/;

/** Hoisted from isSource, which runs on every argv: a literal in its body was a new object per call. */
const DECODERS = /^(base64|base32|basenc|uudecode|xxd|openssl|gpg|rev|gunzip|zcat|bzcat|xzcat|unxz|zstdcat|tr)$/;
const DECODING_RUNTIMES = new Set(['python', 'python3', 'perl', 'ruby', 'node']);

/** A segment that produces bytes from the network or decodes hidden bytes. */
export function isSource(v: SegmentView): boolean {
  if (FETCHERS.test(v.name)) return true;
  if (DECODERS.test(v.name)) {
    if (v.name === 'xxd') return v.args.some((a) => /^-[a-z]*r/.test(a));
    if (v.name === 'openssl') return v.args.some((a) => /^(enc|base64|-d|-base64|-a)$/.test(a));
    if (v.name === 'base64' || v.name === 'base32' || v.name === 'basenc') return v.args.some((a) => /^(-[a-zA-Z]*d|--decode)$/.test(a));
    if (v.name === 'tr' || v.name === 'rev') return false;
    return true;
  }
  const bn = baseName(v.name);
  if (DECODING_RUNTIMES.has(bn) && v.args.some((a) => /b64decode|base64|decode\(|unpack|fromCharCode|Buffer\.from|urlopen|requests\.get|fetch\(/.test(a))) return true;
  return false;
}

/** An interpreter that will read its program from stdin rather than from a file or -c. */
export function readsScriptFromStdin(v: SegmentView): boolean {
  const bn = baseName(v.name);
  if (!INTERPRETERS.has(bn) && !INTERPRETERS.has(v.name)) return false;
  if (v.name === 'busybox') return SHELLS.has(v.args[0] ?? '') && readsScriptFromStdin({ ...v, name: v.args[0], args: v.args.slice(1), operands: operandsOf(v.args.slice(1)) });
  const o = parseOptions(v.args, SHELLS.has(bn) ? SHELL : bn === 'python' || bn === 'python3' ? PYTHON : INTERPRETER);
  if (SHELLS.has(bn)) return !o.short.has('c') && (o.short.has('s') || o.operands.length === 0 || o.operands[0] === '-' || o.operands[0] === '/dev/stdin');
  if (o.short.has('c') || o.short.has('e') || o.short.has('E') || o.short.has('r') || o.short.has('m') || hasLongSurely(o, 'eval') || hasLongSurely(o, 'version') || o.short.has('V') || o.short.has('h')) return false;
  return o.operands.length === 0 || o.operands[0] === '-' || o.operands[0] === '/dev/stdin';
}


/** What every segment's flow check needs about the whole command, worked out once per command. */
export interface CommandFlow {
  parsed: ParsedCommand;
  views: SegmentView[];
  /** isSource of each view. */
  sources: boolean[];
  /** Some substitution (`$(…)`, `<(…)`) downloads or decodes. */
  substitutedSource: boolean;
}

export function commandFlow(parsed: ParsedCommand, views: SegmentView[]): CommandFlow {
  const sources = views.map(isSource);
  const substitutedSource = views.some((w, i) => sources[i] && (w.seg.context === 'process-substitution' || w.seg.context === 'command-substitution'));
  return { parsed, views, sources, substitutedSource };
}

/** Findings that need the whole command: they are attached to the segment `index`. */
export function flowFindings(flow: CommandFlow, index: number): Finding[] {
  const { parsed, views, sources, substitutedSource } = flow;
  const v = views[index];
  const seg = v.seg;
  const f: Finding[] = [];
  // Whether a download or decoder comes earlier; the list of them only when it does (rarely).
  let earlierSource = false;
  for (let i = 0; i < index; i++) if (sources[i]) { earlierSource = true; break; }
  const piped = seg.joinedBy === '|' || seg.joinedBy === '|&';
  if (readsScriptFromStdin(v)) {
    if (piped && earlierSource) f.push(deny('code_injection', `${v.name} runs what a download or a decoder produced`));
    else if (piped || seg.redirects.some((r) => r.op === '<') || seg.context === 'process-substitution')
      f.push(ask('code_injection', `${v.name} runs a script from its input that the policy does not read`));
    // A shell started by another program with nothing to run (`find . -exec /bin/sh \;`) is an escape to an interactive shell.
    else if (seg.context === 'wrapped' && SHELLS.has(baseName(v.name)) && !seg.heredocs.length && !seg.redirects.some((r) => r.op === '<<<'))
      f.push(ask('code_injection', `${v.name} is started as an interactive shell by another program`));
    // A heredoc or here-string is visible: a shell's is parsed into segments, an interpreter's is
    // judged as code (command-rules-code.ts), so neither asks for being unread.
  }
  if (v.name === 'xargs' && piped) f.push(...xargsRemoves(v, views.slice(0, index).reverse().find((x) => x.seg.context === seg.context && x.seg.via.length === seg.via.length)));
  if ((v.name === 'm4' || v.name === 'make' && v.args.some((a, i) => /^(-f|--file|--makefile)$/.test(a) && /^(-|\/dev\/stdin)$/.test(v.args[i + 1] ?? ''))) && piped)
    f.push(ask('code_injection', `${v.name} runs what arrives on its input, which the policy does not read`));
  const interp = INTERPRETERS.has(baseName(v.name)) || v.name === 'source' || v.name === '.' || v.name === 'eval' || v.name === 'exec';
  if (interp && substitutedSource && v.words.some(fromSubstitution)) f.push(deny('code_injection', `${v.name} runs code fetched or decoded by a substitution`));
  if (index === 0 && substitutedSource && parsed.problems.some((p) => p.kind === 'eval' || p.kind === 'dynamic-command')) f.push(deny('code_injection', 'a command built from downloaded or decoded text'));
  // curl -o x.sh … && sh x.sh, or chmod +x x && ./x
  if (!earlierSource) return f;
  const earlier = views.slice(0, index).filter((_, i) => sources[i]);
  const downloaded = new Set(earlier.flatMap(downloadTargets));
  if (downloaded.size && (downloaded.has(v.exe) || (interp && v.args.some((a) => downloaded.has(a)))))
    f.push(deny('code_injection', `${v.name} runs a file that was just downloaded`));
  return f;
}

/** `… | xargs rm`: what is deleted is whatever the previous command lists. */
function xargsRemoves(v: SegmentView, producer: SegmentView | undefined): Finding[] {
  const inner = v.args.find((a, i) => !a.startsWith('-') && !/^-[adEILnPs]$/.test(before(v.args, i) ?? ''));
  if (!inner || !REMOVERS.test(inner.split('/').pop() ?? '')) return [];
  if (producer && producer.args.some((a) => isOutsidePath(a))) return [deny('destructive_ops', `xargs ${inner} deletes what ${producer.name} lists outside the workspace`)];
  return [ask('destructive_ops', `xargs ${inner} deletes whatever the previous command lists`)];
}

function fromSubstitution(w: Word): boolean {
  return w.dynamic && /<\(|\$\(|`/.test(w.raw);
}

function downloadTargets(v: SegmentView): string[] {
  const o = parseOptions(v.args, v.name === 'curl' ? CURL : WGET);
  const vals = valuesOf(o, ['output', 'output-document'], v.name === 'curl' ? 'o' : 'O');
  const redirected = v.seg.redirects.filter((r) => r.op === '>' || r.op === '>>' || r.op === '>|').map((r) => r.target.text);
  if (v.name === 'curl' && o.short.has('O')) vals.push(...o.operands.map((u) => u.split('/').pop() ?? ''));
  if (v.name === 'wget' && !vals.length) vals.push(...o.operands.map((u) => u.split('/').pop() ?? ''));
  return [...vals, ...redirected].flatMap((t) => [t, `./${t.replace(/^\.\//, '')}`, t.replace(/^\.\//, '')]);
}

/** `:(){ :|:& };:` and `f(){ f|f& }; f`: a function that pipes itself into itself in the background. */
export function isForkBomb(normalized: string): boolean {
  // The pattern needs a `{` and a `|`; without them its backtracking scan is pure cost (most commands).
  if (!has(normalized, '{') || !has(normalized, '|')) return false;
  return /(?:function\s+)?([^\s(){};|&]+)\s*(?:\(\s*\))?\s*\{[^}]*?\1\s*\|\s*&?\s*\1/.test(normalized);
}

const WRAPPER_VALUE = new Map<string, string>(Object.entries({ nice: 'n', ionice: 'cnp', timeout: 'sk', stdbuf: 'ioe', taskset: '', chrt: '', flock: 'wE', watch: 'nd', env: 'uCS', xargs: 'IdEaLnPs', time: 'fo', strace: 'oepsuE', ltrace: 'oepsuE', script: 'cq' }));
const WRAPPERS = /^(command|builtin|exec|nice|ionice|time|chrt|taskset|nohup|setsid|stdbuf|timeout|gtimeout|env|xargs|busybox|caffeinate|unbuffer|flock|strace|ltrace|watch|catchsegv|doas|sudo|torsocks|proxychains4?|firejail|valgrind|fakeroot|then|do|else)$/;

/**
 * The command a wrapper runs, when the parser left the wrapper's words in place: `nice -n 5 rm -rf /`
 * → `rm -rf /`. Defence in depth: the parser unwraps the common wrappers itself.
 */
export function unwrapInner(seg: Segment, argv: Word[] = seg.argv, depth = 0): Word[][] {
  const exe = argv[0]?.text ?? '';
  const name = slice(exe, lastIndexOf(exe, '/') + 1);
  if (depth > 6 || !WRAPPERS.test(name)) return [];
  const valueLetters = WRAPPER_VALUE.get(replace(name, /^g(?=timeout)/, '')) ?? '';
  let i = 1;
  while (i < argv.length) {
    const t = argv[i].text;
    if (t === '--') { i++; break; }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) { i++; continue; }
    if (startsWith(t, '-') && t.length > 1) {
      const letter = startsWith(t, '--') ? '' : charAt(t, t.length - 1);
      i += valueLetters.includes(letter) && t.length === 2 ? 2 : 1;
      continue;
    }
    break;
  }
  if ((name === 'timeout' || name === 'gtimeout') && /^\d/.test(argv[i]?.text ?? '')) i++;
  if ((name === 'taskset' || name === 'chrt') && /^[\d,x-]/.test(argv[i]?.text ?? '')) i++;
  if (name === 'flock' && argv[i]) i++;
  const inner = argv.slice(i);
  if (!inner.length) return [];
  return [inner, ...unwrapInner(seg, inner, depth + 1)];
}
