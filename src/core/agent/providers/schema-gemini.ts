// JSON Schema cut down to what Gemini-family models accept for function parameters: Gemini's schema
// is an OpenAPI subset and answers 400 ("Unknown name …", "Invalid JSON payload") to keywords outside
// it, whoever relays the request. Local $refs are inlined first (their targets would otherwise be
// stripped with $defs), `const` becomes a one-value enum, null variants leave unions, and unions that
// can be merged (objects, literals) are merged. Pure: the input is never mutated.
import { isSchema, literalsOf, MAX_SCHEMA_DEPTH, mergeObjectSchemas, setKey, uniqueValues, type Schema, type SchemaBudget } from './schema-unions';

/** Keywords Gemini refuses (validation constraints, references, conditionals, tuple forms). */
const STRIPPED = new Set([
  'patternProperties', 'additionalProperties', '$schema', '$id', '$ref', '$defs', 'definitions', '$comment',
  '$anchor', 'examples', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'minProperties',
  'maxProperties', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'contains', 'minContains', 'maxContains', 'additionalItems',
  'prefixItems',
]);
/** Keywords rewritten below rather than copied. */
const REWRITTEN = new Set(['type', 'properties', 'items', 'const', 'anyOf', 'oneOf', 'allOf']);

interface Walk {
  root: Schema;
  /** The $refs being inlined on the current path: a recursive schema stops at its second visit. */
  refs: string[];
  depth: number;
  budget: SchemaBudget;
}

export function cleanForGemini(root: Schema, budget: SchemaBudget): Schema {
  return clean(root, { root, refs: [], depth: 0, budget });
}

function clean(node: unknown, walk: Walk): Schema {
  // `true`/`false` schemas and junk become "anything"; so does whatever lies past the limits.
  if (!isSchema(node) || walk.depth > MAX_SCHEMA_DEPTH || --walk.budget.left < 0) return {};
  if (typeof node.$ref === 'string') return inlineRef(node, node.$ref, walk);
  const deeper: Walk = { ...walk, depth: walk.depth + 1 };
  const out: Schema = {};
  const type = cleanType(node.type);
  if (type !== undefined) out.type = type;
  for (const [key, value] of Object.entries(node)) {
    if (!STRIPPED.has(key) && !REWRITTEN.has(key)) setKey(out, key, value);
  }
  if (Object.hasOwn(node, 'const') && !Array.isArray(node.enum)) out.enum = [node.const];
  if (Array.isArray(out.enum)) out.enum = out.enum.filter((v) => v !== null);
  if (Array.isArray(out.enum) && out.enum.length === 0) delete out.enum;
  if (isSchema(node.properties)) {
    const properties: Schema = {};
    // Property names are data, not keywords: a property called "format" stays.
    for (const [name, prop] of Object.entries(node.properties)) setKey(properties, name, clean(prop, deeper));
    out.properties = properties;
  }
  const items = Array.isArray(node.items) ? node.items[0] : (node.items ?? (Array.isArray(node.prefixItems) ? node.prefixItems[0] : undefined));
  if (items !== undefined) out.items = clean(items, deeper);
  let result = mergeUnion(out, [node.anyOf, node.oneOf], deeper);
  if (Array.isArray(node.allOf)) result = mergeAll(result, node.allOf.map((v) => clean(v, deeper)));
  return result;
}

/** `["string", "null"]` → "string": Gemini takes one type name. */
function cleanType(type: unknown): unknown {
  if (!Array.isArray(type)) return type;
  const named = type.filter((t) => t !== 'null');
  return named[0] ?? (type.length > 0 ? 'null' : undefined);
}

function inlineRef(node: Schema, ref: string, walk: Walk): Schema {
  const { $ref: _ref, ...siblings } = node;
  const target = walk.refs.includes(ref) ? undefined : resolveRef(walk.root, ref);
  if (target === undefined) {
    // Recursive or unresolvable: an object the model fills as it sees fit (the registry validates it).
    const cleaned = clean(siblings, { ...walk, depth: walk.depth + 1 });
    return cleaned.type === undefined ? { type: 'object', ...cleaned } : cleaned;
  }
  return clean({ ...target, ...siblings }, { ...walk, refs: [...walk.refs, ref], depth: walk.depth + 1 });
}

/** Local references only: `#`, `#/$defs/Name`, `#/definitions/Name` (JSON-pointer escaped). */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!m) return undefined;
  const defs = root[m[1]];
  const name = decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~');
  return isSchema(defs) && Object.hasOwn(defs, name) && isSchema(defs[name]) ? defs[name] : undefined;
}

function isNullVariant(v: Schema): boolean {
  if (v.type === 'null') return true;
  const literals = literalsOf(v);
  return literals !== undefined && literals.length > 0 && literals.every((x) => x === null) && v.type === undefined;
}

/** anyOf/oneOf without null variants; one variant is folded in, mergeable ones merged, others kept. */
function mergeUnion(out: Schema, lists: unknown[], walk: Walk): Schema {
  const variants = lists
    .filter(Array.isArray)
    .flat()
    .map((v) => (isSchema(v) && isNullVariant(v) ? undefined : clean(v, walk)))
    .filter((v): v is Schema => v !== undefined && !isNullVariant(v));
  if (variants.length === 0) return out;
  if (variants.length === 1) return { ...variants[0], ...out };
  if (variants.every((v) => v.type === 'object' || isSchema(v.properties))) return mergeObjectSchemas(out, variants, 'all');
  const literals = variants.map(literalsOf);
  const types = new Set(variants.map((v) => v.type));
  if (literals.every((l) => l !== undefined) && types.size === 1) {
    const [type] = types;
    return { ...(type !== undefined ? { type } : {}), ...out, enum: uniqueValues(literals.flat()) };
  }
  // Mixed shapes (a string or an object): newer Gemini versions accept anyOf, older ones do not.
  return { ...out, anyOf: variants };
}

function mergeAll(out: Schema, parts: Schema[]): Schema {
  if (parts.length === 0) return out;
  if (parts.every((p) => p.type === 'object' || isSchema(p.properties))) return mergeObjectSchemas(out, parts, 'any');
  // Constraints on one value: their keywords together, the node's own winning, then the earlier part's.
  const merged: Schema = { ...out };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) if (!Object.hasOwn(merged, key)) setKey(merged, key, value);
  }
  return merged;
}
