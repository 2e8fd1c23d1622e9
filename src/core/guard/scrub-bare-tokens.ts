// Tokens with no known prefix and no key name, found where they stand (in logs, prose, URLs, JSON
// arrays, call arguments), by their own outline:
//   - Azure DevOps personal access tokens: the legacy kind is 52 characters of lower-case base32
//     (`a-z`, `2-7`); the kind issued since 2024 is 84 alphanumeric characters with the fixed
//     signature `AZDO` at offset 76 (Azure DevOps documentation and blog on the PAT format);
//   - Mailchimp API keys: 32 hex digits, `-us` and the data centre's number (Mailchimp docs);
//   - any other random token standing alone (scrub-bare-random.ts decides what is random).
//
// A regex cannot find them cheaply: every letter could start one, and V8 would try a long run at
// each (about five times the cost of the whole combined scan). This lane is a plain scan instead,
// which skips the way Boyer-Moore does: a run of at least MIN_RUN token characters that starts at a
// place covers the place MIN_RUN - 1 characters on, so the scan reads back from there, and the first
// character that is not a token's rules out every start up to it. Each character is read at most
// twice (linear), and ordinary text costs about half a word's length in MIN_RUN.
//
// The lane is a fallback (runCombined): where a rule of the patterns matches inside a run it found
// (a vendor prefix, a JWT), the rule wins, so the prefix that names the kind of key stays visible.
import { entropy } from './scrub-value';
import { isRandomToken, MIN_RANDOM_LENGTH } from './scrub-bare-random';
import type { Combined, Matcher } from './scrub-combine';

/** The shortest token this lane finds (a random one); also the stride of the scan. */
const MIN_RUN = MIN_RANDOM_LENGTH;
/** The Azure PATs: the legacy length, the new one and where its signature stands. */
const LEGACY_LENGTH = 52;
const NEW_LENGTH = 84;
const NEW_SIGNATURE = 'AZDO';
const NEW_SIGNATURE_AT = 76;
const MAILCHIMP_HEX = 32;

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const ALNUM = 1;
const SEPARATOR = 2;
/** Per ASCII code: ALNUM, SEPARATOR (`-`, `_`, `.`, which join the parts of many tokens), or 0. */
const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) KIND[c] = isAlnum(c) ? ALNUM : c === 45 || c === 95 || c === 46 ? SEPARATOR : 0;

/**
 * A legacy PAT rather than a digest or a word: lower-case base32 only; at least two digits; a letter
 * beyond `f` (not hex); one of `e`, `o`, `t`, `u` (Nix writes SHA-256 digests as 52 characters of a
 * base32 alphabet without those four letters, and without them a random PAT is one in a thousand);
 * and spread out like random text.
 */
export function isLegacyAzurePat(run: string): boolean {
  if (run.length !== LEGACY_LENGTH || !/^[a-z2-7]+$/.test(run)) return false;
  const digits = run.replace(/[^2-7]/g, '').length;
  return digits >= 2 && digits <= 26 && /[g-z]/.test(run) && /[eotu]/.test(run) && entropy(run) >= 4;
}

/** A new-format PAT: 84 letters and digits, `AZDO` at offset 76, random before it. */
export function isNewAzurePat(run: string): boolean {
  return run.length === NEW_LENGTH && run.startsWith(NEW_SIGNATURE, NEW_SIGNATURE_AT) && /^[A-Za-z0-9]+$/.test(run) &&
    entropy(run.slice(0, NEW_SIGNATURE_AT)) >= 4.5;
}

/** The length of a Mailchimp key starting at `start` (32 hex, `-us`, one or two digits), or 0. */
export function mailchimpKeyLength(text: string, start: number, alnumEnd: number): number {
  if (alnumEnd - start !== MAILCHIMP_HEX || !text.startsWith('-us', alnumEnd)) return 0;
  const m = /^-us[0-9]{1,2}(?![A-Za-z0-9])/.exec(text.slice(alnumEnd, alnumEnd + 6));
  const hex = text.slice(start, alnumEnd);
  return m && /^[a-f0-9]+$/.test(hex) && /[a-f]/.test(hex) && /[0-9]/.test(hex) ? MAILCHIMP_HEX + m[0].length : 0;
}

/** Whether `-us` stands in text[start, end) (read in place: most runs are refused without a copy). */
function hasMailchimpMark(text: string, start: number, end: number): boolean {
  for (let i = start; i + 3 <= end; i++) {
    if (text.charCodeAt(i) === 45 && text.charCodeAt(i + 1) === 117 && text.charCodeAt(i + 2) === 115) return true;
  }
  return false;
}

/** An Azure PAT's length and outline, for the alphanumeric part [p, q). */
function isAzurePat(text: string, p: number, q: number): boolean {
  if (q - p !== LEGACY_LENGTH && q - p !== NEW_LENGTH) return false;
  const part = text.slice(p, q);
  return isLegacyAzurePat(part) || isNewAzurePat(part);
}

/**
 * Start and end of the first token in the run of token characters [start, end), or undefined;
 * `separated`: the run has a `-`, `_` or `.` (else it is one alphanumeric part).
 */
function tokenInRun(text: string, start: number, end: number, from: number, separated: boolean): [number, number] | undefined {
  // The whole run, when it began where the scan may look (not inside an earlier run).
  if (start >= from) {
    const random = isRandomToken(text, start, end);
    if (random) return [start, random];
    if (!separated) return isAzurePat(text, start, end) ? [start, end] : undefined;
  }
  // Else an alphanumeric part of it that is an Azure PAT (a part longer than the run's other
  // characters, so the run is longer) or a Mailchimp key (`-us` in the run).
  if (end - start <= LEGACY_LENGTH && !hasMailchimpMark(text, start, end)) return undefined;
  for (let p = start; p < end;) {
    if (!isAlnum(text.charCodeAt(p))) {
      p += 1;
      continue;
    }
    let q = p + 1;
    while (q < end && isAlnum(text.charCodeAt(q))) q += 1;
    if (p >= from) {
      if (isAzurePat(text, p, q)) return [p, q];
      const mailchimp = mailchimpKeyLength(text, p, q);
      if (mailchimp) return [p, p + mailchimp];
    }
    p = q;
  }
  return undefined;
}

/** Finds the next bare token at or after `lastIndex`, with the exec interface runCombined walks. */
export class BareTokenScanner implements Matcher {
  lastIndex = 0;

  exec(text: string): RegExpExecArray | null {
    const from = this.lastIndex;
    const n = text.length;
    // Where a run may start: a place just after a character that is not a token's, or the start of
    // the text, or the character before `from` (a run found there began earlier, as far as
    // tokenInRun is concerned, which then looks only at its parts from `from` on).
    let start = Math.max(0, from - 1);
    while (start + MIN_RUN <= n) {
      // Back from the last character a run of MIN_RUN from `start` holds: the first character that
      // is not a token's at q means no such run starts at or before q, so the next place is q + 1.
      // Reaching `start` means a run of MIN_RUN or more starts there. A character read here again
      // later is only read again on the way to a run found (then forward from its MIN_RUN-th one).
      // (Table reads inlined: this loop runs in V8's interpreter on the first scrub of a process.)
      let kinds = 0;
      let q = start + MIN_RUN - 1;
      for (; q >= start; q--) {
        const c = text.charCodeAt(q);
        if (!(c < 128 && KIND[c] !== 0)) break;
        kinds |= KIND[c];
      }
      if (q >= start) {
        start = q + 1;
        continue;
      }
      let end = start + MIN_RUN;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (!(c < 128 && KIND[c] !== 0)) break;
        kinds |= KIND[c];
        end += 1;
      }
      const found = tokenInRun(text, start, end, from, (kinds & SEPARATOR) !== 0);
      if (found) {
        const [s, e] = found;
        this.lastIndex = e;
        const token = text.slice(s, e);
        const m = [token, token] as unknown as RegExpExecArray;
        m.index = s;
        m.input = text;
        return m;
      }
      // text[end] is not a token's (or the text ends there): a later run starts after it.
      start = end + 1;
    }
    this.lastIndex = 0;
    return null;
  }
}

/** The bare-token lane: one rule, the whole token redacted; a fallback to the rules of the patterns. */
export function bareTokenLane(): Combined {
  return {
    re: new BareTokenScanner(), groups: [1], inner: [[]], renders: [(_g, placeholder) => placeholder], accepts: [undefined], fallback: true,
  };
}
