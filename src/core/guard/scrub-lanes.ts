// The static rules as "lanes": a few patterns, each the alternatives of the rules whose anchors it
// holds, walked in step by runFrom (scrub-combine.ts). How the rules are split into lanes, and how
// one lane is laid out and scanned, is decided here for V8's backtracking engine.
import { anchorGroups, combine, combinedSource, rewriteGroups, type Combined, type RegexCombined } from './scrub-combine';
import type { ScrubRule } from './scrub-rule';

/**
 * Which pattern ("lane") a rule's anchor goes to. V8 skips quickly through text to the first
 * characters a pattern can start with only while they are few: measured here, one pattern's scan
 * got about three times slower as its anchor characters went from 15 to 18, and the full set (over
 * 30) was several times slower than patterns of at most 14 each walked in step. Every pattern is
 * also one more pass over the text (about as dear as a pattern's scan itself: two lanes of 13 and
 * 14 characters scan in about 60 % of the time of three of 13, 12 and 6), so there are as few as
 * fit: the anchors of the separators, `-_.` and the common rules (MAIN_ANCHORS); everything else
 * (rare vendor prefixes, config-language keywords). Keep each lane under 15 characters. No
 * character is the anchor of rules in two lanes, so at a text position at most one lane can match,
 * and walking the lanes in step finds what one pattern would.
 */
const MAIN_ANCHORS = new Set(['[:=]', ':', '=', '-', '_', '\\.', 'y', 'B', 'K', 'S', 'z', 'k', '>', ',']);

export function laneOf(anchor: string | undefined): number {
  return anchor !== undefined && MAIN_ANCHORS.has(anchor) ? 0 : 1;
}

/** The rules by lane (laneOf), in lane order, each keeping the rules' order; empty lanes left out. */
function laneRules(rules: readonly ScrubRule[]): ScrubRule[][] {
  const lanes: ScrubRule[][] = [[], []];
  for (const r of rules) lanes[laneOf(r.anchor)].push(r);
  return lanes.filter((l) => l.length);
}

/** The rules as one pattern per lane (laneOf), in lane order, each keeping the rules' order. */
export function combineLanes(rules: readonly ScrubRule[]): RegexCombined[] {
  return laneRules(rules).map((lane) => scanLane(laneSource(lane), () => lane));
}

/** The sources of combineLanes' patterns (what scrub-lane-sources.ts holds, built beforehand). */
export function laneSources(rules: readonly ScrubRule[]): string[] {
  return laneRules(rules).map(laneSource);
}

/**
 * combineLanes' lanes from their sources made beforehand: building the sources from the rules costs
 * about as much as V8's compile of them, on the first scrub of a process. The rules are asked for
 * on a lane's first match, when its `exact` needs them; `sources` must be laneSources(rules()).
 */
export function lanesFromSources(sources: readonly string[], rules: () => readonly ScrubRule[], reach: readonly (number | undefined)[] = []): RegexCombined[] {
  let lanes: ScrubRule[][] | undefined;
  return sources.map((source, i) => scanLane(source, () => (lanes ??= laneRules(rules()))[i], reach[i]));
}

/**
 * Per lane made beforehand (scrub-lane-sources.ts), how far past a position its pattern can look
 * (Combined.reach), where that is bounded: the rare-anchor lane's quantifiers are all bounded, its
 * matches and lookaheads reaching at most about 4,250 characters; the main lane has unbounded
 * values. scrub-chunks.test.ts measures the sources against these bounds.
 */
export const LANE_SOURCES_REACH: readonly (number | undefined)[] = [undefined, 4352];

/** A match of no rule: kept as it is. */
const NO_RULE: Combined = { re: { lastIndex: 0, exec: () => null }, groups: [], inner: [], renders: [], accepts: [] };

/** The pattern a lane scans with: its rules' alternatives, frequent anchors first, groups only where a backreference names them. */
function laneSource(rules: readonly ScrubRule[]): string {
  const source = combinedSource(byFrequency(anchorGroups(rules)));
  const referenced = new Set([...source.matchAll(/\\k<([A-Za-z0-9_]+)>/g)].map((m) => m[1]));
  return rewriteGroups(source, (name) => name !== undefined && referenced.has(name)).source;
}

/**
 * A lane that scans with its rules' pattern stripped of capturing groups, and reads the groups of a
 * match only once one is found. V8 resets every capture register at each position it tries, and a
 * lane has a couple of hundred groups: the scan without them was measured about 14 % faster, and
 * matches are rare (about one in 10,000 characters of tool output). Groups a backreference names stay.
 * At a match, its rule is the first, in the order of the alternatives, whose own sticky pattern
 * (the rule alone, as combine builds it) matches there — the alternative the lane's pattern took,
 * since the pattern is nothing but those alternatives — and only rules whose anchor is the
 * character there are tried. Each rule's pattern is compiled the first time it is needed.
 */
function scanLane(source: string, rulesOf: () => readonly ScrubRule[], reach?: number): RegexCombined {
  /** The lane's rules in the order of the alternatives of `source`, looked up on its first match. */
  let ordered: readonly ScrubRule[] | undefined;
  const alone: (RegexCombined | undefined)[] = [];
  /** Per character code at a match's start: the rules that can start there, in order. */
  const byChar = new Map<number, number[]>();
  let whole: RegexCombined | undefined;
  const exact = (text: string, at: number, length: number): readonly [Combined, RegExpExecArray] => {
    ordered ??= byFrequency(anchorGroups(rulesOf())).flatMap((g) => g.members);
    const rules = ordered;
    const code = text.charCodeAt(at);
    let candidates = byChar.get(code);
    if (!candidates) {
      const c = String.fromCharCode(code);
      candidates = rules.map((_r, i) => i).filter((i) => rules[i].anchor === undefined || new RegExp(`^(?:${rules[i].anchor})$`).test(c));
      byChar.set(code, candidates);
    }
    for (const i of candidates) {
      const one = (alone[i] ??= combine([rules[i]], 'y'));
      one.re.lastIndex = at;
      const m = one.re.exec(text);
      if (m !== null) {
        if (m[0].length === length) return [one, m];
        break;
      }
    }
    // Not reached when the reasoning above holds; the rules' whole pattern, with its groups, decides.
    whole ??= combine(rulesOf());
    whole.re.lastIndex = at;
    const m = whole.re.exec(text);
    if (m !== null && m.index === at) return [whole, m];
    // Nor this: sources made beforehand from other rules (scrub-lane-sources.ts out of date) found a
    // match no rule makes. The text there stays as it is until the sources are found out (scrubber.ts).
    const kept = [text.slice(at, at + length)] as unknown as RegExpExecArray;
    kept.index = at;
    return [NO_RULE, kept];
  };
  return {
    re: new RegExp(source, 'g'),
    groups: [], inner: [], renders: [], accepts: [], exact, ...(reach === undefined ? {} : { reach }),
  };
}

/**
 * Anchor characters, most frequent in tool output first (counted in the scrub-throughput text:
 * `d` 219k, `:` 172k, `.` 150k, `=` 109k, `,` 108k, `-` 107k, … `~` none). At a text position V8
 * tries a lane's anchor groups in their order, each with a test of its anchor, so the groups of
 * frequent anchors go first: measured 33.2 -> 31.5 ms for lane 0 over that text.
 */
const BY_FREQUENCY = 'd:.=,-k/vy>SzA_HBZDGX#YKQ~';

/** Whether no character is the anchor of both groups (so their order cannot change a match). */
function disjoint(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const one = (anchor: string): string | undefined => (anchor.length === 1 ? anchor : /^\\[^\w]$/.test(anchor) ? anchor[1] : undefined);
  const ca = one(a);
  const cb = one(b);
  if (ca !== undefined) return !new RegExp(`^(?:${b})$`).test(ca);
  if (cb !== undefined) return !new RegExp(`^(?:${a})$`).test(cb);
  return false;
}

/**
 * The anchor groups with frequent anchors moved first (BY_FREQUENCY), a group passing another only
 * where no character is the anchor of both: where two can match at one position, the rules' order
 * stands, so every match is the one the rules' order gives.
 */
function byFrequency<G extends { anchor?: string }>(groups: readonly G[]): G[] {
  const rank = (g: G): number => {
    if (g.anchor === undefined) return Infinity;
    const re = new RegExp(`^(?:${g.anchor})$`);
    const at = [...BY_FREQUENCY].findIndex((c) => re.test(c));
    return at < 0 ? Infinity : at;
  };
  const out = [...groups];
  const ranks = new Map(out.map((g) => [g, rank(g)]));
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && (ranks.get(out[j]) as number) < (ranks.get(out[j - 1]) as number) && disjoint(out[j].anchor, out[j - 1].anchor); j--) {
      [out[j - 1], out[j]] = [out[j], out[j - 1]];
    }
  }
  return out;
}
