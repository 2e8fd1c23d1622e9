// What an argv holds that the rule gates (`when` in command-dispatch.ts) look for, worked out in one
// pass over its words. Every gate is a test of the words, redirections or assignments; most argvs
// have none of what a given gate needs, yet each gate call cost its own function, closures and
// string scans: about a hundred gate calls a decision, a quarter of the decision's time once the
// corpora had made their sites megamorphic. Each gated rule now also declares `needs`, the traits
// without which its gate cannot accept an argv, and the judge calls the gate only when the argv has
// one of them. The gate still decides: the traits only skip calls whose answer would be false.
import type { SegmentView } from './command-view';
import { codeAt, has } from './command-strings';
import { attackOption } from './command-rules-attacks';
import { readsFile, truncates } from './command-redirects';

/** Each trait takes the next bit; T_ANY (below all of them) is made from the count, so a new trait is always inside it. */
let bits = 0;
const nextBit = (): number => {
  // 30 at most: T_ANY is (1 << bits) - 1, and 1 << 31 is negative.
  if (bits >= 30) throw new Error('command-traits: more traits than bits in a small integer');
  return 1 << bits++;
};

/** The argv has variable assignments (`NODE_ENV=test cmd`, inherited by the commands it wraps). */
export const T_ASSIGN = nextBit();
/** A redirection whose target starts with `/dev/`. */
export const T_REDIRECT_DEV = nextBit();
/** An output redirection that may empty a file (`>`, `>|`, `&>`). */
export const T_REDIRECT_OUT = nextBit();
/** An input redirection (`<`, `<>`). */
export const T_REDIRECT_IN = nextBit();
/** The argv was reached through a wrapper (Segment.via is not empty). */
export const T_VIA = nextBit();
/** The program is given with a `/` (a path). */
export const T_EXE_SLASH = nextBit();
/** An argument holds a `/`. */
export const T_SLASH = nextBit();
/** An argument holds `/dev/`. */
export const T_DEV = nextBit();
/** An argument holds `://`. */
export const T_URL = nextBit();
/** An argument starts with `~`. */
export const T_TILDE0 = nextBit();
/** An argument starts with `$`. */
export const T_DOLLAR0 = nextBit();
/** An argument starts with `-`. */
export const T_DASH0 = nextBit();
/** An option the attack gates look at (attackOption: `--image=`, `-a`, `--algo…`, `-o`, `--url` …). */
export const T_ATTACK_OPTION = nextBit();
/** An argument starts with `--`. */
export const T_DDASH0 = nextBit();
/** An argument that does not start with `-` (an operand). */
export const T_OPERAND = nextBit();
/** An argument holds one of `~ $ % / \ :`. */
export const T_PLACE_CHAR = nextBit();
/** An argument holds `agent`. */
export const T_AGENT = nextBit();
/** An argument holds `display`. */
export const T_DISPLAY = nextBit();
/** An argument holds `[`. */
export const T_BRACKET = nextBit();
/** An argument holds both a `.` and a digit. */
export const T_DOT_DIGIT = nextBit();
/** A word as written holds `$` (Word.raw). */
export const T_RAW_DOLLAR = nextBit();
/** The user's home folder (os.homedir()) has no `/`: set by the caller, which knows the home. */
export const T_ODD_HOME = nextBit();
/** An argument starts with `/`. */
export const T_SLASH0 = nextBit();
/** An argument holds a character past ASCII (where BIDI controls and Unicode spaces are). */
export const T_NON_ASCII = nextBit();
/** An argument holds an ASCII blank (space, tab, newline, vertical tab, form feed, carriage return). */
export const T_BLANK = nextBit();
/** Every trait: the needs of a gate that declares none (it is always called). Declared after the last trait. */
export const T_ANY = (1 << bits) - 1;

/** One pass over the argv's words, redirections and assignments. */
export function traitsOf(v: SegmentView): number {
  const seg = v.seg;
  let t = seg.assignments.length > 0 ? T_ASSIGN : 0;
  if (seg.via.length > 0) t |= T_VIA;
  if (has(v.exe, '/')) t |= T_EXE_SLASH;
  const redirects = seg.redirects;
  for (let i = 0; i < redirects.length; i++) {
    const op = redirects[i].op;
    if (truncates(op)) t |= T_REDIRECT_OUT;
    else if (readsFile(op)) t |= T_REDIRECT_IN;
    if (codeAt(redirects[i].target.text, 0) === 0x2f && has(redirects[i].target.text, '/dev/')) t |= T_REDIRECT_DEV;
  }
  const args = v.args;
  for (let i = 0; i < args.length; i++) t |= argTraits(args[i]);
  const words = v.words;
  for (let i = 0; i < words.length; i++) if (has(words[i].raw, '$')) { t |= T_RAW_DOLLAR; break; }
  return t;
}

/** The traits of one argument: its first character, then the characters the gates look for. */
function argTraits(a: string): number {
  const c0 = codeAt(a, 0);
  let t = c0 === 0x2d ? (codeAt(a, 1) === 0x2d ? T_DASH0 | T_DDASH0 : T_DASH0) : T_OPERAND;
  if (c0 === 0x2d && attackOption(a)) t |= T_ATTACK_OPTION;
  if (c0 === 0x7e) t |= T_TILDE0;
  else if (c0 === 0x24) t |= T_DOLLAR0;
  else if (c0 === 0x2f) t |= T_SLASH0;
  // One table look-up a character (none of the characters looked for is past ASCII).
  let seen = 0;
  for (let i = 0; i < a.length; i++) {
    const c = CHAR_CODE_AT.call(a, i);
    seen |= c < 128 ? CHAR_CLASS[c] : C_HIGH;
  }
  if (seen & C_HIGH) t |= T_NON_ASCII;
  if (seen & C_BLANK) t |= T_BLANK;
  if (seen & C_SLASH) {
    t |= T_SLASH | T_PLACE_CHAR;
    if (has(a, '/dev/')) t |= T_DEV;
    if (has(a, '://')) t |= T_URL;
  }
  if (seen & C_PLACE) t |= T_PLACE_CHAR;
  if (seen & C_BRACKET) t |= T_BRACKET;
  if ((seen & (C_DOT | C_DIGIT)) === (C_DOT | C_DIGIT)) t |= T_DOT_DIGIT;
  if (seen & C_G && has(a, 'agent')) t |= T_AGENT;
  if (seen & C_Y && has(a, 'display')) t |= T_DISPLAY;
  return t;
}

/** String.prototype.charCodeAt called directly (see command-strings.ts): the loop above reads every character of every argument, and a call through codeAt for each measured slower. */
const CHAR_CODE_AT = String.prototype.charCodeAt;
const C_SLASH = 1;
const C_PLACE = 2;
const C_BRACKET = 4;
const C_DOT = 8;
const C_DIGIT = 16;
const C_G = 32;
const C_Y = 64;
const C_HIGH = 128;
const C_BLANK = 256;
/** ASCII character → the classes argTraits looks for. */
const CHAR_CLASS = new Uint16Array(128);
CHAR_CLASS[0x2f] = C_SLASH;
for (const c of '~$%\\:') CHAR_CLASS[c.charCodeAt(0)] = C_PLACE;
CHAR_CLASS[0x5b] = C_BRACKET;
CHAR_CLASS[0x2e] = C_DOT;
for (let c = 0x30; c <= 0x39; c++) CHAR_CLASS[c] = C_DIGIT;
CHAR_CLASS[0x67] = C_G;
CHAR_CLASS[0x79] = C_Y;
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) CHAR_CLASS[c] = C_BLANK;
