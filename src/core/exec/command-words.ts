// Shell words as the program would receive them: quote removal and concatenation done exactly as the
// shell does for static parts (`r''m`, `"r"m`, `r\m`, `$'\x72m'` → `rm`); anything only known at run
// time (expansions, substitutions, arithmetic, unquoted globs, brace expansion, tilde) marks the word
// dynamic and is kept verbatim, never guessed.
import type { SyntaxNode as Node } from './command-syntax-node';
import type { Word } from './command-types';
import { decodeAnsiC } from './command-ansi-c';
import { endsWith, has, slice } from './command-strings';

/** Node types whose value is only known at run time. */
const DYNAMIC_TYPES = new Set([
  'simple_expansion', 'expansion', 'command_substitution', 'process_substitution',
  'arithmetic_expansion', 'brace_expression',
]);
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);
/** `{a,b}` or `{1..3}` in the unquoted skeleton of a word. */
const BRACE_EXPANSION = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;
/** What WordBuilder.unquoted reads character by character: escapes, globs and tilde. */
const UNQUOTED_SPECIAL = /[\\*?[~]/;

class WordBuilder {
  text = '';
  dynamic = false;
  /** Unquoted characters as written, quoted or escaped ones as `_`: where brace expansion is looked for. */
  skeleton = '';

  literal(s: string): void {
    this.text += s;
    this.skeleton += '_'.repeat(s.length);
  }

  verbatim(s: string): void {
    this.text += s;
    this.skeleton += '_'.repeat(s.length);
    this.dynamic = true;
  }

  /** Unquoted text: backslash escapes, globs and tilde as the shell treats them. */
  unquoted(s: string): void {
    // Most words have none of the characters the loop below treats specially: append them whole.
    if (!UNQUOTED_SPECIAL.test(s)) {
      this.text += s;
      this.skeleton += s;
      return;
    }
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\') {
        if (i + 1 >= s.length) { this.text += c; this.skeleton += '_'; continue; }
        const next = s[++i];
        if (next !== '\n') this.literal(next); // backslash-newline is a line continuation
        continue;
      }
      if (c === '*' || c === '?' || c === '[') this.dynamic = true;
      else if (c === '~' && (this.skeleton === '' || /[=:]$/.test(this.skeleton))) this.dynamic = true;
      this.text += c;
      this.skeleton += c;
    }
  }

  /** Double-quoted text: a backslash only escapes `$`, `` ` ``, `"`, `\` and newline. */
  doubleQuoted(s: string): void {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\' && i + 1 < s.length && '$`"\\\n'.includes(s[i + 1])) {
        if (s[i + 1] !== '\n') out += s[i + 1];
        i++;
      } else out += c;
    }
    this.literal(out);
  }

  node(n: Node): void {
    switch (n.type) {
      case 'word': case 'number': case 'variable_name': case 'extglob_pattern':
      case 'file_descriptor': case 'test_operator': case 'regex': case 'heredoc_start':
        this.unquoted(n.text);
        return;
      case 'raw_string': {
        const t = n.text;
        this.literal(t.length >= 2 && endsWith(t, "'") ? slice(t, 1, -1) : slice(t, 1));
        return;
      }
      case 'ansi_c_string':
        this.literal(decodeAnsiC(n.text));
        return;
      case 'string': this.quoted(n); return;
      case 'translated_string': this.quoted(n.firstNamedChild ?? n); return;
      case 'concatenation': case 'command_name': this.parts(n); return;
      case '$': this.literal('$'); return;
      default:
        // Expansions, substitutions and anything this module does not model: run-time, kept verbatim.
        this.verbatim(n.text);
    }
  }

  /** Children in order; source text between them (not covered by a node) is unquoted text. */
  private parts(n: Node): void {
    let pos = n.startIndex;
    const text = n.text;
    for (const child of n.children) {
      if (!child) continue;
      if (child.startIndex > pos) this.unquoted(text.slice(pos - n.startIndex, child.startIndex - n.startIndex));
      this.node(child);
      pos = child.endIndex;
    }
    if (n.endIndex > pos) this.unquoted(text.slice(pos - n.startIndex));
  }

  /** A double-quoted string: literal content with escapes, expansions kept verbatim. */
  private quoted(n: Node): void {
    const text = n.text;
    if (n.type !== 'string') { this.verbatim(text); return; }
    const closed = text.length >= 2 && text.endsWith('"');
    const end = n.endIndex - (closed ? 1 : 0);
    let pos = n.startIndex + 1;
    for (const child of n.namedChildren) {
      if (!child) continue;
      if (child.startIndex > pos) this.doubleQuoted(text.slice(pos - n.startIndex, child.startIndex - n.startIndex));
      if (child.type === 'string_content') this.doubleQuoted(child.text);
      else this.verbatim(child.text);
      pos = child.endIndex;
    }
    if (end > pos) this.doubleQuoted(text.slice(pos - n.startIndex, end - n.startIndex));
  }

  finish(raw: string): Word {
    const dynamic = this.dynamic || (has(this.skeleton, '{') && BRACE_EXPANSION.test(this.skeleton));
    return { text: this.text, dynamic, raw };
  }
}

/**
 * One word from one or more adjacent nodes (the grammar splits a few words the shell keeps whole,
 * such as `$"…"`, which it reads as a `$` followed by a string).
 */
export function resolveWord(nodes: Node | Node[]): Word {
  const list = Array.isArray(nodes) ? nodes : [nodes];
  const b = new WordBuilder();
  let raw = '';
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    raw += n.text;
    // `$"text"` is a translated string: the `$` is not part of the value.
    if (n.type === '$' && list[i + 1]?.type === 'string') continue;
    b.node(n);
  }
  return b.finish(raw);
}

/** A word whose value is known as plain text (a wrapper's label, an operator, a keyword). */
export function staticWord(text: string): Word {
  return { text, dynamic: false, raw: text };
}

/** Command and process substitutions inside a node (not inside those substitutions), in source order. */
export function collectSubstitutions(node: Node, out: Node[]): Node[] {
  if (SUBSTITUTIONS.has(node.type)) {
    out.push(node);
    return out;
  }
  if (node.childCount === 0) return out;
  for (const child of node.children) if (child) collectSubstitutions(child, out);
  return out;
}

export function isDynamicType(type: string): boolean {
  return DYNAMIC_TYPES.has(type);
}
