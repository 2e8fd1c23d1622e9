// The schema a tools/call answer is read with. The SDK's CallToolResultSchema checks each content
// block against a union of five block types (and their annotations, _meta, resources) through zod's
// generic parse: on every call, microseconds of the answer's path on a server's usual answer, a list
// of plain text blocks. That answer is checked here directly (nothing but `content` and `isError`,
// every block exactly `{ type: 'text', text: <string> }`), which CallToolResultSchema would accept
// and copy unchanged; any other answer is parsed by CallToolResultSchema itself, so it is accepted,
// defaulted and refused exactly as before (its ZodError is thrown out of the parse, and the SDK
// rejects the call with it as it does with the error of a failed parse).
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Whether `v` is a result of text blocks only, with no field but `content` and `isError`. */
export function isPlainTextResult(v: unknown): v is CallToolResult {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  for (const key in r) if (key !== 'content' && key !== 'isError') return false;
  if (r.isError !== undefined && typeof r.isError !== 'boolean') return false;
  const content = r.content;
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const b: unknown = content[i];
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
    const block = b as Record<string, unknown>;
    if (block.type !== 'text' || typeof block.text !== 'string') return false;
    for (const key in block) if (key !== 'type' && key !== 'text') return false;
  }
  return true;
}

export const CallResultSchema = z.unknown().transform((v): CallToolResult => (isPlainTextResult(v) ? v : CallToolResultSchema.parse(v)));
