// Option parsing the way getopt_long does it, so that every spelling of a flag means the same thing:
// `-Rf`, `-rfv`, `-v -rf`, `--recursive --force`, `--rec`, `-s9`, `-s 9`, `--signal=KILL`, `-o/etc/x`.
// Every long option is resolved to its full name while parsing, the way the program would: GNU tools,
// git's parse-options and npm take any beginning of a long option that only one of their options has,
// however short (`--r`, `--no`). The judge knows only some of a program's options, so a beginning that
// is one known option's alone may be ambiguous in the program (which then refuses it and runs nothing)
// or another option's exact name; and a beginning several known options share could be any of them.
// Both err the same way: a beginning stands for every known option it could be. Values are stored under
// full names only, so a rule asks for an option by its name and no shorter spelling walks round it.
import { charAt, codeAt, indexOf, slice, startsWith } from './command-strings';

export interface OptionSpec {
  /** Short option letters that take a value (`-o FILE`, `-oFILE`). */
  shortValue?: string;
  /** Short option letters whose value is optional: only the rest of the word (`-Oless`, git's `-O[<pager>]`). */
  shortOptional?: string;
  /** Long option names (without `--`) that take a value (`--output FILE`, `--output=FILE`). */
  longValue?: readonly string[];
  /**
   * Long options without a value (or with one only after `=`, as `--in-place=.bak`) that rules ask
   * about or that share a beginning with one they ask about: known, so a beginning resolves to them.
   */
  longFlag?: readonly string[];
  /** Stop at the first operand (POSIX order: `kill 1 -9` is not a flag). Default: GNU permutation. */
  posixOrder?: boolean;
  /** git's parse-options: `--no-<beginning of X>` is X turned off (`--no-force`), never X. */
  negatable?: boolean;
}

/** The long names a spec (or any of a union of specs) knows: the only names a rule may ask a parse of it about. */
type Known<S extends OptionSpec> = S extends OptionSpec
  ? (S['longValue'] extends readonly (infer A extends string)[] ? A : never) | (S['longFlag'] extends readonly (infer B extends string)[] ? B : never)
  : never;

export interface ParsedOptions<N extends string = string> {
  /** Short letters seen. */
  short: ReadonlySet<string>;
  /** Long options seen, by full name (every one a shared beginning could be); an unknown one as typed. */
  long: readonly string[];
  /** The full names in `long` that only a shared beginning gave: possibly given, not surely. */
  unsure: readonly string[];
  /** Values by `-` and the short letter (`-o`), or by the long option's full name. */
  values: ReadonlyMap<string, string[]>;
  operands: string[];
  /** Never set: carries the spec's names into the type, so asking for a name the spec lacks does not compile. */
  readonly known?: N;
}

/**
 * Shared by every result without short letters, values or shared beginnings (most: rules parse the
 * options of nearly every argv they meet); a Set and a Map made per call were a good part of a
 * decision's allocations. Read-only in the type, so no caller can fill the shared ones.
 */
const NO_LETTERS: ReadonlySet<string> = new Set();
const NO_VALUES: ReadonlyMap<string, string[]> = new Map();
const NONE: readonly string[] = [];

export function parseOptions<const S extends OptionSpec>(args: readonly string[], spec: S): ParsedOptions<Known<S>> {
  let short: Set<string> | undefined;
  let values: Map<string, string[]> | undefined;
  let unsure: string[] | undefined;
  const long: string[] = [];
  const operands: string[] = [];
  // Read once: each read of a spec's field is a property load, and there are many specs.
  const longValue = spec.longValue ?? NONE;
  const shortValue = spec.shortValue;
  const shortOptional = spec.shortOptional;
  const posixOrder = spec.posixOrder;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (startsWith(a, '--')) {
      const eq = indexOf(a, '=');
      const typed = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const names = resolveLong(typed, spec);
      const several = typeof names !== 'string';
      if (several) (unsure ??= []).push(...names);
      const list = several ? names : [names];
      long.push(...list);
      if (eq >= 0) for (const n of list) values = addValue(values, n, a.slice(eq + 1));
      else if (i + 1 < args.length && list.some((n) => longValue.includes(n))) {
        // Shared by an option with a value and one without (refused by the program as ambiguous): read as
        // the one with a value, where a program, a URL or a file is handed over.
        const v = args[++i];
        for (const n of list) if (longValue.includes(n)) values = addValue(values, n, v);
      }
      continue;
    }
    if (startsWith(a, '-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = charAt(a, j);
        (short ??= new Set()).add(c);
        if (shortValue?.includes(c)) {
          const rest = slice(a, j + 1);
          if (rest) values = addValue(values, `-${c}`, rest);
          else if (i + 1 < args.length) values = addValue(values, `-${c}`, args[++i]);
          break;
        }
        if (shortOptional?.includes(c)) {
          const rest = slice(a, j + 1);
          if (rest) values = addValue(values, `-${c}`, rest);
          break;
        }
      }
      continue;
    }
    operands.push(a);
    if (posixOrder) {
      operands.push(...args.slice(i + 1));
      break;
    }
  }
  return { short: short ?? NO_LETTERS, long, unsure: unsure ?? NONE, values: values ?? NO_VALUES, operands };
}

/**
 * The full name(s) a typed long option stands for: itself when a known option has exactly that name
 * (the program prefers an exact name to a beginning), else every known option it begins; with
 * `negatable`, `no-<beginning>` of known options is each of them turned off (`no-<name>`). A name
 * nothing known begins with is kept as typed. One name as a string, several as an array.
 */
export function resolveLong(typed: string, spec: OptionSpec): string | readonly string[] {
  const longValue = spec.longValue ?? NONE;
  const longFlag = spec.longFlag ?? NONE;
  if (longValue.includes(typed) || longFlag.includes(typed)) return typed;
  const found = beginnings(typed, longValue, beginnings(typed, longFlag, undefined, ''), '');
  if (found) return found.length === 1 ? found[0] : found;
  if (spec.negatable && startsWith(typed, 'no-') && typed.length > 3) {
    const off = beginnings(typed.slice(3), longValue, beginnings(typed.slice(3), longFlag, undefined, 'no-'), 'no-');
    if (off) return off.length === 1 ? off[0] : off;
  }
  return typed;
}

/** `into` with `prefix` + every name of `names` that starts with `typed` added (made on the first one). */
function beginnings(typed: string, names: readonly string[], into: string[] | undefined, prefix: string): string[] | undefined {
  for (const n of names) if (startsWith(n, typed) && !(prefix && startsWith(n, 'no-'))) (into ??= []).push(prefix + n);
  return into;
}

/** `values` with `v` added to the values of `k` (the map made on the first value: most calls have none, and no closure is made per call). */
function addValue(values: Map<string, string[]> | undefined, k: string, v: string): Map<string, string[]> {
  const map = values ?? new Map<string, string[]>();
  const had = map.get(k);
  if (had) had.push(v);
  else map.set(k, [v]);
  return map;
}

/** Whether the long option `name` may have been given (in full, by its own beginning, or by one it shares). */
export function hasLong<N extends string>(o: ParsedOptions<N>, name: NoInfer<N>): boolean {
  return o.long.includes(name);
}

/**
 * Whether `name` was surely given: by its full name or a beginning no other known option has. For the
 * options that make a command milder (`--dry-run`, `--get`): an ambiguous beginning the program refuses
 * must not make the judge milder.
 */
export function hasLongSurely<N extends string>(o: ParsedOptions<N>, name: NoInfer<N>): boolean {
  return o.long.includes(name) && !o.unsure.includes(name);
}

/** The values given to the long options `long` (in any spelling) and to the short letters `short`. */
export function valuesOf<N extends string>(o: ParsedOptions<N>, long: readonly NoInfer<N>[], short = ''): string[] {
  if (o.values.size === 0) return [];
  const vals: string[] = [];
  for (const c of short) { const v = o.values.get(`-${c}`); if (v) vals.push(...v); }
  for (const l of long) { const v = o.values.get(l); if (v) vals.push(...v); }
  return vals;
}

/** A short letter or a long name (any spelling). */
export function hasFlag<N extends string>(o: ParsedOptions<N>, short: string, long: readonly NoInfer<N>[] = []): boolean {
  for (const c of short) if (o.short.has(c)) return true;
  return long.some((l) => o.long.includes(l));
}

/**
 * Where the short option `-<letter>` is in the word `word` read as getopt and git's parse-options read a
 * cluster (`-ix CMD`, `-rxCMD`): flags first, then a letter that takes a value takes the rest of the word.
 * The value attached to `letter` ('' when none is: a required value is then the next word), or undefined
 * when the word does not give `letter` (a long option, an operand, or the letter inside another's value).
 */
export function shortOptionIn(word: string, letter: string, spec: OptionSpec): string | undefined {
  if (word.length < 2 || codeAt(word, 0) !== 0x2d || codeAt(word, 1) === 0x2d) return undefined;
  for (let j = 1; j < word.length; j++) {
    const c = charAt(word, j);
    if (c === letter) return slice(word, j + 1);
    if (spec.shortValue?.includes(c) || spec.shortOptional?.includes(c)) return undefined;
  }
  return undefined;
}

/**
 * Whether the option that makes a command milder (`-n` / `--dry-run`) is in force at the end of `args`:
 * git takes the last of `--dry-run` and `--no-dry-run`, so it counts only when given surely (a beginning
 * only it has) and not turned off after. A beginning shared with the turning off counts as turning it off.
 */
export function lastOn(args: readonly string[], spec: OptionSpec, letter: string, name: string): boolean {
  let on = false;
  const longValue = spec.longValue ?? NONE;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    if (startsWith(a, '--')) {
      const eq = indexOf(a, '=');
      const r = resolveLong(eq < 0 ? a.slice(2) : a.slice(2, eq), spec);
      const list = typeof r === 'string' ? [r] : r;
      if (r === name) on = true;
      else if (list.includes(`no-${name}`)) on = false;
      // `--exclude --dry-run`: the next word is the value, not an option.
      if (eq < 0 && list.some((n) => longValue.includes(n))) i++;
    } else if (startsWith(a, '-') && a.length > 1) {
      if (letter && shortOptionIn(a, letter, spec) !== undefined) on = true;
      // `-e -n`: the value letter at the end of the word takes the next one.
      const last = charAt(a, a.length - 1);
      if (spec.shortValue?.includes(last) && shortOptionIn(a, last, spec) === '') i++;
    }
  }
  return on;
}
