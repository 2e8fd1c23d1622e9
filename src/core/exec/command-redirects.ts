// Redirections read from the tree: operator, descriptor and target, plus heredoc bodies.
import type { SyntaxNode as Node } from './command-syntax-node';
import type { Redirect, RedirectOp, Word } from './command-types';
import { resolveWord, staticWord } from './command-words';

const OPS = new Set<string>(['>', '>>', '>|', '&>', '&>>', '<', '<<', '<<-', '<<<', '<>', '>&', '<&']);

/** An output redirection that empties its file before writing (`>`, `>|`, `&>`; not the appending ones). */
export function truncates(op: string): boolean {
  return op === '>' || op === '>|' || op === '&>';
}

/** An input redirection from a file (`<`, `<>`). */
export function readsFile(op: string): boolean {
  return op === '<' || op === '<>';
}

export interface Heredoc {
  body: string;
  /** Quoted delimiter (`<<'EOF'`): the body is literal, nothing in it is expanded or run. */
  literal: boolean;
}

export interface ReadRedirect {
  redirect: Redirect;
  heredoc?: Heredoc;
  /**
   * Words written after the target (`rm > log -rf ~`): the shell gives them to the command as
   * arguments, while the grammar hangs them on the redirection. Each word is its adjacent nodes.
   */
  words?: Node[][];
}

export function isRedirectNode(n: Node): boolean {
  return n.type === 'file_redirect' || n.type === 'heredoc_redirect' || n.type === 'herestring_redirect';
}

/**
 * The redirections of one redirect node: usually one; a heredoc node also holds the redirections
 * written after its delimiter (`cat <<EOF > out`). Shapes from broken input give none.
 */
export function readRedirect(n: Node): ReadRedirect[] {
  const nested: ReadRedirect[] = [];
  let fd: number | undefined;
  let op: RedirectOp | undefined;
  const targets: Node[] = [];
  let heredoc: Heredoc | undefined;
  let delimiter: Word | undefined;
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'file_descriptor') { fd = Number(c.text); continue; }
    if (!c.isNamed) {
      // `>&-` / `<&-` close a descriptor: the target is `-`.
      if (c.type === '>&-' || c.type === '<&-') { op = c.type === '>&-' ? '>&' : '<&'; targets.push(c); continue; }
      if (OPS.has(c.type)) op ??= c.type as RedirectOp;
      continue;
    }
    if (n.type === 'heredoc_redirect') {
      if (isRedirectNode(c)) nested.push(...readRedirect(c));
      else if (c.type === 'heredoc_start') delimiter = { text: c.text.replace(/['"\\]/g, ''), dynamic: false, raw: c.text };
      else if (c.type === 'heredoc_body') heredoc = { body: c.text, literal: /['"\\]/.test(delimiter?.raw ?? '') };
      continue; // pipelines and lists after the delimiter are walked as statements by the walker
    }
    if (c.type === 'ERROR') continue;
    targets.push(c);
  }
  if (!op) return nested;
  if (n.type === 'heredoc_redirect') {
    return [{ redirect: { op, fd, target: delimiter ?? staticWord('') }, heredoc: heredoc ?? { body: '', literal: true } }, ...nested];
  }
  // Nodes with no space between them are one word: the first word is the target, the rest are arguments.
  const groups: Node[][] = [];
  for (const t of targets) {
    const prev = groups[groups.length - 1];
    if (prev && prev[prev.length - 1].endIndex === t.startIndex) prev.push(t);
    else groups.push([t]);
  }
  const [first = [], ...words] = groups;
  const target = first.length ? (first[0].type === '>&-' || first[0].type === '<&-' ? staticWord('-') : resolveWord(first)) : staticWord('');
  return [{ redirect: { op, fd, target }, ...(words.length ? { words } : {}) }];
}

/**
 * `2>&$R 0>&$R`: after an expansion target the grammar reads the next redirection's descriptor
 * (`0`) as a word of this one. When the last word is such a number, glued to a following file
 * redirection that has no descriptor of its own, it is taken off the words and returned: the
 * caller gives it to that next redirection.
 */
export function descriptorOfNext(read: ReadRedirect[], next: Node | undefined): number | undefined {
  const last = read[read.length - 1];
  const words = last?.words;
  const w = words?.[words.length - 1];
  if (!words || !w || !next || next.type !== 'file_redirect' || next.children.some((c) => c.type === 'file_descriptor')) return undefined;
  if (w.length !== 1 || w[0].type !== 'number' || w[0].endIndex !== next.startIndex || !/^\d+$/.test(w[0].text)) return undefined;
  words.pop();
  if (!words.length) delete last.words;
  return Number(w[0].text);
}
