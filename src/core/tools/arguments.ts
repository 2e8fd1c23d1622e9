// Turning what a model sent into validated arguments, with errors a model can act on. Providers send
// arguments as a JSON string or an object; a string cut off mid-way (the output hit a token limit) is
// the most common cause of both invalid JSON and of `{}` for a tool with required parameters.
import { z } from 'zod';
import { quickParse } from './arguments-fast';

export type ArgsOutcome<T> = { ok: true; value: T } | { ok: false; message: string; kind: 'empty' | 'json' | 'invalid' };

const CUT_OFF_HINT =
  'This usually means your output was cut off before the arguments were complete (a token limit). ' +
  'Send the call again; if it carries a large payload (a whole file), split it into smaller steps ' +
  '(for example write the file in parts, or use edit for a few changed lines).';

function requiredKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>)
      .filter(([, s]) => !s.safeParse(undefined).success)
      .map(([k]) => k);
  }
  return [];
}

function isEmpty(raw: unknown): boolean {
  if (raw === undefined || raw === null) return true;
  if (typeof raw === 'string') return raw.trim() === '' || raw.trim() === '{}';
  return typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw as object).length === 0;
}

/**
 * @param malformed set when the provider already found the arguments unreadable (cut off at the
 *   output limit, not JSON): its reason. Such a call never runs, even when the text left happens to parse.
 */
export function parseArguments<S extends z.ZodType>(tool: string, schema: S, raw: unknown, malformed?: string): ArgsOutcome<z.infer<S>> {
  if (malformed !== undefined) {
    const why = malformed.replace(/\s+/g, ' ').trim().slice(0, 200);
    return { ok: false, kind: 'json', message: `The arguments for ${tool} could not be read${why ? ` (${why})` : ''}; it did not run. ${CUT_OFF_HINT}` };
  }
  // Arguments zod would accept as they are, found without zod (arguments-fast.ts); such arguments
  // are never the empty ones below (a required key would be missing).
  if (typeof raw === 'object' && raw !== null) {
    const quick = quickParse(schema, raw);
    if (quick) return { ok: true, value: quick as z.infer<S> };
  }
  // Only for empty arguments: finding the required keys tries each property (a failed parse apiece).
  const required = isEmpty(raw) ? requiredKeys(schema) : [];
  if (required.length > 0) {
    return {
      ok: false, kind: 'empty',
      message: `${tool} received no arguments, but it needs ${required.map((k) => `"${k}"`).join(', ')}. ${CUT_OFF_HINT}`,
    };
  }
  let value: unknown = raw ?? {};
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (e) {
      return {
        ok: false, kind: 'json',
        message: `The arguments for ${tool} are not valid JSON (${(e as Error).message}; ${raw.length} characters received). ${CUT_OFF_HINT}`,
      };
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, kind: 'invalid', message: formatIssues(tool, parsed.error, value) };
}

/** One line per problem, naming the parameter, what was expected and what arrived. */
function formatIssues(tool: string, error: z.ZodError, value: unknown): string {
  const lines = error.issues.slice(0, 10).map((i) => {
    const where = i.path.length ? i.path.join('.') : '(arguments)';
    const got = i.path.length ? describe(pick(value, i.path)) : describe(value);
    if (i.code === 'unrecognized_keys') return `- ${where}: unknown parameter(s) ${i.keys.map((k) => `"${k}"`).join(', ')}; remove them.`;
    if (i.code === 'invalid_type' && got === 'missing') return `- ${where}: required, but missing.`;
    return `- ${where}: ${i.message} (got ${got}).`;
  });
  if (error.issues.length > 10) lines.push(`- … and ${error.issues.length - 10} more.`);
  return `Invalid arguments for ${tool}:\n${lines.join('\n')}\nFix these and call ${tool} again.`;
}

function pick(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : `"${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
