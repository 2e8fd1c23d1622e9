// A fast path in front of tree-sitter for the commonest command lines: plain words, single-quoted
// strings, leading NAME=value assignments, the operators `|`, `&&`, `||`, `;`, and simple file
// redirections (`2>&1`, `> log`, `2>/dev/null`, `< in`). Such a line is tokenised here and given
// the very tree tree-sitter's bash grammar builds for it — its node types, spans and nesting,
// quirks included (a redirection hangs on everything before it since the last `;`) — so the walker
// cannot tell the two apart. Anything else (quotes other than whole '…' words, `$`, backticks,
// globs, escapes, braces, keywords, heredocs, `&`, newlines, non-ASCII …) returns undefined and
// goes to tree-sitter. The differential test (command-plain-tree.test.ts) holds the two equal over
// every corpus line and thousands of generated lines. Parsing through the WASM grammar and copying
// its tree costs more than the rest of the parse; these lines skip both.
import { SyntaxNode } from './command-syntax-node';
import { codeAt, has, indexOf, slice } from './command-strings';

/** Characters of an unquoted word that mean nothing to the shell in any position, by char code (a table: tested on every character of the line). */
const WORD_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+,=-') WORD_CHAR[c.charCodeAt(0)] = 1;
const isWordChar = (code: number): boolean => code < 128 && WORD_CHAR[code] === 1;
const isDigit = (code: number): boolean => code >= 48 && code <= 57;
/** A program name the grammar reads as a plain command name. */
const NAME = /^[A-Za-z0-9_./][A-Za-z0-9_./-]*$/;
const NUMBER = /^-?[0-9]+$/;
/** NUMBER, with the pattern only for words that start like one (it runs on every word of the line). */
const isNumber = (s: string): boolean => (codeAt(s, 0) === 45 || isDigit(codeAt(s, 0))) && NUMBER.test(s);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words the grammar may read as syntax: never taken on this path, wherever they stand. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc',
  'export', 'declare', 'local', 'readonly', 'typeset', 'unset', 'unsetenv', 'test']);

type MakeNode = (type: string, named: boolean, start: number, end: number, children?: SyntaxNode[]) => SyntaxNode;

type Token =
  | { kind: 'word' | 'raw'; start: number; end: number }
  | { kind: 'op'; op: '|' | '&&' | '||' | ';'; start: number; end: number }
  | { kind: 'redirect'; start: number; end: number; fd?: [number, number]; op: string; opStart: number; target: Token };

/** The tree tree-sitter would build for `text`, or undefined when the line is not plain. */
export function plainTree(text: string): SyntaxNode | undefined {
  const tokens = tokenize(text);
  if (!tokens || !tokens.length) return undefined;
  const node: MakeNode = (type, named, start, end, children) => new SyntaxNode(text, type, named, start, end, children ?? []);
  const leaf = (t: Token): SyntaxNode => {
    const s = slice(text, t.start, t.end);
    return node(t.kind === 'raw' ? 'raw_string' : isNumber(s) ? 'number' : 'word', true, t.start, t.end);
  };
  const program: SyntaxNode[] = [];
  let i = 0;
  while (i < tokens.length) {
    // One statement: commands joined by | && ||, redirections hung on all of it so far.
    let cur: SyntaxNode | undefined;
    let pending: '|' | '&&' | '||' | undefined;
    // After `… > f |` the grammar's grouping of what follows depends on more than the operators
    // (`a > f | b || c` and `a > f | b | c || d` nest differently): only further pipes are taken.
    let pipedOn = false;
    // `a | b | c || d` nests as a | (b | c || d) in the grammar: after two pipes no && or || is taken.
    let bars = 0;
    for (;;) {
      const cmd = command(tokens, i, text, node, leaf);
      if (!cmd) return undefined;
      i = cmd.next;
      if (!cur) cur = cmd.node;
      else if (pending === '|') cur = pipe(cur, node('|', false, tokens[cmd.opAt].start, tokens[cmd.opAt].end), cmd.node, node);
      else cur = node('list', true, cur.startIndex, cmd.node.endIndex, [cur, node(pending!, false, tokens[cmd.opAt].start, tokens[cmd.opAt].end), cmd.node]);
      const redirects: SyntaxNode[] = [];
      while (tokens[i]?.kind === 'redirect') redirects.push(redirect(tokens[i++] as Extract<Token, { kind: 'redirect' }>, node, leaf));
      if (redirects.length) {
        if (pipedOn) return undefined;
        cur = node('redirected_statement', true, cur.startIndex, redirects[redirects.length - 1].endIndex, [cur, ...redirects]);
      }
      const t = tokens[i];
      if (!t || (t.kind === 'op' && t.op === ';')) break;
      if (t.kind !== 'op') return undefined; // a word after a redirection belongs to it in the grammar
      if (pipedOn && t.op !== '|') return undefined;
      if (t.op !== '|' && bars >= 2) return undefined;
      bars = t.op === '|' ? bars + 1 : 0;
      if (t.op === '|' && (redirects.length || pipedOn)) pipedOn = true;
      pending = t.op as '|' | '&&' | '||';
      i++;
    }
    program.push(cur);
    const t = tokens[i];
    if (t) {
      program.push(node(';', false, t.start, t.end));
      i++;
    }
  }
  return node('program', true, tokens[0].start, text.length, program);
}

/** `a | b` joins the rightmost command of a list (pipes bind tighter), or extends a pipeline. */
function pipe(cur: SyntaxNode, bar: SyntaxNode, next: SyntaxNode, node: MakeNode): SyntaxNode {
  if (cur.type === 'pipeline') return node('pipeline', true, cur.startIndex, next.endIndex, [...cur.children, bar, next]);
  if (cur.type === 'list') {
    const [left, op, right] = cur.children;
    const joined = pipe(right, bar, next, node);
    return node('list', true, cur.startIndex, joined.endIndex, [left, op, joined]);
  }
  return node('pipeline', true, cur.startIndex, next.endIndex, [cur, bar, next]);
}

/** Assignments, a plain program name and its words, up to an operator or a redirection. */
function command(tokens: Token[], i: number, text: string, node: MakeNode, leaf: (t: Token) => SyntaxNode): { node: SyntaxNode; next: number; opAt: number } | undefined {
  const opAt = i - 1;
  const children: SyntaxNode[] = [];
  while (tokens[i]?.kind === 'word' && ASSIGNMENT.test(slice(text, tokens[i].start, tokens[i].end))) {
    const t = tokens[i++];
    const eq = text.indexOf('=', t.start);
    const parts = [node('variable_name', true, t.start, eq), node('=', false, eq, eq + 1)];
    if (eq + 1 < t.end) parts.push(leaf({ kind: 'word', start: eq + 1, end: t.end }));
    children.push(node('variable_assignment', true, t.start, t.end, parts));
  }
  const name = tokens[i];
  if (name?.kind !== 'word') return undefined;
  const s = slice(text, name.start, name.end);
  if (!NAME.test(s) || isNumber(s)) return undefined;
  children.push(node('command_name', true, name.start, name.end, [leaf(name)]));
  i++;
  while (tokens[i]?.kind === 'word' || tokens[i]?.kind === 'raw') children.push(leaf(tokens[i++]));
  return { node: node('command', true, children[0].startIndex, children[children.length - 1].endIndex, children), next: i, opAt };
}

function redirect(t: Extract<Token, { kind: 'redirect' }>, node: MakeNode, leaf: (t: Token) => SyntaxNode): SyntaxNode {
  const children: SyntaxNode[] = [];
  if (t.fd) children.push(node('file_descriptor', true, t.fd[0], t.fd[1]));
  children.push(node(t.op, false, t.opStart, t.opStart + t.op.length), leaf(t.target));
  return node('file_redirect', true, t.start, t.end, children);
}

/** Tokens of a plain line, or undefined at the first character this path does not take. */
function tokenize(text: string): Token[] | undefined {
  // Character codes read through codeAt (command-strings.ts): `text[i]` and `text.charCodeAt(i)` are
  // look-ups on the string that turn megamorphic once the process has seen strings of every inner form.
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  const word = (): Token | undefined => {
    const start = i;
    if (codeAt(text, i) === QUOTE) {
      const close = indexOf(text, "'", i + 1);
      if (close < 0) return undefined;
      for (let k = i + 1; k < close; k++) { const c = codeAt(text, k); if (c < 0x20 || c > 0x7e) return undefined; }
      i = close + 1;
      return isBreak(codeAt(text, i)) ? { kind: 'raw', start, end: i } : undefined;
    }
    while (i < n && isWordChar(codeAt(text, i))) i++;
    const next = codeAt(text, i);
    if (i === start || !isBreak(next) && next !== GT && next !== LT) return undefined;
    const s = slice(text, start, i);
    return has(s, '==') || KEYWORDS.has(s) ? undefined : { kind: 'word', start, end: i };
  };
  while (i < n) {
    const c = codeAt(text, i);
    if (c === SPACE || c === TAB) { i++; continue; }
    if (c === AMP) {
      if (codeAt(text, i + 1) !== AMP) return undefined;
      out.push({ kind: 'op', op: '&&', start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (c === BAR) {
      const d = codeAt(text, i + 1);
      if (d === AMP) return undefined;
      const op = d === BAR ? '||' : '|';
      out.push({ kind: 'op', op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    if (c === SEMI) {
      const d = codeAt(text, i + 1);
      if (d === SEMI || d === AMP) return undefined;
      out.push({ kind: 'op', op: ';', start: i, end: i + 1 });
      i++;
      continue;
    }
    const start = i;
    let fd: [number, number] | undefined;
    // `2>`: a descriptor is digits standing alone right before the operator.
    if (isDigit(c)) {
      let k = i;
      while (k < n && isDigit(codeAt(text, k))) k++;
      if (codeAt(text, k) === GT) { fd = [i, k]; i = k; } // `0<` is read by the grammar as a word and a redirection
    }
    const r = codeAt(text, i);
    if (r === GT || r === LT) {
      // Only after a space: `a>f` and `f>g` are left to the grammar.
      if (start > 0 && codeAt(text, start - 1) !== SPACE && codeAt(text, start - 1) !== TAB) return undefined;
      const opStart = i;
      const d = codeAt(text, i + 1);
      const op = r === LT ? '<' : d === GT ? '>>' : d === AMP ? '>&' : '>';
      i += op.length;
      const e = codeAt(text, i);
      if (e === GT || e === AMP || e === LT || e === BAR || e === OPEN) return undefined;
      while (codeAt(text, i) === SPACE || codeAt(text, i) === TAB) i++;
      const target = word();
      if (!target) return undefined;
      const t = slice(text, target.start, target.end);
      // `>&1` names a descriptor; `>&file`, `>&-` and friends go to tree-sitter.
      if (op === '>&' && !/^[0-9]+$/.test(t)) return undefined;
      if (target.kind === 'raw' || (op !== '>&' && !/^[A-Za-z0-9_./-]+$/.test(t))) return undefined;
      // The grammar drops a lone `-` right before a descriptor (`cat - 2>&1` has no `-`): left to it.
      const prev = out[out.length - 1];
      if (fd && prev?.kind === 'word' && prev.end - prev.start === 1 && codeAt(text, prev.start) === DASH) return undefined;
      out.push({ kind: 'redirect', start, end: target.end, fd, op, opStart, target });
      continue;
    }
    const w = word();
    if (!w) return undefined;
    // A word glued to a redirection (`a>f`) is left to the grammar.
    const g = codeAt(text, i);
    if (g === GT || g === LT) return undefined;
    out.push(w);
  }
  return out;
}

const SPACE = 0x20, TAB = 0x09, AMP = 0x26, BAR = 0x7c, SEMI = 0x3b, GT = 0x3e, LT = 0x3c, QUOTE = 0x27, OPEN = 0x28, DASH = 0x2d;

/** Ends a word: the end of the line (NaN past it), a blank, or an operator's first character. */
function isBreak(code: number): boolean {
  return !(code >= 0) || code === SPACE || code === TAB || code === BAR || code === AMP || code === SEMI;
}
