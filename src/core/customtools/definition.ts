// Custom tools defined in JSON: what one definition may say, and how a broken one is reported. A
// definition names a program and its arguments as an argv array; `{{param}}` placeholders in the
// arguments are filled from the call's arguments, each inside the one element it sits in (argv.ts).
// Everything that would make a call ambiguous is refused here, when the file is read, so a broken
// definition never becomes a tool: a program chosen by the model, a placeholder for a parameter the
// schema does not declare, an environment variable that makes programs load other code.
import { z } from 'zod';
import { isInjectionVar } from '../exec/command-env';
import { placeholdersIn } from './argv';

/** Where a definition came from: a file's path (or a setting's name), and whether a workspace chose it. */
export interface CustomToolSource {
  file: string;
  workspace: boolean;
}

export interface CustomToolDefinition {
  name: string;
  description: string;
  /** The JSON Schema as written (shown to providers through `schema`). */
  parameters: Record<string, unknown>;
  /** The same schema as zod, which validates a call's arguments. */
  schema: z.ZodObject;
  command: readonly string[];
  cwd?: string;
  /** Literal values, or `{ secret }`: the value is read from the secret store when the tool runs. */
  env: Readonly<Record<string, string | { secret: string }>>;
  timeoutMs: number;
  source: CustomToolSource;
}

export const DEFAULT_CUSTOM_TIMEOUT_SECONDS = 60;
/** Names a model provider accepts (the strictest: a letter first, letters, digits, `_`, `-`, 64 at most). */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const SECRET_REF = /^\$\{secret:([A-Za-z0-9_.-]{1,128})\}$/;

const rawDefinition = z.object({
  name: z.string().regex(NAME, 'must start with a letter and hold only letters, digits, _ and - (at most 64 characters)'),
  description: z.string().trim().min(1, 'must say what the tool does').max(4_000),
  parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  command: z.array(z.string().max(32_768)).min(1, 'must name the program to run').max(1_000),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string().max(32_768)).default({}),
  timeout_seconds: z.number().int().min(1).max(86_400).default(DEFAULT_CUSTOM_TIMEOUT_SECONDS),
  enabled: z.boolean().default(true),
}).strict();

export interface DefinitionsRead {
  definitions: CustomToolDefinition[];
  /** One line each: `<file>: <field>: <what is wrong>`; the tool it is about is not registered. */
  problems: string[];
}

/**
 * A file's (or a setting's) value: one definition, or an array of them. Each definition is read on its
 * own: a broken one is reported and left out, the others still load; a disabled one is left out silently.
 */
export function readDefinitions(value: unknown, source: CustomToolSource): DefinitionsRead {
  const out: DefinitionsRead = { definitions: [], problems: [] };
  const items = Array.isArray(value) ? value : [value];
  items.forEach((item, i) => {
    const at = Array.isArray(value) ? `[${i}]` : '';
    const r = readOne(item, source, at);
    if (typeof r === 'string') out.problems.push(r);
    else if (r) out.definitions.push(r);
  });
  return out;
}

function readOne(item: unknown, source: CustomToolSource, at: string): CustomToolDefinition | string | undefined {
  const problem = (field: string, what: string) => `${source.file}: ${[at, field].filter(Boolean).join('.') || '(top level)'}: ${what}`;
  const p = rawDefinition.safeParse(item);
  if (!p.success) {
    const issue = p.error.issues[0];
    return problem(issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : String(k))).join('.').replace(/\.\[/g, '['), issue.message);
  }
  const d = p.data;
  if (!d.enabled) return undefined;
  if (d.parameters.type !== undefined && d.parameters.type !== 'object') return problem('parameters.type', 'must be "object" (a tool takes named arguments)');
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema({ type: 'object', ...d.parameters } as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (e) {
    return problem('parameters', `not a JSON Schema this tool can check arguments with: ${(e as Error).message}`);
  }
  if (!(schema instanceof z.ZodObject)) return problem('parameters', 'must describe an object with properties');
  const declared = new Set(Object.keys(schema.shape));
  if (placeholdersIn(d.command[0]).length) return problem('command[0]', 'the program must be written out, not filled from an argument: the model would choose what runs');
  for (let i = 1; i < d.command.length; i++) {
    const unknown = placeholdersIn(d.command[i]).find((n) => !declared.has(n));
    if (unknown) return problem(`command[${i}]`, `{{${unknown}}} names no parameter (declared: ${[...declared].join(', ') || 'none'})`);
  }
  if (d.cwd && placeholdersIn(d.cwd).length) return problem('cwd', 'placeholders are filled in command only; write the folder out');
  const env: Record<string, string | { secret: string }> = {};
  for (const [k, v] of Object.entries(d.env)) {
    if (placeholdersIn(v).length) return problem(`env.${k}`, 'placeholders are filled in command only; pass the value as an argument');
    if (isInjectionVar(k)) return problem(`env.${k}`, 'this variable makes programs load or run other code, so a custom tool may not set it');
    const secret = SECRET_REF.exec(v);
    env[k] = secret ? { secret: secret[1] } : v;
  }
  return {
    name: d.name, description: d.description, parameters: d.parameters, schema, command: d.command, cwd: d.cwd,
    env, timeoutMs: d.timeout_seconds * 1000, source,
  };
}
