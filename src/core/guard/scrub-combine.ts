// Builds the one combined RegExp from the rules and runs it. The layout is what makes one pass
// fast in V8's backtracking engine, which tries the alternatives one after another at every text
// position it cannot skip:
//   - rules sharing an anchor character are one alternative `anchor(?:…|…)`, so a position is
//     rejected by one character test, not one test per rule;
//   - inside an anchor group, consecutive rules sharing a guard (a cheap lookbehind) are wrapped in
//     it, so e.g. a `:` after `"name"` is rejected once instead of by five keyword lookbehinds;
//   - the matches are walked with `exec` rather than `String.replace` with a callback, which was
//     measured about twice as slow on a pattern with this many groups;
//   - the rules name their groups, but the combined pattern is compiled with plain numbered groups:
//     V8 builds a `groups` object of every name for every match (about three times the cost of the
//     match itself with this many groups), so only the matched rule's own groups are looked up.
import { defaultRender, type ScrubGroups, type ScrubRule } from './scrub-rule';
import { Output } from './scrub-output';

type Render = (g: ScrubGroups, placeholder: string, match: string) => string;
type Accept = (value: string, text: string, start: number) => boolean;

/** What runCombined walks: a global RegExp, or a scanner with the same `lastIndex` and `exec`. */
export interface Matcher {
  lastIndex: number;
  exec(text: string): RegExpExecArray | null;
}

export interface Combined {
  readonly re: Matcher;
  /** Per rule: the number of its own group in `re`. */
  readonly groups: readonly number[];
  /** Per rule: the names and numbers of the groups inside it (`genL`, `genQ`, …), for its render. */
  readonly inner: readonly (readonly [string, number][])[];
  readonly renders: readonly Render[];
  readonly accepts: readonly (Accept | undefined)[];
  /**
   * A fallback lane (the bare-token scan): a match of another lane that starts inside one of its
   * matches is taken first, and its match waits while a refused candidate inside it is looked past.
   */
  readonly fallback?: boolean;
  /**
   * For a lane whose `re` only finds where a match is (scanLane): the match at `at` again, with its
   * groups, and the Combined whose groups, renders and accepts read it.
   */
  readonly exact?: (text: string, at: number, length: number) => readonly [Combined, RegExpExecArray];
  /**
   * How far past a position the pattern can look, at most (its matches and lookaheads), when that
   * is bounded: a search for its next match may then stop early (scrub-chunks.ts) with a stand-in
   * for "none up to here" (beyondMark).
   */
  readonly reach?: number;
}

/** A stand-in for a pattern's pending match: none starts before `index`, and what comes after is not known yet. */
export interface Beyond extends RegExpExecArray {
  readonly beyond: true;
}

/** The stand-in saying that no match starts before `index`. */
export function beyondMark(index: number): Beyond {
  const m = [''] as unknown as RegExpExecArray & { beyond: boolean };
  m.index = index;
  m.beyond = true;
  return m as Beyond;
}

/** A Combined whose matcher is one compiled pattern (what combine builds). */
export type RegexCombined = Combined & { readonly re: RegExp };

/** What numberGroups looks at: a backreference, any other escape, a class bracket, a plain or a named group. */
const GROUP_SYNTAX = /\\k<([A-Za-z0-9_]+)>|\\[\s\S]|\[|\]|\((?!\?)|\(\?<(?![=!])([A-Za-z0-9_]+)>/g;

/**
 * The source with its named groups made plain numbered groups (`\k<x>` becoming `(?:\N)`), and the
 * number of each name. The sources are the rules' own, so the small tokenizer below covers what
 * they use: escapes, character classes, `(?:`, lookarounds and named or plain groups. It copies the
 * text between the tokens it changes in runs (it runs on the ~15 KB pattern when the first scrub
 * of a process builds it, on the start-up path).
 */
export function numberGroups(source: string): { source: string; numbers: Map<string, number> } {
  return rewriteGroups(source, () => true);
}

/**
 * numberGroups' rewrite, keeping a group capturing only where `capture` says so for its name
 * (undefined: a plain group) and making the others `(?:`.
 */
export function rewriteGroups(source: string, capture: (name: string | undefined) => boolean): { source: string; numbers: Map<string, number> } {
  const numbers = new Map<string, number>();
  const parts: string[] = [];
  let copied = 0;
  let count = 0;
  let inClass = false;
  GROUP_SYNTAX.lastIndex = 0;
  for (let t = GROUP_SYNTAX.exec(source); t !== null; t = GROUP_SYNTAX.exec(source)) {
    const token = t[0];
    // Inside a character class everything is literal up to its closing `]`.
    if (inClass) {
      if (token === ']') inClass = false;
      continue;
    }
    let replacement: string | undefined;
    if (t[1] !== undefined) {
      const n = numbers.get(t[1]);
      if (n === undefined) throw new Error(`scrub rule: backreference to unknown group ${t[1]}`);
      replacement = `(?:\\${n})`;
    } else if (t[2] !== undefined) {
      if (capture(t[2])) {
        count += 1;
        numbers.set(t[2], count);
        replacement = '(';
      } else {
        replacement = '(?:';
      }
    } else if (token === '[') {
      inClass = true;
    } else if (token === '(') {
      if (capture(undefined)) count += 1;
      else replacement = '(?:';
    }
    if (replacement !== undefined) {
      parts.push(source.slice(copied, t.index), replacement);
      copied = t.index + token.length;
    }
  }
  parts.push(source.slice(copied));
  return { source: parts.join(''), numbers };
}

/** The body of a guard that is one lookbehind `(?<=body)`, or undefined for any other guard. */
export function lookbehindBody(guard: string): string | undefined {
  if (!guard.startsWith('(?<=') || !guard.endsWith(')')) return undefined;
  // The `(` at 0 must close at the very end, or the guard is several assertions in a row.
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < guard.length; i++) {
    const c = guard[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')' && --depth === 0 && i !== guard.length - 1) return undefined;
  }
  return depth === 0 ? guard.slice(4, -1) : undefined;
}

function groupSource(members: readonly ScrubRule[]): string {
  const runs: { guard?: string; parts: string[] }[] = [];
  for (const r of members) {
    const part = `(?<${r.name}>${r.source})`;
    const run = runs[runs.length - 1];
    if (run && r.guard !== undefined && run.guard === r.guard) run.parts.push(part);
    else runs.push({ guard: r.guard, parts: [part] });
  }
  const sources = runs.map((run) => (run.guard === undefined ? run.parts.join('|') : `${run.guard}(?:${run.parts.join('|')})`));
  // Consecutive runs under different lookbehind guards are tried behind one lookbehind of either
  // guard (each run still tests its own): at an anchor where none holds, V8 enters one lookbehind
  // instead of one per run, and entering a lookbehind is what a frequent anchor costs (the `.` of
  // every member access). The outer check is implied by each inner one, so matches are unchanged.
  const out: string[] = [];
  for (let i = 0; i < runs.length;) {
    let j = i;
    const bodies: string[] = [];
    for (; j < runs.length; j++) {
      const body = runs[j].guard === undefined ? undefined : lookbehindBody(runs[j].guard as string);
      if (body === undefined) break;
      bodies.push(body);
    }
    if (j - i >= 2) {
      out.push(`(?<=${bodies.map((b) => `(?:${b})`).join('|')})(?:${sources.slice(i, j).join('|')})`);
      i = j;
    } else {
      out.push(sources[i]);
      i += 1;
    }
  }
  return out.join('|');
}

/** The rules by anchor, each anchor's group where the first of them stands: the order of the alternatives. */
export function anchorGroups(rules: readonly ScrubRule[]): { anchor?: string; members: ScrubRule[] }[] {
  const groups: { anchor?: string; members: ScrubRule[] }[] = [];
  for (const r of rules) {
    const group = r.anchor === undefined ? undefined : groups.find((g) => g.anchor === r.anchor);
    if (group) group.members.push(r);
    else groups.push({ anchor: r.anchor, members: [r] });
  }
  return groups;
}

export function combinedSource(groups: readonly { anchor?: string; members: readonly ScrubRule[] }[]): string {
  return groups.map((g) => (g.anchor === undefined ? groupSource(g.members) : `${g.anchor}(?:${groupSource(g.members)})`)).join('|');
}

/** Rules sharing an anchor become one alternative, placed where the first of them stands. */
export function combine(rules: readonly ScrubRule[], flags = 'g'): RegexCombined {
  const numbered = numberGroups(combinedSource(anchorGroups(rules)));
  const numberOf = (name: string): number => numbered.numbers.get(name) ?? -1;
  // A sub-group belongs to the rule with the longest name it starts with (`tk10L` to tk10, not tk1).
  const ruleIndex = new Map(rules.map((r, i) => [r.name, i]));
  const inner = rules.map((): [string, number][] => []);
  for (const [name, n] of numbered.numbers) {
    for (let len = name.length - 1; len > 0; len--) {
      const owner = ruleIndex.get(name.slice(0, len));
      if (owner !== undefined) {
        inner[owner].push([name, n]);
        break;
      }
    }
  }
  return {
    re: new RegExp(numbered.source, flags),
    groups: rules.map((r) => numberOf(r.name)),
    inner,
    renders: rules.map((r) => {
      const render = r.render ?? defaultRender(r.name);
      // The anchor character was consumed outside the rule's own group: put it back.
      return r.anchor === undefined ? render : (g: ScrubGroups, p: string, match: string) => match[0] + render(g, p, match);
    }),
    accepts: rules.map((r) => r.accept),
  };
}

/** What the placeholder stands for: the match minus the labels its replacement kept on both sides. */
function redactedValue(match: string, replacement: string, placeholder: string): string {
  const at = replacement.indexOf(placeholder);
  if (at < 0) return '';
  return match.slice(at, match.length - (replacement.length - at - placeholder.length));
}

/** A refused candidate up to this long is looked into again (a vendor token after a key name). */
const RESCAN_MAX = 600;
const NEWLINE = 10;

/** The match of `re` that starts first at or after `from`, or null. */
function matchFrom(re: Matcher, text: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(text);
}

/**
 * Each pattern's first match in `text` at or after `from` (what runFrom starts with). A pattern's
 * entry stays valid for any later start it does not lie before: a match at a position does not
 * depend on where the search began, and null (none up to the end) holds for any later start too.
 */
export function pendingFrom(patterns: readonly Combined[], text: string, from: number): (RegExpExecArray | null)[] {
  return patterns.map((c) => matchFrom(c.re, text, from));
}

/** What runFrom returns. */
export interface RunResult {
  /**
   * The scrubbed text from `from` on (up to the cut when the scan stopped there, else to the end),
   * or undefined when nothing was replaced in it.
   */
  readonly output: Output | undefined;
  /** Whether the scan stopped at the cut (see runFrom). */
  readonly stopped: boolean;
}

/**
 * One pass over `text` of several patterns walked in step; where two match at one position, the
 * earlier in `patterns` wins — exactly what one pattern of all their alternatives in that order
 * would find. A pattern's next match, once found, stays valid while the scan has not passed its
 * start (a match at a position does not depend on where the search began), so each pattern is
 * searched again only when the scan moved past its match. A fallback pattern's match yields to any
 * other match starting inside it, and stays pending until text is replaced past its start. Returns
 * `text` itself when nothing was replaced.
 */
export function runCombined(patterns: readonly Combined[], text: string, placeholder: string): string {
  const first = firstMatches(patterns, text);
  return first === undefined ? text : runFrom(patterns, text, placeholder, 0, -1, first).output?.toString() ?? text;
}

/**
 * Each pattern's first match in `text`, or undefined when none matches: most texts hold no secret,
 * and for them the scan ends here. A short tool result is scrubbed on cold caches (the process
 * slept while the tool ran), where every function and object on the way costs (measured in the
 * MCP bench's loop: ~2.8 us a scrub of "Echo: m5" against ~0.3 us warm).
 */
function firstMatches(patterns: readonly Combined[], text: string): (RegExpExecArray | null)[] | undefined {
  let found = false;
  const first: (RegExpExecArray | null)[] = [];
  for (const c of patterns) {
    const m = matchFrom(c.re, text, 0);
    if (m !== null) found = true;
    first.push(m);
  }
  return found ? first : undefined;
}

/**
 * runCombined's pass over `text` from `from` on (lookbehinds and accept checks still see the text
 * before it), which can stop at `cut`, a position just after a line break: a scan started fresh at
 * the cut (`runFrom(…, cut)`) then makes exactly the rest of the output. It stops only where that
 * holds, and otherwise goes on to the end (`stopped` false). It holds when the scan reaches the cut
 * with every pending match starting at or after it, without having looked past it (a match that
 * was kept or refused and skipped whole ends at or before it), and with the last replacement
 * ending before its line break: then the state a fresh scan starts with (position and pending
 * matches, and no value of the line before to chase, the line break ending that line's copies)
 * is the state this scan has there. Nothing about the rules is assumed: a secret spanning the cut
 * (a PEM block) is a match across it, and the scan goes on.
 */
export function runFrom(patterns: readonly Combined[], text: string, placeholder: string, from: number, cut = -1, first?: (RegExpExecArray | null)[]): RunResult {
  let out: Output | undefined;
  let last = from;
  let at = from;
  let stopAt = cut > from && text.charCodeAt(cut - 1) === NEWLINE ? cut : -1;
  // `first`: the patterns' pending matches, already found (firstMatches, pendingFrom), each at or
  // after `from` or found from a start at or before it; entries before `from` are searched again.
  // Updated in place, so that a caller scanning on from the cut can hand them on.
  const next = first ?? pendingFrom(patterns, text, from);
  for (;;) {
    let k = -1;
    for (let i = 0; i < patterns.length; i++) {
      let m = next[i];
      if (m !== null && m.index < (patterns[i].fallback ? last : at)) m = next[i] = matchFrom(patterns[i].re, text, at);
      if (m !== null && (k < 0 || m.index < (next[k] as RegExpExecArray).index)) k = i;
    }
    if (stopAt >= 0 && (k < 0 || (next[k] as RegExpExecArray).index >= stopAt)) {
      if (at <= stopAt && last < stopAt) {
        out?.addGap(text.slice(last, stopAt), last);
        return { output: out, stopped: true };
      }
      stopAt = -1;
    }
    if (k < 0) break;
    if (patterns[k].fallback) {
      // Another lane's match inside the fallback's (a vendor prefix in a random run) is tried first.
      const fallbackEnd = (next[k] as RegExpExecArray).index + (next[k] as RegExpExecArray)[0].length;
      let inside = -1;
      for (let i = 0; i < patterns.length; i++) {
        const m = next[i];
        if (i !== k && m !== null && m.index < fallbackEnd && (inside < 0 || m.index < (next[inside] as RegExpExecArray).index)) inside = i;
      }
      if (inside >= 0) k = inside;
    }
    if ((next[k] as Partial<Beyond>).beyond === true) {
      // The first pending place (or the first inside the fallback's match) is where that pattern's
      // search stopped early (scrub-chunks.ts): search on from there, then choose again.
      next[k] = matchFrom(patterns[k].re, text, Math.max(at, (next[k] as Beyond).index));
      continue;
    }
    let hit = next[k] as RegExpExecArray;
    let lane = patterns[k];
    if (lane.exact) [lane, hit] = lane.exact(text, hit.index, hit[0].length);
    const { groups, inner, renders, accepts } = lane;
    const match = hit[0];
    let replacement = match;
    let accept: Accept | undefined;
    for (let i = 0; i < groups.length; i++) {
      if (hit[groups[i]] !== undefined) {
        const g: Record<string, string | undefined> = {};
        for (const [name, n] of inner[i]) g[name] = hit[n];
        replacement = renders[i](g, placeholder, match);
        accept = accepts[i];
        break;
      }
    }
    const end = hit.index + match.length;
    if (replacement === match) {
      at = end;
      continue;
    }
    const value = redactedValue(match, replacement, placeholder);
    if (accept && !accept(value, text, hit.index)) {
      // Refused: keep the text, and let the scan look again just after the match's start — unless
      // the candidate was long, so that refusals cannot add up to quadratic work.
      at = match.length > RESCAN_MAX ? end : hit.index + 1;
      continue;
    }
    out ??= new Output(placeholder);
    out.addGap(text.slice(last, hit.index), last);
    out.addReplacement(replacement, value);
    last = end;
    at = end;
  }
  out?.addGap(text.slice(last), last);
  return { output: out, stopped: false };
}
