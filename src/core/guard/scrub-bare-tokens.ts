// Tokens with no prefix and no key name, recognised by length and alphabet alone: Azure DevOps
// personal access tokens. The legacy kind is 52 characters of lower-case base32 (`a-z`, `2-7`); the
// kind issued since 2024 is 84 alphanumeric characters with the fixed signature `AZDO` at offset 76
// (Azure DevOps documentation and blog on the PAT format; gitleaks and trufflehog describe the
// legacy shape). Nothing in front of them says what they are, so they turn up bare in logs, prose,
// URLs and under any name.
//
// A regex cannot find them cheaply: every lower-case letter could start one, and V8 would try a
// 52-character run at each (about five times the cost of the whole combined scan). This lane is a
// plain scan instead: a token of at least MIN_RUN characters covers one of every MIN_RUN positions,
// so only those positions are looked at; where one falls on a letter or digit, the run around it is
// measured once (never back past where the scan was asked to start) and the scan jumps past it.
// Each character is read a bounded number of times (linear), and ordinary text costs one to three
// reads in 52 characters.
import { entropy } from './scrub-value';
import type { Combined, Matcher } from './scrub-combine';

/** The shortest token this lane finds (a legacy PAT); also the stride of the scan. */
const MIN_RUN = 52;
const HALF = MIN_RUN / 2;
/** The new-format PAT: its length and where its signature stands. */
const NEW_LENGTH = 84;
const NEW_SIGNATURE = 'AZDO';
const NEW_SIGNATURE_AT = 76;

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * A legacy PAT rather than a digest or a word: lower-case base32 only; at least two digits; a letter
 * beyond `f` (not hex); one of `e`, `o`, `t`, `u` (Nix writes SHA-256 digests as 52 characters of a
 * base32 alphabet without those four letters, and without them a random PAT is one in a thousand);
 * and spread out like random text.
 */
export function isLegacyAzurePat(run: string): boolean {
  if (run.length !== MIN_RUN || !/^[a-z2-7]+$/.test(run)) return false;
  const digits = run.replace(/[^2-7]/g, '').length;
  return digits >= 2 && digits <= 26 && /[g-z]/.test(run) && /[eotu]/.test(run) && entropy(run) >= 4;
}

/** A new-format PAT: 84 letters and digits, `AZDO` at offset 76, random before it. */
export function isNewAzurePat(run: string): boolean {
  return run.length === NEW_LENGTH && run.startsWith(NEW_SIGNATURE, NEW_SIGNATURE_AT) && /^[A-Za-z0-9]+$/.test(run) &&
    entropy(run.slice(0, NEW_SIGNATURE_AT)) >= 4.5;
}

/** Finds the next bare token at or after `lastIndex`, with the exec interface runCombined walks. */
export class BareTokenScanner implements Matcher {
  lastIndex = 0;

  exec(text: string): RegExpExecArray | null {
    const from = this.lastIndex;
    // The first sampled position a run starting at `from` or later can cover.
    let i = from + MIN_RUN - 1;
    while (i < text.length) {
      // A run of MIN_RUN or more through i reaches HALF characters to one side of it or the other, so
      // a word shorter than that around i is passed over after two more reads.
      if (!isAlnum(text.charCodeAt(i)) || (!isAlnum(text.charCodeAt(i - HALF)) && !isAlnum(text.charCodeAt(i + HALF)))) {
        i += MIN_RUN;
        continue;
      }
      // Back at most to the character before `from`: reaching it means the run began earlier.
      const limit = Math.max(0, from - 1);
      let start = i;
      while (start > limit && isAlnum(text.charCodeAt(start - 1))) start -= 1;
      let end = i + 1;
      while (end < text.length && isAlnum(text.charCodeAt(end))) end += 1;
      if (start >= from && (end - start === MIN_RUN || end - start === NEW_LENGTH)) {
        const run = text.slice(start, end);
        if (isLegacyAzurePat(run) || isNewAzurePat(run)) {
          this.lastIndex = end;
          const m = [run, run] as unknown as RegExpExecArray;
          m.index = start;
          m.input = text;
          return m;
        }
      }
      // The next sampled position past this run: a later token starts after it.
      i = Math.max(i + MIN_RUN, end + MIN_RUN - 1);
    }
    this.lastIndex = 0;
    return null;
  }
}

/** The bare-token lane: one rule, the whole token redacted. */
export function bareTokenLane(): Combined {
  return { re: new BareTokenScanner(), groups: [1], inner: [[]], renders: [(_g, placeholder) => placeholder], accepts: [undefined] };
}
