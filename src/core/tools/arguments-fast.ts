// A short way through argument validation for the common shape of a tool's parameters (an MCP
// server's, most built-ins'): an object of plain strings, numbers, booleans and string enums, each
// required or optional, with no checks, defaults or transforms. zod's generic parse runs dozens of
// functions per call, and on a call that waits for another process between its steps that code is
// cold each time; this check is one small loop. It answers only when zod would accept the arguments,
// with the object zod would return (the schema's keys in its order, an optional key given as
// undefined kept as undefined); anything else (a key the schema does not name, a wrong type, a
// schema of another shape) is left to zod, which also words the errors.
import { z } from 'zod';

type Kind = 'string' | 'number' | 'boolean';

interface Field {
  key: string;
  kind: Kind | ReadonlySet<string>;
  optional: boolean;
}

/** The schema's fields, or null when the schema is not of the shape this check covers. */
const compiled = new WeakMap<z.ZodType, readonly Field[] | null>();

function kindOf(s: z.core.$ZodType): Field['kind'] | undefined {
  const def = s._zod.def as { type: string; checks?: unknown[]; coerce?: boolean; entries?: Record<string, unknown> };
  if (def.checks?.length || def.coerce) return undefined;
  if (def.type === 'string' || def.type === 'number' || def.type === 'boolean') return def.type;
  if (def.type === 'enum' && def.entries) {
    const values = Object.values(def.entries);
    return values.every((v) => typeof v === 'string') ? new Set(values as string[]) : undefined;
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
    const kind = kindOf(prop instanceof z.ZodOptional ? prop._zod.def.innerType : prop);
    if (!kind) return null;
    fields.push({ key, kind, optional });
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
    out[f.key] = v;
  }
  // A key the schema does not name: zod strips, keeps or refuses it, as the schema says.
  for (const key in input) if (!Object.prototype.hasOwnProperty.call(out, key)) return undefined;
  return out;
}
