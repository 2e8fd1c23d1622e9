// What an interactive shell job has been taught: the aliases and functions its earlier lines defined.
// Without this the judge of a later line sees only a name — `alias x='rm -rf ~'` on one line and `x`
// on the next would each look harmless. So a definition's body is judged when it is defined (an
// alias body is not a command to the parser; a function body already is), and a later line is
// judged with every name the session defined expanded in place, as the shell would run it. What
// cannot be read — an alias whose body is only known at run time, definitions made by `eval` or a
// script `source`d from a path that cannot be read — makes the judge ask instead of guessing.
import fs from 'node:fs';
import path from 'node:path';
import { bashParser } from '../command-grammar';
import { parseCommand } from '../command-parse';
import { copyTree, type SyntaxNode } from '../command-syntax-node';
import type { ParsedCommand } from '../command-types';

export interface SessionDefinitions {
  /** Alias name → the text it stands for; undefined when that text is only known at run time. */
  aliases: Map<string, string | undefined>;
  /** Function name → its body as written (`{ …; }` or `( … )`). */
  functions: Map<string, string>;
  /** Set once a line may have defined names nobody can read (eval, a dynamic alias, an unreadable source). */
  opaque?: string;
}

export function newDefinitions(): SessionDefinitions {
  return { aliases: new Map(), functions: new Map() };
}

/** What to judge for a line: the text with the session's names expanded, or why a person must look. */
export type JudgedLine = { text: string; expanded: string[] } | { unreadable: string };

/** A sourced script larger than this is not read for definitions: the session becomes opaque. */
const MAX_SOURCED = 256 * 1024;
/** Expansion passes (an alias naming a function naming an alias …); past this a person looks. */
const MAX_PASSES = 8;

async function tree(text: string): Promise<SyntaxNode> {
  const parser = await bashParser();
  const t = parser.parse(text);
  if (!t) throw new Error('the bash parser gave up on this text');
  try {
    return copyTree(t, text);
  } finally {
    t.delete();
  }
}

function* nodes(root: SyntaxNode): Generator<SyntaxNode> {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/** A command word as the shell looks it up: quotes and backslashes gone (`\x`, `'x'` still call a function). */
function bareName(raw: string): string {
  return raw.replace(/['"\\]/g, '');
}

/** Names a line defines, read from its syntax tree (functions) and its parsed words (aliases). */
async function definitionsIn(text: string, parsed: ParsedCommand, into: SessionDefinitions, cwd: string | undefined, depth: number): Promise<void> {
  for (const n of nodes(await tree(text))) {
    if (n.type !== 'function_definition') continue;
    const named = n.namedChildren;
    const name = named[0];
    const body = named.length > 1 ? named[named.length - 1] : undefined;
    if (name && body) into.functions.set(bareName(name.text), body.text);
  }
  for (const seg of parsed.segments) {
    const [cmd, ...args] = seg.argv;
    if (!cmd || cmd.dynamic) continue;
    if (cmd.text === 'alias') {
      for (const a of args) {
        const eq = a.text.indexOf('=');
        if (eq <= 0) continue; // `alias` / `alias x` only print
        const name = a.text.slice(0, eq);
        if (a.dynamic && /[$`]/.test(name)) into.opaque ??= `an alias was defined under a name known only at run time (${a.raw})`;
        else into.aliases.set(name, a.dynamic ? undefined : a.text.slice(eq + 1));
      }
    } else if (cmd.text === 'eval') {
      into.opaque ??= `an earlier line ran \`${seg.text.slice(0, 80)}\`, which may define aliases or functions the judge cannot read`;
    } else if (cmd.text === 'source' || cmd.text === '.') {
      await sourced(seg.text, args[0], into, cwd, depth);
    }
  }
}

/** Reads a sourced script's definitions when its path is plain and readable; else the session is opaque. */
async function sourced(line: string, file: { text: string; dynamic: boolean } | undefined, into: SessionDefinitions, cwd: string | undefined, depth: number): Promise<void> {
  const why = `an earlier line sourced a script (\`${line.slice(0, 80)}\`) whose aliases and functions the judge cannot read`;
  if (!file || file.dynamic || cwd === undefined || depth > 2) {
    into.opaque ??= why;
    return;
  }
  try {
    const p = path.resolve(cwd, file.text);
    if (fs.statSync(p).size > MAX_SOURCED) throw new Error('too large');
    const text = fs.readFileSync(p, 'utf8');
    await definitionsIn(text, await parseCommand(text, { maxLength: MAX_SOURCED }), into, path.dirname(p), depth + 1);
  } catch {
    into.opaque ??= why;
  }
}

/** Records what `text` (a line that was sent) defines, so later lines are judged with it. */
export async function recordDefinitions(defs: SessionDefinitions, text: string, cwd: string | undefined): Promise<void> {
  await definitionsIn(text, await parseCommand(text), defs, cwd, 0);
}

/** One pass: every command word that names a session alias or function replaced by what it stands for. */
async function expandOnce(text: string, defs: SessionDefinitions, done: Set<string>): Promise<{ text: string; names: string[]; unreadable?: string }> {
  const cuts: { start: number; end: number; with: string }[] = [];
  const names: string[] = [];
  for (const n of nodes(await tree(text))) {
    if (n.type !== 'command') continue;
    const word = n.children.find((c) => c.type === 'command_name');
    if (!word) continue;
    const name = bareName(word.text);
    if (done.has(name)) continue; // the shell does not expand an alias inside its own expansion
    // The shell expands an alias as it reads the line, before it looks for a function.
    let replacement: string | undefined;
    if (defs.aliases.has(name)) {
      const body = defs.aliases.get(name);
      if (body === undefined) return { text, names, unreadable: `\`${name}\` is an alias this shell defined with text known only at run time` };
      replacement = body;
    } else if (defs.functions.has(name)) {
      // The body in place of the call; `:` keeps the call's arguments and redirections in the line.
      replacement = `${defs.functions.get(name)}; :`;
    }
    if (replacement === undefined) continue;
    cuts.push({ start: word.startIndex, end: word.endIndex, with: replacement });
    names.push(name);
  }
  let out = text;
  for (const c of cuts.sort((a, b) => b.start - a.start)) out = out.slice(0, c.start) + c.with + out.slice(c.end);
  return { text: out, names };
}

/**
 * The text the judge should see for `line` (already normalised): the session's aliases and
 * functions expanded in place, repeatedly, with the bodies of aliases the line itself defines
 * appended (they are judged when defined, not only when used). Names the line defines count too:
 * a function defined and called on one line runs at once.
 */
export async function judgedText(defs: SessionDefinitions, line: string, parsed: ParsedCommand, cwd: string | undefined): Promise<JudgedLine> {
  const known: SessionDefinitions = { aliases: new Map(defs.aliases), functions: new Map(defs.functions), opaque: defs.opaque };
  await definitionsIn(line, parsed, known, cwd, 0);
  if (defs.opaque) return { unreadable: defs.opaque };
  const appended: string[] = [];
  for (const [name, body] of known.aliases) {
    if (defs.aliases.has(name) && defs.aliases.get(name) === body) continue; // defined earlier, judged then
    if (body === undefined) return { unreadable: `the alias \`${name}\` is defined with text known only at run time` };
    appended.push(body);
  }
  let text = line;
  const expanded: string[] = [];
  const done = new Set<string>();
  for (let pass = 0; ; pass++) {
    const r = await expandOnce(text, known, done);
    if (r.unreadable) return { unreadable: r.unreadable };
    if (!r.names.length) break;
    if (pass === MAX_PASSES) return { unreadable: `the session's aliases and functions nest more than ${MAX_PASSES} deep` };
    text = r.text;
    for (const n of r.names) {
      done.add(n);
      if (!expanded.includes(n)) expanded.push(n);
    }
  }
  // A name run by a wrapper (`sudo x`, `xargs x`, `bash -c x`) is not a command word here: its
  // definition is judged beside the line.
  for (const seg of (await parseCommand(text)).segments) {
    const name = seg.argv[0]?.text;
    if (seg.context !== 'wrapped' || !name || done.has(name)) continue;
    const body = known.functions.get(name) ?? (known.aliases.has(name) ? known.aliases.get(name) ?? null : undefined);
    if (body === null) return { unreadable: `\`${name}\` is an alias this shell defined with text known only at run time` };
    if (body === undefined) continue;
    appended.push(body);
    expanded.push(name);
  }
  if (!appended.length) return { text, expanded };
  return { text: [text, ...appended].join('\n'), expanded };
}
