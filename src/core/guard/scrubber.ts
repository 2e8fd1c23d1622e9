// The secret scrubber: what a tool returns, what is logged and what the UI shows goes through
// `scrub` first. It only transforms strings; it never writes anything back to a file (a scrubbed
// read written back would put `[REDACTED]` into the user's code).
//
// One combined RegExp, one pass: every rule is an alternative `(?<name>…)` of a single pattern
// (laid out for speed by scrub-combine.ts), and one replacer asks which group matched. Running
// each rule as its own pass is ~6x slower (bench/scrub-throughput.mjs measures both). The
// alternatives, in the order tried at one text position:
//   keep  the placeholder itself, returned unchanged; only present when some other alternative
//         would match inside the placeholder (a registered value such as `REDACTED`), so that
//         scrubbing stays idempotent
//   reg   registered exact values, escaped, longest first
//   …     the static rules of scrub-patterns.ts and scrub-keywords.ts
import { staticRules } from './scrub-patterns';
import { combine, runCombined, type Combined } from './scrub-combine';
import { escapeRegExp, longestFirst, type ScrubRule } from './scrub-rule';

/** Shorter registered values are ignored: they would hit ordinary words and numbers. */
export const MIN_REGISTERED_LENGTH = 6;

const DEFAULT_PLACEHOLDER = '[REDACTED]';

/** Whether some static rule matches inside the placeholder itself (computed once per placeholder). */
const staticHitsPlaceholder = new Map<string, boolean>();

function compile(placeholder: string, registered: readonly string[]): Combined {
  const rules: ScrubRule[] = [];
  if (registered.length) {
    rules.push({ name: 'reg', source: longestFirst(registered).map(escapeRegExp).join('|'), render: (_g, p) => p });
  }
  rules.push(...staticRules(placeholder));
  // The keep alternative only when something would match inside the placeholder (a registered
  // value such as `REDACTED`): an extra alternative at its first character slows every scan.
  let hits = staticHitsPlaceholder.get(placeholder);
  if (hits === undefined) {
    hits = placeholder !== '' && combine(staticRules(placeholder)).re.test(placeholder);
    staticHitsPlaceholder.set(placeholder, hits);
  }
  if (placeholder && (hits || registered.some((v) => placeholder.includes(v)))) {
    rules.unshift({ name: 'keep', source: escapeRegExp(placeholder), render: (_g, _p, m) => m });
  }
  return combine(rules);
}

export class Scrubber {
  private readonly placeholder: string;
  private readonly values = new Set<string>();
  private compiled: Combined;

  constructor(opts?: { placeholder?: string }) {
    this.placeholder = opts?.placeholder ?? DEFAULT_PLACEHOLDER;
    this.compiled = compile(this.placeholder, []);
  }

  get registeredCount(): number {
    return this.values.size;
  }

  /** Redacts every known secret shape and every registered value, in one pass over `text`. */
  scrub(text: string): string {
    return text ? runCombined(this.compiled, text, this.placeholder) : text;
  }

  /** An exact secret value Pincer holds (an API key, an injected credential). */
  register(value: string): void {
    if (typeof value !== 'string' || value.length < MIN_REGISTERED_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.rebuild();
  }

  unregister(value: string): void {
    if (this.values.delete(value)) this.rebuild();
  }

  private rebuild(): void {
    this.compiled = compile(this.placeholder, [...this.values]);
  }
}
