// Walks a bash syntax tree and lists every simple command that would run, wherever it sits, with its
// argv after quote removal, the redirections and heredocs it gets, and the wrappers that led to it.
import type { Parser } from '@vscode/tree-sitter-wasm';
import { clip, copyTree, syntaxDetail, type SyntaxNode as Node } from './command-syntax-node';
import { plainTree } from './command-plain-tree';
import type { ParseProblem, Redirect, Segment, SegmentContext, Word } from './command-types';
import { collectSubstitutions, resolveWord, staticWord } from './command-words';
import { descriptorOfNext, isRedirectNode, readRedirect, type Heredoc } from './command-redirects';
import { embeddedCommandWords } from './command-code';
import { unwrapCommand } from './command-wrappers';
import { testWords } from './command-test-words';
import { lastIndexOf, slice, startsWith } from './command-strings';

type Joiner = Segment['joinedBy'];

/** Redirections (and words after their targets) the grammar hung on a whole list or pipeline, for its last command. */
interface LastRedirects {
  redirects: Redirect[];
  of: Node;
  words: Node[][];
}

interface Ctx {
  context: SegmentContext;
  via: string[];
  depth: number;
  /** Redirections of an enclosing compound (`{ a; b; } > f`), which every command inside inherits. */
  redirects: Redirect[];
  heredocs: Heredoc[];
  /** Stdin is a pipe (`curl … | sh`, `a | { sh; }`). */
  stdinPipe: boolean;
}

const JOINERS = new Set(['|', '|&', '&&', '||', ';', '&', ';;', ';&', ';;&']);
/** Nodes that run commands; any other node is searched for substitutions only. */
const STATEMENTS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'command', 'redirected_statement',
  'negated_command', 'function_definition', 'if_statement', 'elif_clause', 'else_clause', 'while_statement',
  'for_statement', 'c_style_for_statement', 'case_statement', 'case_item', 'do_group', 'declaration_command',
  'unset_command', 'test_command', 'variable_assignment', 'variable_assignments', 'ERROR',
]);

/** Variables whose value a program runs as a command line (`GIT_SSH_COMMAND=…`, `PAGER=…`, `CC=…`). */
const RUNS_VALUE = /(COMMAND|_CMD|EXEC|HOOK|EDITOR|PAGER|SHELL|WRAPPER|LAUNCHER|RUNNER|ASKPASS)$|^(CC|CXX|LD|AR|FC|CPP)$/;

/** No stdin text: one shared empty list for the commands (nearly all) that get none. */
const NO_TEXT: readonly string[] = [];

/**
 * `{ ...ctx, ...patch }` with `depth`, written out key by key: every Ctx then has one hidden class.
 * Spread copies of contexts of several shapes made the walker's reads and writes of them megamorphic
 * IC misses on every command (the IC log showed a miss per call at each spread).
 */
function ctxWith(ctx: Ctx, patch: Partial<Ctx>, depth = ctx.depth): Ctx {
  return {
    context: patch.context ?? ctx.context,
    via: patch.via ?? ctx.via,
    depth,
    redirects: patch.redirects ?? ctx.redirects,
    heredocs: patch.heredocs ?? ctx.heredocs,
    stdinPipe: patch.stdinPipe ?? ctx.stdinPipe,
  };
}

export function topContext(): Ctx {
  return { context: 'top', via: [], depth: 0, redirects: [], heredocs: [], stdinPipe: false };
}

export class SegmentWalker {
  readonly segments: Segment[] = [];
  readonly problems: ParseProblem[] = [];
  private readonly seen = new Set<string>();
  /** The tree walked now is plainTree's (no `$`, backtick or `<(`): no substitution to search for. */
  private plain = false;
  /** A Map, not a WeakMap: it lives only as long as this walker (one parse), and weak maps cost GC work. */
  private readonly heredocInfo = new Map<Segment, Heredoc[]>();

  constructor(private readonly parser: Parser, private readonly maxDepth: number) {}

  /** Parses `text` and walks it; nested scripts (`sh -c '…'`) come back here one level deeper. */
  walkScript(text: string, ctx: Ctx): void {
    // Plain lines get tree-sitter's tree without the WASM parse and copy (command-plain-tree.ts).
    const plain = plainTree(text);
    const outer = this.plain;
    this.plain = plain !== undefined;
    try { if (plain) this.statement(plain, ctx, ''); else this.walkParsed(text, ctx); } finally { this.plain = outer; }
  }

  private walkParsed(text: string, ctx: Ctx): void {
    const tree = this.parser.parse(text);
    if (!tree) { this.problem('unsupported', 'the parser gave up on this text'); return; }
    let root: Node;
    let broken: boolean;
    try {
      broken = tree.rootNode.hasError;
      root = copyTree(tree, text);
    } finally {
      tree.delete();
    }
    if (broken) this.problem('syntax', syntaxDetail(root));
    this.statement(root, ctx, '');
  }

  problem(kind: ParseProblem['kind'], detail: string): void {
    const key = `${kind}\0${detail}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push({ kind, detail });
  }

  private deeper(ctx: Ctx, patch: Partial<Ctx>): Ctx | undefined {
    if (ctx.depth + 1 > this.maxDepth) {
      this.problem('too-deep', `nesting deeper than ${this.maxDepth} levels (wrappers, subshells, substitutions) is not followed`);
      return undefined;
    }
    return ctxWith(ctx, patch, ctx.depth + 1);
  }

  private statement(n: Node, ctx: Ctx, joinedBy: Joiner): void {
    switch (n.type) {
      case 'command': this.command(n, ctx, joinedBy, [], [], n.text); return;
      case 'redirected_statement': this.redirected(n, ctx, joinedBy); return;
      case 'subshell': case 'compound_statement': {
        const inner = this.deeper(ctx, { context: ctx.context === 'top' ? 'subshell' : ctx.context });
        if (inner) this.sequence(n, inner, joinedBy);
        return;
      }
      case 'function_definition': {
        const named = n.namedChildren;
        const body = named.length > 1 ? named[named.length - 1] : null; // the name comes first
        const inner = this.deeper(ctx, { context: 'function' });
        if (body && inner) this.sequence(body, inner, joinedBy);
        return;
      }
      case 'variable_assignment': case 'variable_assignments': this.assignmentsOnly(n, ctx, joinedBy); return;
      case 'declaration_command': case 'unset_command': this.declaration(n, ctx, joinedBy); return;
      case 'test_command':
        this.emit(this.segment(testWords(n), [], [], [], ctx, joinedBy, n.text), ctx);
        this.substitutions(n, ctx);
        return;
      default:
        if (STATEMENTS.has(n.type)) this.sequence(n, ctx, joinedBy);
        else this.substitutions(n, ctx);
    }
  }

  /**
   * Children in order: operators set how the next statement is joined; the rest is walked.
   * `lastRedirects`: redirections the grammar hung on a whole `a && b` list, which the shell gives
   * to its last command only (`cd x && make 2>&1`: cd's stderr is not redirected).
   */
  private sequence(n: Node, ctx: Ctx, joinedBy: Joiner, lastRedirects?: LastRedirects): void {
    let pending: Joiner | undefined;
    let first = true;
    const last = lastRedirects ? n.namedChildren.filter((c) => c && STATEMENTS.has(c.type)).pop() : undefined;
    for (const child of n.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (JOINERS.has(child.type)) pending = (startsWith(child.type, ';') ? ';' : child.type) as Joiner;
        continue;
      }
      if (!STATEMENTS.has(child.type)) { this.substitutions(child, ctx); continue; }
      // The first statement keeps the caller's joiner, unless a pipe comes first (a heredoc's `| sh` tail).
      const j: Joiner = first && pending !== '|' && pending !== '|&' ? joinedBy : pending ?? '\n';
      const c = j === '|' || j === '|&' ? ctxWith(ctx, { stdinPipe: true }) : ctx;
      if (lastRedirects && child === last) {
        const { redirects, of, words } = lastRedirects;
        if (child.type === 'command') this.command(child, c, j, redirects, [], of.text.slice(child.startIndex - of.startIndex), words);
        else if (words.length && (child.type === 'list' || child.type === 'pipeline')) this.sequence(child, ctxWith(c, { redirects: [...c.redirects, ...redirects] }), j, { redirects: [], of, words });
        else {
          if (words.length) this.problem('syntax', `words after a redirection of ${child.type} (${clip(of.text)})`);
          this.statement(child, ctxWith(c, { redirects: [...c.redirects, ...redirects] }), j);
        }
      } else this.statement(child, c, j);
      pending = undefined;
      first = false;
    }
  }

  private redirected(n: Node, ctx: Ctx, joinedBy: Joiner): void {
    const redirects: Redirect[] = [];
    const heredocs: Heredoc[] = [];
    const tails: Node[] = [];
    const targets: { node: Node; literal: boolean }[] = [];
    // Arguments written after a redirection's target (`rm > log -rf ~`): the last command gets them.
    const words: Node[][] = [];
    let body: Node | null = null;
    let fd: number | undefined;
    const named = n.namedChildren;
    for (let i = 0; i < named.length; i++) {
      const c = named[i];
      if (!c) continue;
      if (isRedirectNode(c)) {
        const read = readRedirect(c);
        if (fd !== undefined && read[0]) read[0].redirect.fd = fd;
        fd = descriptorOfNext(read, named[i + 1]);
        for (const r of read) { redirects.push(r.redirect); if (r.heredoc) heredocs.push(r.heredoc); if (r.words) words.push(...r.words); }
        targets.push({ node: c, literal: read.some((r) => r.heredoc?.literal) });
        if (c.type === 'heredoc_redirect') tails.push(c);
      } else if (!body) body = c;
    }
    if (body?.type === 'command') this.command(body, ctx, joinedBy, redirects, heredocs, n.text, words);
    else if (body?.type === 'list' && !heredocs.length) this.sequence(body, ctx, joinedBy, { redirects, of: n, words });
    // A pipeline keeps giving the redirections to each of its commands (stricter than the shell); words go to its last.
    else if (body?.type === 'pipeline' && words.length && !heredocs.length) this.sequence(body, ctxWith(ctx, { redirects: [...ctx.redirects, ...redirects] }), joinedBy, { redirects: [], of: n, words });
    else {
      // `(a) > f b` and `{ a; } > f b` do not parse in bash; an argument with no command to take it is never guessed at.
      if (words.length) this.problem('syntax', `words after a redirection with no command to take them (${clip(n.text)})`);
      if (body) this.statement(body, ctxWith(ctx, { redirects: [...ctx.redirects, ...redirects], heredocs: [...ctx.heredocs, ...heredocs] }), joinedBy);
      else this.emit(this.segment([], [], redirects, heredocs, ctx, joinedBy, n.text), ctx);
    }
    for (const t of targets) this.redirectSubstitutions(t.node, t.literal, ctx);
    // `cat <<EOF | sh` and `cat <<EOF && x`: the grammar puts what follows the delimiter inside the heredoc node.
    for (const t of tails) this.heredocTail(t, ctx);
  }

  private command(n: Node, ctx: Ctx, joinedBy: Joiner, extra: Redirect[], extraHeredocs: Heredoc[], text: string, trailing: Node[][] = []): void {
    const assignments: { name: string; value: Word }[] = [];
    const redirects: Redirect[] = [];
    const heredocs: Heredoc[] = extraHeredocs.slice();
    const groups: Node[][] = [];
    let lastEnd = -1;
    let fd: number | undefined;
    for (let i = 0; i < n.children.length; i++) {
      const c = n.children[i];
      if (!c) continue;
      if (c.type === 'variable_assignment') { assignments.push(assignment(c)); continue; }
      if (isRedirectNode(c)) {
        const read = readRedirect(c);
        if (fd !== undefined && read[0]) read[0].redirect.fd = fd;
        fd = descriptorOfNext(read, n.children[i + 1]);
        for (const r of read) {
          redirects.push(r.redirect);
          if (r.heredoc) heredocs.push(r.heredoc);
          if (r.words) { groups.push(...r.words); lastEnd = c.endIndex; }
        }
        continue;
      }
      if (c.type === 'ERROR' || (!c.isNamed && c.type !== '$')) continue;
      // Nodes with no space between them are one shell word (`$"…"` comes as `$` then a string).
      if (c.startIndex === lastEnd && groups.length) groups[groups.length - 1].push(c);
      else groups.push([c]);
      lastEnd = c.endIndex;
    }
    const argv: Word[] = [];
    for (let k = 0; k < groups.length; k++) argv.push(resolveWord(groups[k]));
    for (let k = 0; k < trailing.length; k++) argv.push(resolveWord(trailing[k]));
    this.emit(this.segment(argv, assignments, joined(extra, redirects), heredocs, ctx, joinedBy, text), ctx);
    this.substitutions(n, ctx);
  }

  private assignmentsOnly(n: Node, ctx: Ctx, joinedBy: Joiner): void {
    const list = n.type === 'variable_assignment' ? [n] : n.namedChildren.filter((c) => c.type === 'variable_assignment');
    this.emit(this.segment([], list.map(assignment), [], [], ctx, joinedBy, n.text), ctx);
    this.substitutions(n, ctx);
  }

  /** `export A=1 B`, `local x`, `declare -x Y=2`, `unset Z`: a builtin whose arguments may assign. */
  private declaration(n: Node, ctx: Ctx, joinedBy: Joiner): void {
    const argv: Word[] = [];
    const assignments: { name: string; value: Word }[] = [];
    for (const c of n.children) {
      if (!c) continue;
      if (!c.isNamed) { if (argv.length === 0) argv.push(staticWord(c.type)); continue; }
      if (c.type === 'variable_assignment') {
        const a = assignment(c);
        assignments.push(a);
        argv.push({ text: `${a.name}=${a.value.text}`, dynamic: a.value.dynamic, raw: c.text });
      } else argv.push(resolveWord(c));
    }
    this.emit(this.segment(argv, assignments, [], [], ctx, joinedBy, n.text), ctx);
    this.substitutions(n, ctx);
  }

  private segment(argv: Word[], assignments: Segment['assignments'], redirects: Redirect[], heredocs: Heredoc[], ctx: Ctx, joinedBy: Joiner, text: string): Segment {
    const all = joined(ctx.heredocs, heredocs);
    const seg: Segment = {
      argv, assignments, redirects: joined(ctx.redirects, redirects), context: ctx.context, via: ctx.via,
      joinedBy, text, heredocs: all.length ? all.map((h) => h.body) : [],
    };
    if (all.length) this.heredocInfo.set(seg, all); // read back with `?? []`: most segments have none
    return seg;
  }

  /** Records a segment, then follows what it runs (wrappers) — the segment itself stays listed. */
  private emit(seg: Segment, ctx: Ctx): void {
    this.segments.push(seg);
    const name = seg.argv[0];
    if (name?.dynamic) this.problem('dynamic-command', `the command name ${name.raw} is only known at run time`);
    for (const action of unwrapCommand(seg.argv)) {
      if (action.kind === 'problem') { this.problem(action.problem.kind, action.problem.detail); continue; }
      const inner = this.deeper(ctx, {
        context: 'wrapped', via: [...seg.via, action.label],
        redirects: seg.redirects, heredocs: this.heredocInfo.get(seg) ?? [], stdinPipe: ctx.stdinPipe,
      });
      if (!inner) return;
      if (action.kind === 'argv') {
        // The wrapped command inherits the wrapper's redirections and heredocs (same stdin and stdout).
        const assignments = [...seg.assignments, ...(action.assignments ?? [])];
        this.emit(this.segment(action.argv, assignments, [], [], inner, '', seg.text), inner);
      } else if (action.kind === 'script') this.script(action.script, action.label, inner);
      else this.stdinShell(seg, action.label, inner);
    }
    this.embedded(seg, ctx);
    for (const a of seg.assignments) {
      if (!RUNS_VALUE.test(a.name) || !a.value.text.trim()) continue;
      const inner = this.deeper(ctx, { context: 'wrapped', via: [...seg.via, `${a.name}=`], redirects: [], heredocs: [], stdinPipe: false });
      if (inner) this.script(a.value, `${a.name}=`, inner);
    }
  }

  /** Command lines that inline code hands to a shell (`python3 -c 'os.system("…")'`, awk `system("…")`). */
  private embedded(seg: Segment, ctx: Ctx): void {
    const name = seg.argv[0];
    if (!name || name.dynamic) return;
    const base = slice(name.text, lastIndexOf(name.text, '/') + 1);
    const stdin = seg.heredocs.length || seg.redirects.some((r) => r.op === '<<<') ? [...seg.heredocs, ...seg.redirects.filter((r) => r.op === '<<<').map((r) => r.target.text)] : NO_TEXT;
    for (const e of embeddedCommandWords(base, seg.argv, stdin)) {
      const inner = this.deeper(ctx, { context: 'wrapped', via: [...seg.via, e.label], redirects: [], heredocs: [], stdinPipe: false });
      if (!inner) return;
      this.script(e.script, e.label, inner);
    }
  }

  /** A string handed to a shell. Parsed even when partly dynamic, so a deny rule can still match it. */
  private script(script: Word, label: string, ctx: Ctx): void {
    if (script.dynamic) this.problem('eval', `${label} runs a string only known at run time (${clip(script.raw)})`);
    this.walkScript(script.text, ctxWith(ctx, { redirects: [], heredocs: [], stdinPipe: false }));
  }

  /** A shell without a script argument runs whatever arrives on stdin. */
  private stdinShell(seg: Segment, label: string, ctx: Ctx): void {
    const heredocs = this.heredocInfo.get(seg) ?? [];
    for (const h of heredocs) {
      if (!h.literal && /[$`\\]/.test(h.body)) this.problem('eval', `${label} runs a heredoc with expansions in it`);
      this.walkScript(h.body, ctxWith(ctx, { via: [...seg.via, `${label} <<`], redirects: [], heredocs: [], stdinPipe: false }));
    }
    for (const r of seg.redirects) {
      if (r.op === '<<<') {
        if (r.target.dynamic) this.problem('eval', `${label} runs a here-string only known at run time`);
        this.walkScript(r.target.text, ctxWith(ctx, { via: [...seg.via, `${label} <<<`], redirects: [], heredocs: [], stdinPipe: false }));
      } else if (r.op === '<' && (r.fd === undefined || r.fd === 0) && r.target.dynamic) {
        this.problem('eval', `${label} reads its script from ${clip(r.target.raw)}`);
      }
    }
    if (ctx.stdinPipe) this.problem('eval', `${label} runs a script read from a pipe`);
  }

  private substitutions(n: Node, ctx: Ctx): void {
    if (this.plain) return;
    for (const s of collectSubstitutions(n, [])) this.substitution(s, ctx);
  }

  /** A redirect's target may itself run commands (`> >(tee log)`), and so may an unquoted heredoc body. */
  private redirectSubstitutions(n: Node, literal: boolean, ctx: Ctx): void {
    for (const c of n.namedChildren) {
      if (!c || STATEMENTS.has(c.type) || (c.type === 'heredoc_body' && literal)) continue;
      this.substitutions(c, ctx);
    }
  }

  /** What follows a heredoc's delimiter on its line (`cat <<EOF | sh`, `cat <<EOF && x`). */
  private heredocTail(n: Node, ctx: Ctx): void {
    let pending: Joiner = ';';
    for (const c of n.children) {
      if (!c) continue;
      if (!c.isNamed) { if (JOINERS.has(c.type)) pending = (startsWith(c.type, ';') ? ';' : c.type) as Joiner; continue; }
      if (!STATEMENTS.has(c.type)) continue;
      this.statement(c, pending === '|' || pending === '|&' ? ctxWith(ctx, { stdinPipe: true }) : ctx, pending);
      pending = '\n';
    }
  }

  private substitution(n: Node, ctx: Ctx): void {
    const context: SegmentContext = n.type === 'process_substitution' ? 'process-substitution' : 'command-substitution';
    const inner = this.deeper(ctx, { context, redirects: [], heredocs: [], stdinPipe: false });
    if (!inner) return;
    const text = n.text;
    // Inside backticks a backslash escapes `$`, `` ` `` and `\`; the grammar does not re-read the
    // content, so nested backticks (`` `echo \`id\`` ``) are parsed again after unescaping.
    if (text.startsWith('`') && text.includes('\\')) {
      this.walkScript(text.slice(1, text.endsWith('`') ? -1 : undefined).replace(/\\([$`\\])/g, '$1'), inner);
      return;
    }
    this.sequence(n, inner, '');
  }
}

/** `[...a, ...b]`, or one of them when the other is empty (the walker never changes a list once it is handed on). */
function joined<T>(a: readonly T[], b: readonly T[]): T[] {
  return (a.length === 0 ? b : b.length === 0 ? a : a.concat(b)) as T[];
}

function assignment(n: Node): { name: string; value: Word } {
  // NAME (or NAME[i]), then `=` or `+=`, then the value if any.
  const eq = n.children.findIndex((c) => c.type === '=' || c.type === '+=');
  const value = eq >= 0 ? n.children[eq + 1] : undefined;
  return { name: n.children[0]?.text ?? '', value: value ? resolveWord(value) : staticWord('') };
}
