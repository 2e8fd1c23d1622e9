// Redirections read from the tree: operator, descriptor and target, plus heredoc bodies.
import type { SyntaxNode as Node } from './command-syntax-node';
import type { Redirect, RedirectOp, Word } from './command-types';
import { resolveWord, staticWord } from './command-words';

const OPS = new Set<string>(['>', '>>', '>|', '&>', '&>>', '<', '<<', '<<-', '<<<', '<>', '>&', '<&']);

export interface Heredoc {
  body: string;
  /** Quoted delimiter (`<<'EOF'`): the body is literal, nothing in it is expanded or run. */
  literal: boolean;
}

export interface ReadRedirect {
  redirect: Redirect;
  heredoc?: Heredoc;
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
  const target = targets.length ? (targets[0].type === '>&-' || targets[0].type === '<&-' ? staticWord('-') : resolveWord(targets)) : staticWord('');
  return [{ redirect: { op, fd, target } }];
}
