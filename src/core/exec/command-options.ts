// Option parsing the way getopt_long does it, so that every spelling of a flag means the same thing:
// `-Rf`, `-rfv`, `-v -rf`, `--recursive --force`, `--rec` (GNU accepts unambiguous prefixes),
// `-s9`, `-s 9`, `--signal=KILL`, `-o/etc/x`. Rules ask for a flag by its meaning, never by spelling.
import { charAt, indexOf, slice, startsWith } from './command-strings';

export interface OptionSpec {
  /** Short option letters that take a value (`-o FILE`, `-oFILE`). */
  shortValue?: string;
  /** Long option names (without `--`) that take a value (`--output FILE`, `--output=FILE`). */
  longValue?: readonly string[];
  /** Stop at the first operand (POSIX order: `kill 1 -9` is not a flag). Default: GNU permutation. */
  posixOrder?: boolean;
}

export interface ParsedOptions {
  /** Short letters seen. */
  short: ReadonlySet<string>;
  /** Long names seen, as typed (possibly abbreviated). */
  long: string[];
  /** Values by short letter or long name as typed. */
  values: ReadonlyMap<string, string[]>;
  operands: string[];
}

/**
 * Shared by every result without short letters or without values (most: rules parse the options of
 * nearly every argv they meet); a Set and a Map made per call were a good part of a decision's
 * allocations. Read-only in the type, so no caller can fill the shared ones.
 */
const NO_LETTERS: ReadonlySet<string> = new Set();
const NO_VALUES: ReadonlyMap<string, string[]> = new Map();

export function parseOptions(args: readonly string[], spec: OptionSpec = {}): ParsedOptions {
  let short: Set<string> | undefined;
  let values: Map<string, string[]> | undefined;
  const long: string[] = [];
  const operands: string[] = [];
  // Read once: specs come as object literals of many shapes (one per call site), so each read is a slow, megamorphic one.
  const longValue = spec.longValue ?? [];
  const shortValue = spec.shortValue;
  const posixOrder = spec.posixOrder;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (startsWith(a, '--')) {
      const eq = indexOf(a, '=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      long.push(name);
      if (eq >= 0) values = addValue(values, name, a.slice(eq + 1));
      else if (longValue.some((l) => l === name || (name.length >= 3 && l.startsWith(name))) && i + 1 < args.length) values = addValue(values, name, args[++i]);
      continue;
    }
    if (startsWith(a, '-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = charAt(a, j);
        (short ??= new Set()).add(c);
        if (shortValue?.includes(c)) {
          const rest = slice(a, j + 1);
          if (rest) values = addValue(values, c, rest);
          else if (i + 1 < args.length) values = addValue(values, c, args[++i]);
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
  return { short: short ?? NO_LETTERS, long, values: values ?? NO_VALUES, operands };
}

/** `values` with `v` added to the values of `k` (the map made on the first value: most calls have none, and no closure is made per call). */
function addValue(values: Map<string, string[]> | undefined, k: string, v: string): Map<string, string[]> {
  const map = values ?? new Map<string, string[]>();
  map.set(k, [...(map.get(k) ?? []), v]);
  return map;
}

/** Whether `name` (a long option) was given, in full or as a prefix of at least `min` characters. */
export function hasLong(o: ParsedOptions, name: string, min = 3): boolean {
  return o.long.some((l) => l === name || (l.length >= min && name.startsWith(l)));
}

/** The values given to a long option (any accepted spelling) and to short letters. */
export function valuesOf(o: ParsedOptions, long: readonly string[], short = '', min = 3): string[] {
  const vals: string[] = [];
  for (const [k, v] of o.values) {
    if (k.length === 1 && short.includes(k)) vals.push(...v);
    else if (long.some((l) => k === l || (k.length >= min && l.startsWith(k)))) vals.push(...v);
  }
  return vals;
}

/** A short letter or a long name (any spelling). */
export function hasFlag(o: ParsedOptions, short: string, long: readonly string[] = []): boolean {
  return [...short].some((c) => o.short.has(c)) || long.some((l) => hasLong(o, l));
}
