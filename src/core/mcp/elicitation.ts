// A server's `elicitation/create` request (form mode) as a series of questions a person answers one
// by one: each property of the requested schema becomes a field (text, number, yes/no, one choice,
// several choices) whose answer is checked and converted here, so every front end asks the same
// way. The front end only shows a field and hands back what the person typed or picked; cancelling
// any question cancels the whole request. URL-mode requests (open a page) are declined.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';

export interface ElicitField {
  key: string;
  title: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  /** The schema's default, as the front end should pre-fill or pre-select it. */
  default?: string | number | boolean | string[];
  /** For `choice` / `choices` (and `boolean`: Yes / No). */
  options?: { value: string; label: string }[];
  format?: string;
  min?: number;
  max?: number;
}

/** What a front end answers for one field: text typed, option values picked, or undefined when the person cancelled. */
export type FieldAnswer = string | string[] | undefined;

export interface ElicitationAsker {
  /** Shows one field of `message` from `server`; `check` says what is wrong with a typed text (undefined: fine). */
  ask(server: string, message: string, field: ElicitField, check: (text: string) => string | undefined): Promise<FieldAnswer>;
}

type Prop = Record<string, unknown>;

function optionsOf(p: Prop): { value: string; label: string }[] | undefined {
  const labelled = (p.oneOf ?? p.anyOf) as { const?: unknown; title?: unknown }[] | undefined;
  if (Array.isArray(labelled)) return labelled.filter((o) => typeof o?.const === 'string').map((o) => ({ value: o.const as string, label: typeof o.title === 'string' ? o.title : (o.const as string) }));
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? (p.enumNames as unknown[]) : [];
    return p.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: typeof names[i] === 'string' ? (names[i] as string) : v }));
  }
  return undefined;
}

/** The fields of a form request, in the schema's order. */
export function elicitationFields(schema: { properties?: Record<string, unknown>; required?: string[] }): ElicitField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, raw]) => {
    const p = (raw ?? {}) as Prop;
    const base = {
      key, title: typeof p.title === 'string' ? p.title : key, required: required.has(key),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
    };
    const def = p.default as ElicitField['default'];
    const withDefault = def === undefined ? {} : { default: def };
    if (p.type === 'array') {
      const items = (p.items ?? {}) as Prop;
      return { ...base, ...withDefault, kind: 'choices', options: optionsOf(items) ?? [], ...bounds(p.minItems, p.maxItems) };
    }
    const options = optionsOf(p);
    if (options) return { ...base, ...withDefault, kind: 'choice', options };
    if (p.type === 'boolean') return { ...base, ...withDefault, kind: 'boolean', options: [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }] };
    if (p.type === 'number' || p.type === 'integer') return { ...base, ...withDefault, kind: p.type, ...bounds(p.minimum, p.maximum) };
    return { ...base, ...withDefault, kind: 'text', ...(typeof p.format === 'string' ? { format: p.format } : {}), ...bounds(p.minLength, p.maxLength) };
  });
}

function bounds(min: unknown, max: unknown): { min?: number; max?: number } {
  return { ...(typeof min === 'number' ? { min } : {}), ...(typeof max === 'number' ? { max } : {}) };
}

const FORMATS: Record<string, { re: RegExp; what: string }> = {
  email: { re: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, what: 'an email address' },
  uri: { re: /^[a-z][a-z0-9+.-]*:\S+$/i, what: 'a URI such as https://example.com' },
  date: { re: /^\d{4}-\d{2}-\d{2}$/, what: 'a date as YYYY-MM-DD' },
  'date-time': { re: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, what: 'a date and time such as 2026-01-31T12:00:00Z' },
};

/** What is wrong with a typed answer, or undefined. An empty answer to an optional field is fine (left out). */
export function checkText(f: ElicitField, text: string): string | undefined {
  const t = text.trim();
  if (t === '') return f.required ? `${f.title} is required.` : undefined;
  if (f.options && f.kind !== 'choices' && !f.options.some((o) => o.value === t)) return `${f.title} must be one of ${f.options.map((o) => o.value).join(', ')}.`;
  if (f.kind === 'number' || f.kind === 'integer') {
    const n = Number(t);
    if (!Number.isFinite(n)) return `${f.title} must be a number.`;
    if (f.kind === 'integer' && !Number.isInteger(n)) return `${f.title} must be a whole number.`;
    if (f.min !== undefined && n < f.min) return `${f.title} must be at least ${f.min}.`;
    if (f.max !== undefined && n > f.max) return `${f.title} must be at most ${f.max}.`;
    return undefined;
  }
  const format = f.format ? FORMATS[f.format] : undefined;
  if (format && !format.re.test(t)) return `${f.title} must be ${format.what}.`;
  if (f.min !== undefined && t.length < f.min) return `${f.title} must have at least ${f.min} characters.`;
  if (f.max !== undefined && t.length > f.max) return `${f.title} must have at most ${f.max} characters.`;
  return undefined;
}

/** The answer as the schema's type; undefined: left out. */
function valueOf(f: ElicitField, a: string | string[]): string | number | boolean | string[] | undefined {
  if (f.kind === 'choices') return Array.isArray(a) ? a : [a];
  const one = Array.isArray(a) ? a[0] : a;
  if (one === undefined || one.trim() === '') return undefined;
  if (f.kind === 'boolean') return one === 'true';
  if (f.kind === 'number' || f.kind === 'integer') return Number(one);
  return f.kind === 'text' ? one.trim() : one;
}

/** Asks every field in turn; a cancelled question cancels the request, an invalid answer is never sent. */
export async function answerElicitation(asker: ElicitationAsker, server: string, params: ElicitRequest['params']): Promise<ElicitResult> {
  if (params.mode === 'url') return { action: 'decline' };
  const fields = elicitationFields(params.requestedSchema as Parameters<typeof elicitationFields>[0]);
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const f of fields) {
    const check = (text: string) => checkText(f, text);
    const answer = await asker.ask(server, params.message, f, check);
    if (answer === undefined) return { action: 'cancel' };
    const problem = typeof answer === 'string' ? check(answer) : f.kind === 'choices' ? choicesProblem(f, answer) : undefined;
    if (problem) throw new Error(`The answer for ${f.title} was not accepted: ${problem}`);
    const v = valueOf(f, answer);
    if (v !== undefined) content[f.key] = v;
  }
  return { action: 'accept', content };
}

function choicesProblem(f: ElicitField, picked: string[]): string | undefined {
  if (f.min !== undefined && picked.length < f.min) return `pick at least ${f.min}`;
  if (f.max !== undefined && picked.length > f.max) return `pick at most ${f.max}`;
  return undefined;
}
