// The secret scrubber: what a tool returns, what is logged and what the UI shows goes through
// `scrub` first. It only transforms strings; it never writes anything back to a file (a scrubbed
// read written back would put `[REDACTED]` into the user's code).
//
// One pass: every static rule is an alternative `(?<name>…)` of a few patterns, one per group of
// anchor characters ("lanes", laid out for speed by scrub-lanes.ts), walked in step, and one
// replacer asks which group matched. Running each rule as its own pass is many times slower
// (bench/scrub-throughput.mjs measures both). Tokens with no prefix at all (scrub-bare-tokens.ts) are
// found by a plain scan walked in step as one more lane. The registered values live in one more small pattern
// walked in step with them (runCombined): registering a value (an API key at start-up, a
// credential before a command) then compiles a few escaped literals, not the whole rule set again.
// What is tried at one text position, in this order:
//   keep  the placeholder itself, returned unchanged; only present when some other alternative
//         would match inside the placeholder (a registered value such as `REDACTED`), so that
//         scrubbing stays idempotent
//   reg   registered exact values, escaped, longest first
//   …     the static rules of scrub-patterns.ts and scrub-keywords.ts
//
// Nothing is built when a Scrubber is constructed (it sits on the start-up path of the extension
// and the CLI): the static pattern is built on the first scrub, once per process and placeholder,
// and shared by every Scrubber; for the default placeholder from sources made beforehand
// (scrub-lane-sources.ts; its unit test fails whenever they differ from what the rules make).
import { combine, runCombined, runFrom, type Combined, type RegexCombined, type RunResult } from './scrub-combine';
import { combineLanes, LANE_SOURCES_REACH, lanesFromSources } from './scrub-lanes';
import { LANE_SOURCES, LANE_SOURCES_PLACEHOLDER } from './scrub-lane-sources';
import { scrubSplit, SPLIT_MIN } from './scrub-split';
import type { ChunkWalk } from './scrub-chunks';
import { bareTokenLane } from './scrub-bare-tokens';
import { escapeRegExp, longestFirst, type ScrubRule } from './scrub-rule';

/**
 * The static rules, their modules (scrub-patterns.ts and the rule files it gathers) loaded on first
 * use: a lane's first match or another placeholder.
 * Loading them builds most of their sources (about 10 ms in a fresh process), which would otherwise
 * be on the start-up path of every process that constructs a Scrubber. A literal path, so that
 * esbuild bundles it.
 */
function staticRules(placeholder: string): ScrubRule[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  return (require('./scrub-patterns') as typeof import('./scrub-patterns')).staticRules(placeholder);
}

/** Shorter registered values are ignored: they would hit ordinary words and numbers. */
export const MIN_REGISTERED_LENGTH = 6;

const DEFAULT_PLACEHOLDER = '[REDACTED]';

interface StaticPattern {
  readonly lanes: readonly Combined[];
  /** Whether some static rule matches inside the placeholder itself. */
  hitsPlaceholder: boolean;
  /** The compiled patterns, and per string width (narrow, wide) whether their native code was made. */
  readonly regexLanes: readonly RegexCombined[];
  readonly warm: [boolean, boolean];
}

/**
 * V8 runs a new pattern in its bytecode interpreter first and compiles it to native code on its next
 * run — unless the subject is long (about 1,000 characters or more), when it compiles native code
 * at once. For this pattern the bytecode compile costs several times the native one (measured in
 * fresh processes: ~200 ms for bytecode then native, ~40 ms for native alone, on a loaded machine),
 * and a tool call scrubs two or three short texts, so before a short text the pattern runs once on
 * this long blank string.
 */
const NATIVE_AT_ONCE = ' '.repeat(1024);

/**
 * V8 holds a string with a character beyond Latin-1 at two bytes a character ("wide") and compiles
 * a pattern's native code once per width, each as dear as the other (~6 ms here). A narrow text can
 * be held wide (the same characters, copied), a wide one cannot be made narrow; so the pattern is
 * compiled wide first, and while its narrow code is not made a text shorter than WIDEN_MAX is
 * scanned as a wide copy: a process that meets both widths early (a tool call whose file has one
 * `—` and whose log line has none) compiles once. The narrow code is made NARROW_LATER_MS after the
 * first scrub, off the path of whatever called it; from then on nothing is copied.
 */
const WIDE = 1;
const NARROW = 0;
const WIDEN_MAX = 512 * 1024;
const NARROW_LATER_MS = 2000;

/** The same characters held wide (a piece cut from a wide string stays wide). */
function widened(s: string): string {
  return `\u2028${s}`.slice(1);
}

/** Runs each pattern once on a long blank of the given width, so V8 compiles its native code now. */
function warm(p: StaticPattern, width: number): void {
  if (p.warm[width]) return;
  p.warm[width] = true;
  const blank = width === WIDE ? widened(NATIVE_AT_ONCE) : NATIVE_AT_ONCE;
  for (const { re } of p.regexLanes) {
    re.lastIndex = 0;
    re.test(blank);
    re.lastIndex = 0;
  }
}

/** The static rules' pattern per placeholder, built on first use. */
const staticPatterns = new Map<string, StaticPattern>();

/** The pattern, built and compiled wide on the first scrub. */
function staticPattern(placeholder: string): StaticPattern {
  let p = staticPatterns.get(placeholder);
  if (!p) {
    // For the default placeholder the lanes' sources were made beforehand: building them from the
    // rules costs about as much as compiling them, on the path of the first tool call.
    const fromSources = placeholder === LANE_SOURCES_PLACEHOLDER;
    const regexLanes = fromSources ? lanesFromSources(LANE_SOURCES, () => staticRules(placeholder), LANE_SOURCES_REACH) : combineLanes(staticRules(placeholder));
    // Last: where a rule of the patterns matches at the same place, the rule wins.
    const bare = bareTokenLane();
    const built: StaticPattern = { lanes: [...regexLanes, bare], hitsPlaceholder: false, regexLanes, warm: [false, false] };
    warm(built, WIDE);
    if (placeholder !== '') {
      // Tested wide, so that the test does not compile the narrow code.
      const subject = widened(placeholder);
      for (const { re } of regexLanes) {
        re.lastIndex = 0;
        built.hitsPlaceholder ||= re.test(subject);
        re.lastIndex = 0;
      }
      built.hitsPlaceholder ||= bare.re.exec(placeholder) !== null;
    }
    staticPatterns.set(placeholder, built);
    setTimeout(() => warm(built, NARROW), NARROW_LATER_MS).unref();
    p = built;
  }
  return p;
}

/**
 * Has the static rules' pattern for `placeholder` built and compiled at the next turn of the event
 * loop rather than on the first scrub. That compile is nearly all of a first scrub's cost (V8's
 * native code for the main lane: ~5 ms, ~8 ms in a fresh process), and no other way of starting
 * is cheaper: measured, V8's bytecode for a text under 1,000 characters costs more (13 ms, then
 * the native compile on the next run) and compiling the lane's anchor groups apart costs the same.
 * A host that creates its scrubber before the first tool result calls this, so that the compile
 * runs while the thread waits (a command running, a file being read) instead of on the result's
 * path. Nothing is scheduled once the pattern is built, and the process is not kept alive for it.
 */
export function prepareScrubber(placeholder = DEFAULT_PLACEHOLDER): void {
  if (staticPatterns.has(placeholder)) return;
  setImmediate(() => staticPattern(placeholder)).unref();
}

/** Whether the static rules' pattern for `placeholder` is built (by a scrub or prepareScrubber). */
export function scrubberPrepared(placeholder = DEFAULT_PLACEHOLDER): boolean {
  return staticPatterns.has(placeholder);
}

/** The alternatives of the registered values' pattern: `keep` (when asked for) and `reg`. */
export function valuesRules(placeholder: string, registered: readonly string[], keep: boolean): ScrubRule[] {
  const rules: ScrubRule[] = [];
  if (keep) rules.push({ name: 'keep', source: escapeRegExp(placeholder), render: (_g, _p, m) => m });
  if (registered.length) {
    rules.push({ name: 'reg', source: longestFirst(registered).map(escapeRegExp).join('|'), render: (_g, p) => p });
  }
  return rules;
}

export class Scrubber {
  private readonly placeholder: string;
  private readonly values = new Set<string>();
  /** The keep/reg pattern of the current values (undefined: none needed); null until the next scrub builds it. */
  private valuesCombined: Combined | undefined | null = null;
  /** The lanes patterns() answered last, and the static lanes they were made with (made again when either changes). */
  private walked: { readonly lanes: readonly Combined[]; readonly all: readonly Combined[] } | undefined;

  constructor(opts?: { placeholder?: string }) {
    this.placeholder = opts?.placeholder ?? DEFAULT_PLACEHOLDER;
  }

  get registeredCount(): number {
    return this.values.size;
  }

  /**
   * Redacts every known secret shape and every registered value, in one pass over `text`. A long
   * text (SPLIT_MIN characters or more) is cut into chunks at line breaks, scrubbed by this thread
   * and a worker thread as each comes free (scrub-split.ts): the result is the same string.
   */
  scrub(text: string): string {
    if (!text) return text;
    const patterns = Scrubber.patterns(this, text);
    if (text.length >= SPLIT_MIN) {
      const split = scrubSplit(patterns, text, this.placeholder, [...this.values]);
      if (split !== undefined) return split;
    }
    if (text.length < WIDEN_MAX && !staticPattern(this.placeholder).warm[NARROW]) {
      const wide = widened(text);
      const out = runCombined(patterns, wide, this.placeholder);
      return out === wide ? text : out;
    }
    return runCombined(patterns, text, this.placeholder);
  }

  /** What `scrub(text)` makes of the part of `text` from `from` on, at a cut scrub-split.ts chose (undefined: unchanged). */
  scrubFrom(text: string, from: number): RunResult {
    return runFrom(Scrubber.patterns(this, text), text, this.placeholder, from);
  }

  /**
   * A walk over chunks of `text` in rising order (scrub-chunks.ts), for the threads that share a
   * long text. Static, like patterns().
   */
  static walk(s: Scrubber, text: string): ChunkWalk {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only the worker walks chunks: not loaded on the start-up path
    const { ChunkWalk: Walk } = require('./scrub-chunks') as typeof import('./scrub-chunks');
    return new Walk(Scrubber.patterns(s, text), text, s.placeholder);
  }

  /**
   * The lanes `s` walks: the registered values' pattern (when needed), then the static rules'.
   * Static, so that the prototype offers scrubbing and registering only.
   */
  private static patterns(s: Scrubber, _text?: string): readonly Combined[] {
    const { lanes, hitsPlaceholder } = staticPattern(s.placeholder);
    if (s.valuesCombined === null) {
      // The keep alternative only when something would match inside the placeholder (a registered
      // value such as `REDACTED`): an extra alternative costs every scan.
      const values = [...s.values];
      const keep = s.placeholder !== '' && (hitsPlaceholder || values.some((v) => s.placeholder.includes(v)));
      const rules = valuesRules(s.placeholder, values, keep);
      s.valuesCombined = rules.length ? combine(rules) : undefined;
      s.walked = undefined;
    }
    if (!s.valuesCombined) return lanes;
    // Kept rather than spread anew on every scrub: with a key registered, that was an array per call.
    if (s.walked?.lanes !== lanes) s.walked = { lanes, all: [s.valuesCombined, ...lanes] };
    return s.walked.all;
  }

  /** An exact secret value Pincer holds (an API key, an injected credential). */
  register(value: string): void {
    if (typeof value !== 'string' || value.length < MIN_REGISTERED_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.valuesCombined = null;
  }

  unregister(value: string): void {
    if (this.values.delete(value)) this.valuesCombined = null;
  }
}
