// How a tools/call answer is read. The SDK's callTool does three things around its request(): it
// refuses a tool that requires task-based execution, reads the answer with CallToolResultSchema, and
// checks the structured content of a tool with an output schema. Pincer does the same here, for every
// tool, with two differences:
// - The tools' checks are made from every page of the server's tool list. The SDK keeps them per
//   listTools() call and clears them at each, so after a paginated listing only the last page's
//   output schemas were checked (and only the last page's task-required tools refused).
// - The usual answer (text blocks only, perhaps isError) is recognised by a short check that accepts
//   exactly what the schema accepts and yields what it yields; any other answer is read by the
//   schema itself, which also words the complaint. The schema's generic parse runs dozens of
//   functions per answer, on code gone cold while the server worked; so request() is handed a
//   schema that takes the answer as it came (UNREAD), and readAnswer reads it.
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { z } from 'zod';

/** The result schema handed to the SDK's request(): the answer as it came, read by readAnswer. */
export const UNREAD = z.unknown();

export interface ToolChecks {
  /** The output-schema check of each tool that declares one. */
  readonly output: ReadonlyMap<string, JsonSchemaValidator<unknown>>;
  /** Tools that can only run as tasks (the SDK's experimental API), refused as its callTool refuses them. */
  readonly taskRequired: ReadonlySet<string>;
}

export const NO_CHECKS: ToolChecks = { output: new Map(), taskRequired: new Set() };

/**
 * The checks of a server's whole tool list (every page), each schema compiled once here. One validator
 * maker per listing, as the SDK has one per client: a schema's $id names it within its maker, and two
 * servers (or two listings of one) may give one $id different schemas.
 */
export function toolChecks(tools: readonly McpTool[]): ToolChecks {
  const output = new Map<string, JsonSchemaValidator<unknown>>();
  const taskRequired = new Set<string>();
  let schemas: AjvJsonSchemaValidator | undefined;
  for (const t of tools) {
    if (t.outputSchema) output.set(t.name, (schemas ??= new AjvJsonSchemaValidator()).getValidator(t.outputSchema as never));
    if (t.execution?.taskSupport === 'required') taskRequired.add(t.name);
  }
  return output.size || taskRequired.size ? { output, taskRequired } : NO_CHECKS;
}

/** The error the SDK's callTool throws before sending a call to a task-only tool; undefined for any other. */
export function refusedCall(tool: string, checks: ToolChecks): McpError | undefined {
  if (!checks.taskRequired.has(tool)) return undefined;
  return new McpError(ErrorCode.InvalidRequest, `Tool "${tool}" requires task-based execution. Use client.experimental.tasks.callToolStream() instead.`);
}

const OBJECT = Object.prototype;

/** True when `raw` is text blocks only (each exactly type and text) with perhaps a boolean isError: the schema would yield it unchanged. */
function plainText(raw: unknown): raw is CallToolResult {
  if (typeof raw !== 'object' || raw === null || Object.getPrototypeOf(raw) !== OBJECT) return false;
  let content: unknown;
  for (const key in raw) {
    const v = (raw as Record<string, unknown>)[key];
    if (key === 'content') content = v;
    else if (key !== 'isError' || typeof v !== 'boolean') return false;
  }
  if (!Array.isArray(content)) return false;
  for (const b of content as unknown[]) {
    if (typeof b !== 'object' || b === null || Object.getPrototypeOf(b) !== OBJECT) return false;
    const block = b as Record<string, unknown>;
    if (block.type !== 'text' || typeof block.text !== 'string') return false;
    // type and text only: any other field (annotations, _meta) is the schema's to check or strip.
    let keys = 0;
    for (const k in block) if (k === 'type' || k === 'text') keys++;
    else return false;
    if (keys !== 2) return false;
  }
  return true;
}

/**
 * The answer to a call of `tool` as the SDK's callTool would answer it, or the error it would throw:
 * the schema's complaint (a ZodError) or the output schema's (an McpError).
 */
export function readAnswer(tool: string, raw: unknown, checks: ToolChecks): CallToolResult {
  let result: CallToolResult;
  if (plainText(raw)) result = raw;
  else {
    const parsed = CallToolResultSchema.safeParse(raw);
    if (!parsed.success) throw parsed.error;
    result = parsed.data;
  }
  const validate = checks.output.get(tool);
  if (validate) checkStructured(tool, result, validate);
  return result;
}

/** The SDK's callTool's check of a tool with an output schema, with its errors. */
function checkStructured(tool: string, result: CallToolResult, validate: JsonSchemaValidator<unknown>): void {
  if (!result.structuredContent && !result.isError) {
    throw new McpError(ErrorCode.InvalidRequest, `Tool ${tool} has an output schema but did not return structured content`);
  }
  if (!result.structuredContent) return;
  let verdict: ReturnType<JsonSchemaValidator<unknown>>;
  try {
    verdict = validate(result.structuredContent);
  } catch (e) {
    throw new McpError(ErrorCode.InvalidParams, `Failed to validate structured content: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!verdict.valid) throw new McpError(ErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${verdict.errorMessage}`);
}
