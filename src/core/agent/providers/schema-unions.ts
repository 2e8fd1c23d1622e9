// Merging union schemas into one object schema. zod's discriminated unions and MCP servers' "one of
// these shapes" tools arrive as a top-level anyOf/oneOf, which OpenAI and Anthropic refuse for tool
// parameters. The merge keeps every property, unions the literal values a property may take (so an
// `action` enum still lists every action) and requires only what every variant requires. Inputs are
// never mutated; output key order follows input order, so the result is deterministic.

export type Schema = Record<string, unknown>;

/** Nesting beyond this is cut off: schemas from MCP servers are outside input. */
export const MAX_SCHEMA_DEPTH = 48;
/**
 * Schema nodes one tool's normalisation may visit. Shared sub-objects and $refs that point at the same
 * definition twice per level (a "billion laughs" schema) would otherwise take exponential time.
 */
export const MAX_SCHEMA_NODES = 20_000;

/** The node allowance of one normalisation, shared by everything that walks the schema. */
export interface SchemaBudget {
  left: number;
}

export function newBudget(): SchemaBudget {
  return { left: MAX_SCHEMA_NODES };
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets a key without invoking setters: a property may be named `__proto__` in an MCP server's schema,
 * and plain assignment would change the object's prototype instead of adding the property.
 */
export function setKey(target: Schema, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The top level's anyOf/oneOf (required in every variant) and allOf (required in any) merged into it. */
export function flattenTopLevel(schema: Schema, budget: SchemaBudget = newBudget(), depth = 0): Schema {
  const { anyOf, oneOf, allOf, ...rest } = schema;
  if (depth > MAX_SCHEMA_DEPTH || --budget.left < 0) return rest;
  let out: Schema = rest;
  if (Array.isArray(allOf)) out = mergeObjectSchemas(out, objectVariants(allOf, budget, depth), 'any');
  for (const variants of [anyOf, oneOf]) {
    if (Array.isArray(variants)) out = mergeObjectSchemas(out, objectVariants(variants, budget, depth), 'all');
  }
  return out;
}

function objectVariants(variants: unknown[], budget: SchemaBudget, depth: number): Schema[] {
  return variants
    .filter(isSchema)
    .map((v) => flattenTopLevel(v, budget, depth + 1))
    .filter((v) => v.type === 'object' || isSchema(v.properties));
}

/**
 * `base` with the variants' properties merged in. `base`'s own required fields stay required; of the
 * variants' required fields, 'all' keeps those required by every variant (a union: any one variant
 * may be sent) and 'any' keeps those required by some variant (an intersection: all apply at once).
 */
export function mergeObjectSchemas(base: Schema, variants: Schema[], required: 'all' | 'any'): Schema {
  if (variants.length === 0) return base;
  const properties: Schema = {};
  for (const source of [base, ...variants]) {
    if (!isSchema(source.properties)) continue;
    for (const [name, prop] of Object.entries(source.properties)) {
      setKey(properties, name, Object.hasOwn(properties, name) ? mergeProperty(properties[name], prop) : prop);
    }
  }
  const requiredLists = variants.map(requiredOf);
  const fromVariants =
    required === 'all'
      ? requiredLists[0].filter((name) => requiredLists.every((list) => list.includes(name)))
      : requiredLists.flat();
  const names = unique([...requiredOf(base), ...fromVariants]).filter((name) => Object.hasOwn(properties, name));
  // Flattening loosens the schema, so a variant's additionalProperties: false no longer holds.
  const { properties: _p, required: _r, additionalProperties: _a, type: _t, ...rest } = base;
  const out: Schema = { type: 'object', properties, ...rest };
  if (names.length > 0) out.required = names;
  return out;
}

function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [];
}

/** Two schemas for the same property: literal values are unioned, otherwise the first one wins. */
function mergeProperty(first: unknown, second: unknown): unknown {
  const a = literalsOf(first);
  const b = literalsOf(second);
  if (!a || !b || !isSchema(first)) return first;
  const { const: _c, enum: _e, ...rest } = first;
  return { ...rest, enum: uniqueValues([...a, ...b]) };
}

/** The values a schema allows when it is a literal (enum or const), else undefined. */
export function literalsOf(schema: unknown): unknown[] | undefined {
  if (!isSchema(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if (Object.hasOwn(schema, 'const')) return [schema.const];
  return undefined;
}

export function uniqueValues(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v) ?? 'undefined';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
