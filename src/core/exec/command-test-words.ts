// `[ … ]`, `[[ … ]]` and `(( … ))` as a segment: the opener as the command name, then the words and
// operators inside, flattened, so the judge sees a test builtin with its operands.
import type { SyntaxNode as Node } from './command-syntax-node';
import type { Word } from './command-types';
import { isDynamicType, resolveWord, staticWord } from './command-words';

/** Nodes that are one operand: resolved as a word, not descended into. */
const OPERANDS = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'number',
  'variable_name', 'test_operator', 'regex', 'extglob_pattern',
]);

export function testWords(n: Node): Word[] {
  const out: Word[] = [];
  const visit = (c: Node): void => {
    if (!c.isNamed) { out.push(staticWord(c.type)); return; }
    if (OPERANDS.has(c.type) || isDynamicType(c.type) || c.childCount === 0) { out.push(resolveWord(c)); return; }
    for (const child of c.children) if (child) visit(child);
  };
  for (const c of n.children) if (c) visit(c);
  return out;
}
