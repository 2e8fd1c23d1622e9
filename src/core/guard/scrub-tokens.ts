// Vendor tokens recognised by their own shape, built from the data tables in scrub-tokens-*.ts
// (one row per documented token format: a literal prefix and the body after it).
//
// Layout for one fast pass (see scrub-combine.ts). V8 can skip ahead over text only while the set
// of characters a match can start with stays small and rare, so every format is anchored at a
// character of its prefix chosen for that:
//   - a prefix ending in punctuation (`ghp_`, `glpat-`, `hvs.`, `…/services/`) is anchored at that
//     last character, and ONE lookbehind per anchor (all its prefixes as a suffix trie, so V8
//     dispatches on the preceding character) turns away the `_` of snake_case, the `-` of kebab-case
//     and the `.` of member access before any format is tried;
//   - any other prefix (`AKIA`, `AIza`, `oy2`) at its rarest character (PIVOTS: upper-case letters
//     and letters rare in code), with the literal rest of the prefix after it, which V8 rejects
//     with one preloaded comparison, and a lookbehind for the part before it.
// Formats sharing an anchor and a body become one rule. The prefix stays visible
// (`ghp_[REDACTED]`): it names the kind of key, not the key.
//
// Linear time: every body is a single character-class run, bounded when anything follows it.
import { type TokenFormat } from './scrub-token-format';
import { AI_TOKENS } from './scrub-tokens-ai';
import { CLOUD_TOKENS } from './scrub-tokens-cloud';
import { DEV_TOKENS } from './scrub-tokens-dev';
import { SAAS_TOKENS } from './scrub-tokens-saas';
import { escapeRegExp, suffixTrie, type ScrubRule } from './scrub-rule';
import { tokenBodyOk } from './scrub-value';

export const TOKEN_FORMATS: readonly TokenFormat[] = [...AI_TOKENS, ...DEV_TOKENS, ...CLOUD_TOKENS, ...SAAS_TOKENS];

/** Not preceded by a token character: `sk-` inside `task-`, `hf_` inside `my_hf_` are not keys. */
export const TOKEN_CHAR = '[A-Za-z0-9_+/-]';

/**
 * Letters a prefix without a `-`, `_` or `.` end may be anchored at, rarest in code and logs first.
 * A prefix with none of them (`LTAI`, `dapi`, `1//0`) is anchored at the first of FALLBACK_PIVOTS it
 * has. These rules share one pattern with the config-language rules (laneOf in scrub-lanes.ts),
 * which must stay under 15 anchor characters, so the order makes them share few: `A` for `ATATT3`,
 * `LTAI` and `EAA`, `G` for `cmVmdGtu`, `d` for `dapi` and `dose` (one `d` fewer per scan than a
 * `p` besides it; a common letter in either case).
 */
const PIVOTS = 'KZWXBSzxky';
const FALLBACK_PIVOTS = 'QGJ~/AVLTEjdpcI';
const PUNCTUATION_ENDS = '-_.';

const accept = (value: string): boolean => tokenBodyOk(value);

/** Where in the prefix the match starts: its last character when that is `-`, `_` or `.`, else its rarest character; -1 for none. */
function pivotOf(prefix: string): number {
  if (PUNCTUATION_ENDS.includes(prefix[prefix.length - 1])) return prefix.length - 1;
  for (const c of PIVOTS + FALLBACK_PIVOTS) {
    const i = prefix.indexOf(c);
    if (i >= 0) return i;
  }
  return -1;
}

const isSeparator = (prefix: string): boolean => PUNCTUATION_ENDS.includes(prefix[prefix.length - 1]);
const anchorOf = (prefix: string): string => escapeRegExp(prefix[pivotOf(prefix)]);

/** The formats that are bare shape rules (every row with a usable anchor). */
export const SHAPED_FORMATS: readonly TokenFormat[] = TOKEN_FORMATS.filter((f) => pivotOf(f.prefix) >= 0);

/** Groups formats by a key, keeping the order in which keys first appear. */
function groupBy<T>(xs: readonly T[], key: (x: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const x of xs) groups.set(key(x), [...(groups.get(key(x)) ?? []), x]);
  return [...groups.values()];
}

/** The token rules, names `tk0`, `tk1`, …, in table order within each anchor. */
export function tokenRules(formats: readonly TokenFormat[] = SHAPED_FORMATS): ScrubRule[] {
  const rules: ScrubRule[] = [];
  for (const byAnchor of groupBy(formats, (f) => anchorOf(f.prefix))) {
    const anchor = anchorOf(byAnchor[0].prefix);
    const separator = isSeparator(byAnchor[0].prefix);
    // One guard for the whole anchor: some prefix of this anchor ends here, at a token boundary.
    const guard = separator
      ? `(?<=(?<!${TOKEN_CHAR})${suffixTrie(byAnchor.map((f) => f.prefix.slice(0, -1)))}${anchor})`
      : undefined;
    for (const group of groupBy(byAnchor, (f) => `${f.anywhere ? 1 : 0}${f.body}`)) {
      const name = `tk${rules.length}`;
      const prefixes = group.map((f) => f.prefix);
      const behind = `(?<=${group[0].anywhere ? '' : `(?<!${TOKEN_CHAR})`}${suffixTrie(prefixes)})`;
      const source = separator
        ? (group.length === byAnchor.length ? group[0].body : `${behind}${group[0].body}`)
        : `(?<${name}L>${suffixTrie(prefixes.map((p) => p.slice(pivotOf(p) + 1)))})${behind}${group[0].body}`;
      rules.push({ name, anchor, guard, source, accept });
    }
  }
  return rules;
}
