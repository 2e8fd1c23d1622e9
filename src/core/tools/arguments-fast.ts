// A short way through argument validation for the common shape of a tool's parameters (an MCP
// server's, most built-ins'): an object of plain strings, numbers, booleans and string enums, each
// required or optional, with no defaults or transforms, and no checks but the common bounds (a
// string's length, a number's range, an integer). zod's generic parse runs dozens of
// functions per call, and on a call that waits for another process between its steps that code is
// cold each time; this check is one small loop. It answers only when zod would accept the arguments,
// with the object zod would return (the schema's keys in its order, an optional key given as
// undefined kept as undefined); anything else (a key the schema does not name, a wrong type, a
// schema of another shape) is left to zod, which also words the errors.
import { z } from 'zod';

type Kind = 'string' | 'number' | 'boolean';

/** A bound zod would check on a value of the field's kind: true when the value passes. */
type Bound = (v: never) => boolean;

interface Field {
  key: string;
  kind: Kind | ReadonlySet<string>;
  optional: boolean;
  bounds: readonly Bound[];
}

/** The schema's fields, or null when the schema is not of the shape this check covers. */
const compiled = new WeakMap<z.ZodType, readonly Field[] | null>();

/** What zod hands a check: the value, and the issues found so far (none: every earlier check passed). */
interface Payload {
  value: unknown;
  issues: unknown[];
}

/** One of zod's checks (a check in `checks`, or a format schema such as z.int(), which is a check itself). */
interface Check {
  _zod: { def: { check?: string; when?: (payload: Payload) => boolean }; check?: (payload: Payload) => unknown };
}

/** The checks this way runs: bounds that only look at the value and never change it. */
const BOUNDS: Readonly<Record<string, readonly string[]>> = {
  string: ['min_length', 'max_length', 'length_equals'],
  number: ['number_format', 'greater_than', 'less_than', 'multiple_of'],
};

/**
 * One of zod's bound checks on a string or a number, run by zod's own code (a string's length is
 * counted in code points there, not UTF-16 units), where and as zod runs it; undefined for any other
 * check, which leaves the schema to zod.
 */
function boundOf(type: string, c: Check): Bound | undefined {
  const { check: name, when } = c._zod.def;
  const check = c._zod.check;
  if (!name || !check || !BOUNDS[type]?.includes(name)) return undefined;
  return (v: never) => {
    const payload: Payload = { value: v, issues: [] };
    if (when && !when(payload)) return true;
    check(payload);
    return payload.issues.length === 0;
  };
}

function kindOf(s: z.core.$ZodType): { kind: Field['kind']; bounds: Bound[] } | undefined {
  const def = s._zod.def as { type: string; checks?: Check[]; coerce?: boolean; entries?: Record<string, unknown>; check?: string };
  if (def.coerce) return undefined;
  const bounds: Bound[] = [];
  // A format schema (z.int(), z.email()) is a check itself, which zod runs before the others.
  const own = def.check ? [s as unknown as Check] : [];
  for (const c of [...own, ...(def.checks ?? [])]) {
    const b = boundOf(def.type, c);
    if (!b) return undefined;
    bounds.push(b);
  }
  if (def.type === 'string' || def.type === 'number' || def.type === 'boolean') return { kind: def.type, bounds };
  if (def.type === 'enum' && def.entries && !bounds.length) {
    const values = Object.values(def.entries);
    return values.every((v) => typeof v === 'string') ? { kind: new Set(values as string[]), bounds } : undefined;
  }
  return undefined;
}

function compile(schema: z.ZodType): readonly Field[] | null {
  if (!(schema instanceof z.ZodObject)) return null;
  const def = schema._zod.def as { checks?: unknown[] };
  if (def.checks?.length) return null;
  const fields: Field[] = [];
  for (const [key, prop] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (key === '__proto__') return null;
    const optional = prop instanceof z.ZodOptional;
    const of = kindOf(prop instanceof z.ZodOptional ? prop._zod.def.innerType : prop);
    if (!of) return null;
    fields.push({ key, kind: of.kind, optional, bounds: of.bounds });
  }
  return fields;
}

function fits(kind: Field['kind'], v: unknown): boolean {
  if (kind === 'string') return typeof v === 'string';
  if (kind === 'number') return typeof v === 'number' && Number.isFinite(v);
  if (kind === 'boolean') return typeof v === 'boolean';
  return typeof v === 'string' && kind.has(v);
}

/** What zod's parse of `raw` would return, when this check can tell; undefined to ask zod. */
export function quickParse(schema: z.ZodType, raw: object): Record<string, unknown> | undefined {
  let fields = compiled.get(schema);
  if (fields === undefined) compiled.set(schema, (fields = compile(schema)));
  if (!fields) return undefined;
  const proto = Object.getPrototypeOf(raw) as unknown;
  if ((proto !== Object.prototype && proto !== null) || Array.isArray(raw)) return undefined;
  const input = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = input[f.key];
    if (v === undefined) {
      if (!f.optional) return undefined;
      if (!Object.prototype.hasOwnProperty.call(input, f.key)) continue;
      out[f.key] = undefined;
      continue;
    }
    if (!fits(f.kind, v) || !Object.prototype.hasOwnProperty.call(input, f.key)) return undefined;
    for (const b of f.bounds) if (!(b as (x: unknown) => boolean)(v)) return undefined;
    out[f.key] = v;
  }
  // A key the schema does not name: zod strips, keeps or refuses it, as the schema says.
  for (const key in input) if (!Object.prototype.hasOwnProperty.call(out, key)) return undefined;
  return out;
}
