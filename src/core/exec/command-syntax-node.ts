// A plain-JS copy of the tree-sitter tree, built in one cursor pass. Each property read on a WASM
// node crosses into the runtime and allocates; the walker reads children, text and fields many
// times, so copying once (then freeing the WASM tree) keeps a 200-char command well under 100 µs.
import type { Language, Tree } from '@vscode/tree-sitter-wasm';
import { slice } from './command-strings';

export class SyntaxNode {
  /** An ERROR or MISSING node somewhere in this subtree. */
  hasError: boolean;

  /** `children` is kept, not copied: the fast path (command-plain-tree.ts) hands over arrays it built. */
  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly children: SyntaxNode[],
  ) {
    this.hasError = type === 'ERROR';
  }

  /** Zero-width non-root node: how tree-sitter marks a token it inserted (MISSING) to recover. */
  get isMissing(): boolean {
    return this.startIndex === this.endIndex && !this.isNamed;
  }

  get text(): string {
    return slice(this.source, this.startIndex, this.endIndex);
  }

  get isError(): boolean {
    return this.type === 'ERROR';
  }

  get namedChildren(): SyntaxNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  get firstNamedChild(): SyntaxNode | null {
    return this.children.find((c) => c.isNamed) ?? null;
  }

  get childCount(): number {
    return this.children.length;
  }

}

/** Per grammar: node type names and whether they are named, by type id (read once, not per node). */
const TYPE_TABLES = new WeakMap<Language, { types: string[]; named: boolean[] }>();

function typeTable(language: Language): { types: string[]; named: boolean[] } {
  let t = TYPE_TABLES.get(language);
  if (!t) {
    const types = language.types.map((x) => x || 'ERROR');
    t = { types, named: types.map((_, id) => language.nodeTypeIsNamed(id)) };
    TYPE_TABLES.set(language, t);
  }
  return t;
}

/**
 * Copies `tree` (whose text is `source`) into SyntaxNodes; the caller may delete the tree afterwards.
 * Three reads per node (type id, start, end); fields are not copied (the walker finds children by type).
 */
export function copyTree(tree: Tree, source: string): SyntaxNode {
  const cursor = tree.walk();
  const { types, named } = typeTable(tree.language);
  try {
    const node = (): SyntaxNode => {
      const id = cursor.nodeTypeId;
      return new SyntaxNode(source, id === 0xffff ? 'ERROR' : types[id] ?? 'ERROR', named[id] ?? true, cursor.startIndex, cursor.endIndex, []);
    };
    const root = node();
    const stack: SyntaxNode[] = [root];
    // Iterative depth-first walk: deeply nested input must not exhaust the JS stack here.
    if (!cursor.gotoFirstChild()) return root;
    for (;;) {
      const n = node();
      const parent = stack[stack.length - 1];
      parent.children.push(n);
      if (n.hasError) parent.hasError = true;
      if (cursor.gotoFirstChild()) { stack.push(n); continue; }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || stack.length === 1) return root;
        const done = stack.pop()!;
        if (done.hasError) stack[stack.length - 1].hasError = true;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Where a tree with a syntax error first goes wrong, for the parse problem's detail. */
export function syntaxDetail(root: SyntaxNode): string {
  let n: SyntaxNode | null = root;
  while (n && !n.isError && !n.isMissing) {
    n = n.children.find((c) => c && (c.hasError || c.isMissing || c.isError)) ?? null;
  }
  if (!n) return 'the shell may read this command differently than it looks';
  const near = clip(n.text || root.text.slice(n.startIndex, n.startIndex + 20));
  return n.isMissing ? `missing ${n.type} near character ${n.startIndex}` : `unexpected ${near ? `\`${near}\`` : 'text'} at character ${n.startIndex}`;
}

/** `s`, cut to 60 characters for a message. */
export function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
