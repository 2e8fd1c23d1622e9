// Filling a tool's arguments from its schema, one field at a time, with the schema's own validation
// shown as the person types. Enums and booleans are picked, numbers and strings typed, anything
// structured entered as JSON. Escape cancels the whole thing; nothing runs half-filled.
import * as vscode from 'vscode';
import { z } from 'zod';
import type { Tool } from '../../core/tools/types';

type JsonSchema = { type?: string | string[]; enum?: unknown[]; description?: string; default?: unknown };

const SKIP = '(leave unset)';

function fieldSchema(tool: Tool, key: string): z.ZodType | undefined {
  return tool.parameters instanceof z.ZodObject ? (tool.parameters.shape as Record<string, z.ZodType>)[key] : undefined;
}

function check(schema: z.ZodType | undefined, value: unknown): string | undefined {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues.map((i) => i.message).join('; ');
}

/** Converts typed text to the field's value; undefined = left unset; Error = not parseable. */
function convert(text: string, s: JsonSchema): unknown {
  if (text === '') return undefined;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'number' || type === 'integer') {
    const n = Number(text);
    return Number.isFinite(n) ? n : new Error('Enter a number.');
  }
  if (type === 'string' || (type === undefined && !/^[[{]/.test(text))) return text;
  try {
    return JSON.parse(text);
  } catch {
    return new Error('Enter JSON (for example ["a", "b"] or {"key": "value"}).');
  }
}

export async function promptArguments(tool: Tool, schema: Record<string, unknown>, previous: Record<string, unknown> = {}): Promise<Record<string, unknown> | undefined> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const keys = Object.keys(props).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const args: Record<string, unknown> = {};
  for (const [i, key] of keys.entries()) {
    const s = props[key];
    const opt = !required.has(key);
    const title = `${tool.name} (${i + 1}/${keys.length}): ${key}${opt ? ' — optional' : ''}`;
    const zs = fieldSchema(tool, key);
    if (s.enum || s.type === 'boolean') {
      const options = (s.enum ?? [true, false]).map((v) => ({ label: String(v), value: v as unknown }));
      if (opt) options.push({ label: SKIP, value: undefined });
      const pick = await vscode.window.showQuickPick(options, { title, placeHolder: s.description, ignoreFocusOut: true });
      if (!pick) return undefined;
      if (pick.value !== undefined) args[key] = pick.value;
      continue;
    }
    const prev = previous[key];
    const text = await vscode.window.showInputBox({
      title, prompt: s.description, ignoreFocusOut: true,
      placeHolder: opt ? 'Press Enter to leave unset' : undefined,
      value: prev === undefined ? undefined : typeof prev === 'string' ? prev : JSON.stringify(prev),
      validateInput: (t) => {
        const v = convert(t, s);
        if (v instanceof Error) return v.message;
        if (v === undefined) return opt ? undefined : `${key} is required.`;
        return check(zs, v);
      },
    });
    if (text === undefined) return undefined;
    const v = convert(text, s);
    if (v !== undefined && !(v instanceof Error)) args[key] = v;
  }
  return args;
}
