// Errors whose message already tells the model what went wrong and what to do next: a path the guard
// refused (PathError), a memory or context-file problem (MemoryError), a session refusal
// (SessionError). A tool lets them propagate; defineTool and the pipeline turn them into error results
// with this one function.
// Matched by name, not class: a bundle loaded beside host-core (the chat) has its own copies of the
// classes, and its errors must be recognised too.
import type { ToolResult } from './types';

const KNOWN = new Set(['PathError', 'MemoryError', 'SessionError']);

export function isKnownToolError(e: unknown): e is Error & { code?: string } {
  return e instanceof Error && KNOWN.has(e.name);
}

/** The error result for a known error, or undefined for anything else. */
export function knownErrorResult(e: unknown): ToolResult | undefined {
  if (!isKnownToolError(e)) return undefined;
  return { forLLM: e.message, isError: true, details: e.code === undefined ? {} : { code: e.code } };
}
