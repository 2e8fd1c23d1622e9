// String tests for the judge's hottest sites (the rule gates in command-dispatch.ts run on nearly
// every argv of every decision). `a.includes(x)` first looks `includes` up on `a`, and V8 keys that
// look-up on the string's inner form (flat, sliced, joined, internalized, one or two bytes a
// character). After a few hundred varied commands every such site has met all of those forms and
// turned megamorphic, and a gate made of a dozen of them cost about three times what it costs in a
// process that has judged one command. Calling the prototype's own function skips the look-up: the
// same builtin runs, with the same answer, whatever form the string has.
const INCLUDES = String.prototype.includes;
const STARTS_WITH = String.prototype.startsWith;
const ENDS_WITH = String.prototype.endsWith;
const CHAR_CODE_AT = String.prototype.charCodeAt;
const INDEX_OF = String.prototype.indexOf;
const SLICE = String.prototype.slice;
const LAST_INDEX_OF = String.prototype.lastIndexOf;
const TO_LOWER_CASE = String.prototype.toLowerCase;

/** `s.includes(part)`. */
export function has(s: string, part: string): boolean {
  return INCLUDES.call(s, part);
}

/** `s.startsWith(prefix)`. */
export function startsWith(s: string, prefix: string): boolean {
  return STARTS_WITH.call(s, prefix);
}

/** `s.endsWith(suffix)`. */
export function endsWith(s: string, suffix: string): boolean {
  return ENDS_WITH.call(s, suffix);
}

/** `s.charCodeAt(i)`: NaN past the end. */
export function codeAt(s: string, i: number): number {
  return CHAR_CODE_AT.call(s, i);
}

/** `s.indexOf(part, from)`. */
export function indexOf(s: string, part: string, from?: number): number {
  return INDEX_OF.call(s, part, from);
}

/** `s.slice(start, end)`. */
export function slice(s: string, start: number, end?: number): string {
  return SLICE.call(s, start, end);
}

/** `s.lastIndexOf(part)`. */
export function lastIndexOf(s: string, part: string): number {
  return LAST_INDEX_OF.call(s, part);
}

/** `s.toLowerCase()`. */
export function toLowerCase(s: string): string {
  return TO_LOWER_CASE.call(s);
}

/** Some string of `list` includes `part`. */
export function someHas(list: readonly string[], part: string): boolean {
  for (let i = 0; i < list.length; i++) if (INCLUDES.call(list[i], part)) return true;
  return false;
}

/** Some string of `list` starts with `prefix`. */
export function someStartsWith(list: readonly string[], prefix: string): boolean {
  for (let i = 0; i < list.length; i++) if (STARTS_WITH.call(list[i], prefix)) return true;
  return false;
}

const TO_UPPER_CASE = String.prototype.toUpperCase;
const REPLACE = String.prototype.replace as (this: string, pattern: RegExp | string, replacement: string) => string;

/** `s.toUpperCase()`. */
export function toUpperCase(s: string): string {
  return TO_UPPER_CASE.call(s);
}

/** `s.replace(pattern, replacement)`, with a replacement string (no function). */
export function replace(s: string, pattern: RegExp | string, replacement: string): string {
  return REPLACE.call(s, pattern, replacement);
}

const CHAR_AT = String.prototype.charAt;

/** `s[i]` (`s.charAt(i)`): '' past the end, where `s[i]` gives undefined. */
export function charAt(s: string, i: number): string {
  return CHAR_AT.call(s, i);
}
