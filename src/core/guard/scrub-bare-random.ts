// When a run of token characters that nothing names (no key, no vendor prefix) is a secret: the
// outline the generic high-entropy detectors of secret scanners look for, tightened so that ordinary
// tool output stays as it is.
//   - Where it stands: alone, as a value stands — after the start of the text, a space, a quote, an
//     opening bracket, `,`, `;`, `>` or `|`, and before the end, a space, a quote, a closing bracket,
//     `,`, `;`, `<` or `|` (a full stop may end a sentence after it, `=` may pad it). Not a piece of
//     a path, a URL, a `name=value` pair or a base64 blob (those go on with `/`, `+`, `=`, `:`).
//   - What it is made of: at least MIN_RANDOM_LENGTH characters; lower-case letters, upper-case
//     letters and digits, at least two of each (hex digests, UUIDs, base32 and words fall out); no
//     leading `-`, `_` or `.` (options, private names).
//   - How it is spread: entropy of at least 4 bits per character (random base62 of this length has
//     about 4.6) and lower-case letters in short runs (about 1.7 on average in random text; names and
//     identifier paths like `getUserProfileById2` have runs of four and more).
//   - Not a word with an id after it (`task-…`, `my_hf_…`, `Build_…`): a random token under a vendor's word is
//     the vendor rules' (scrub-tokens-*.ts), which keep the prefix visible.
//   - Not a public key: a line of a base64 block (a certificate or key between its armour lines), or
//     the base64 after an OpenSSH key type (`ssh-ed25519 …`).
//   - Not a value whose label says it is an id or a digest (`x-amz-id-2: …`, `"etag": "…"`,
//     `request_id …`), as a key-named setting says it is a secret.
//   - Not what says it is something else: a digest (`sha512-…` in package locks, `md5-…`), a data
//     URI's payload (`;base64,…`), a key that is public by design (`pk_live_…`), or base64 that
//     decodes to text (`aGVsbG8gd29ybGQg…`: a key decodes to random bytes, rarely printable).
import { entropy, PUBLIC_BY_DESIGN } from './scrub-value';

export const MIN_RANDOM_LENGTH = 32;
const MAX_RANDOM_LENGTH = 1024;
const MIN_ENTROPY = 4;
const MAX_MEAN_LOWER_RUN = 3;

const BEFORE = ' \t\r\n"\'`([{,;>|';
const AFTER = ' \t\r\n"\'`)]},;<|';
// The start tests, sticky: tried where a run starts in the text, so that no run is copied out before
// it is refused (most runs are; a copy per run was most of this file's cost on the throughput text).
const DIGEST_PREFIX = /(?:sha(?:1|224|256|384|512)|md5)[-_]/iy;
const WORD_PREFIX = /(?:[a-z]{2,}|[A-Z][a-z]+|[A-Z]{2,})[-_.]/y;
const PUBLIC_PREFIX = new RegExp(PUBLIC_BY_DESIGN.source.replace(/^\^/, ''), `${PUBLIC_BY_DESIGN.flags}y`);
/** What names an OpenSSH public key's type before its base64 (`ssh-ed25519 AAAA…`, `ecdsa-sha2-nistp256 …`). */
const SSH_KEY_TYPE = /(?:^|\s)(?:ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9-]+@openssh\.com)[ \t]+$/;
/** How far back a value's label is looked for. */
const LABEL_MAX = 64;
/** Last words of a label that say the value is an id or a digest, not a secret. */
const ID_WORDS = new Set(['id', 'ids', 'uuid', 'guid', 'hash', 'digest', 'checksum', 'sum', 'etag', 'fingerprint', 'integrity',
  'commit', 'sha', 'revision', 'rev', 'version', 'tag', 'trace', 'span', 'request', 'correlation']);

/** How far back the line before a run is looked at (a base64 block's lines are 64 or 76 characters). */
const BLOCK_LINE_MAX = 128;

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Whether the characters of text[start, end) say random: every kind at least twice, and lower-case
 * letters in short runs.
 */
function randomMix(text: string, start: number, end: number): boolean {
  let lower = 0;
  let upper = 0;
  let digits = 0;
  let lowerRuns = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isLower(c)) {
      lower += 1;
      if (i === start || !isLower(text.charCodeAt(i - 1))) lowerRuns += 1;
    } else if (isUpper(c)) upper += 1;
    else if (isDigit(c)) digits += 1;
  }
  return lower >= 2 && upper >= 2 && digits >= 2 && lower / lowerRuns <= MAX_MEAN_LOWER_RUN;
}

/**
 * Whether the sticky `re` matches at `start` within text[start, end) (as it would at the start of
 * that slice: the prefixes above are letters, digits, `-`, `_` and a `.` followed by more, so a
 * match that runs past `end` ends in a full stop the token leaves out, and no shorter one exists).
 */
function startsWithAt(re: RegExp, text: string, start: number, end: number): boolean {
  re.lastIndex = start;
  return re.test(text) && re.lastIndex <= end;
}

/** Base64 (standard or URL-safe) whose bytes are nearly all printable ASCII: encoded text, not a key. */
function encodedText(token: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+$/.test(token)) return false;
  const bytes = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable += 1;
  return bytes.length > 0 && printable >= bytes.length * 0.95;
}

/**
 * Whether the run [start, end) fills its line inside a base64 block: the line before it is the
 * block's armour (`-----BEGIN …`), or a base64 line at least as long, or the next line ends the block.
 */
function inBase64Block(text: string, start: number, end: number): boolean {
  if (start === 0 || text[start - 1] !== '\n' || (end < text.length && text[end] !== '\n' && text[end] !== '\r')) return false;
  const nextLine = text.indexOf('\n', end) + 1;
  if (nextLine > 0 && text.startsWith('-----END ', nextLine)) return true;
  const prevEnd = text[start - 2] === '\r' ? start - 2 : start - 1;
  const prevStart = text.lastIndexOf('\n', prevEnd - 1) + 1;
  if (prevEnd - prevStart > BLOCK_LINE_MAX && !text.startsWith('-----BEGIN ', prevStart)) return false;
  const prev = text.slice(prevStart, prevEnd);
  return prev.startsWith('-----BEGIN ') || (prev.length >= end - start && /^[A-Za-z0-9+/=]+$/.test(prev));
}

/** Whether the label before `start` ends in an id word (`x-amz-id-2: `, `"requestId": "`, `ETag `). */
function labelledAsId(text: string, start: number): boolean {
  // Back over the quote, spaces and colon between label and value, then over the label itself.
  let end = start;
  const stop = Math.max(0, start - LABEL_MAX);
  while (end > stop && ' \t:"\''.includes(text[end - 1])) end -= 1;
  let begin = end;
  while (begin > stop && /[\w.-]/.test(text[begin - 1])) begin -= 1;
  const label = text.slice(begin, end);
  // The last word, past numbered suffixes (`x-amz-id-2`) and at a camel hump (`requestId`).
  const last = /(?:[A-Z]?[a-z]+|[A-Z]+)$/.exec(label.replace(/(?:[-_.]?[0-9]+)+$/, ''))?.[0].toLowerCase() ?? '';
  return ID_WORDS.has(last);
}

/**
 * The end of the random token that is the run of token characters [start, end) (with its base64
 * padding, without a full stop after it), or 0 when the run is not one.
 */
export function isRandomToken(text: string, start: number, end: number): number {
  if (start > 0 && (!BEFORE.includes(text[start - 1]) || text.startsWith(';base64,', start - 8))) return 0;
  let tokenEnd = end;
  while (tokenEnd > start && text[tokenEnd - 1] === '.') tokenEnd -= 1;
  let follow = tokenEnd;
  if (tokenEnd === end) {
    while (follow < text.length && follow < end + 2 && text[follow] === '=') follow += 1;
  } else {
    follow = end;
  }
  if (follow < text.length && !AFTER.includes(text[follow])) return 0;
  const length = tokenEnd - start;
  if (length < MIN_RANDOM_LENGTH || length > MAX_RANDOM_LENGTH) return 0;
  // The tests of the token's start first (each reads a few characters: the digests of package locks,
  // `sha512-…`, are many and random), then the character counts, which turn away nearly every other
  // run (hex digests, ids, names), all read in place. Every test only refuses, so their order
  // changes no answer.
  const first = text.charCodeAt(start);
  if (!(isLower(first) || isUpper(first) || isDigit(first)) || startsWithAt(WORD_PREFIX, text, start, tokenEnd) ||
      startsWithAt(DIGEST_PREFIX, text, start, tokenEnd) || startsWithAt(PUBLIC_PREFIX, text, start, tokenEnd) ||
      !randomMix(text, start, tokenEnd)) return 0;
  const token = text.slice(start, tokenEnd);
  if (entropy(token) < MIN_ENTROPY || encodedText(token) || inBase64Block(text, start, follow) ||
      SSH_KEY_TYPE.test(text.slice(Math.max(0, start - 48), start)) || labelledAsId(text, start)) return 0;
  return tokenEnd === end ? follow : tokenEnd;
}
