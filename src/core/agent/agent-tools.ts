// Running one response's tool calls through the execute pipeline. Order is what the model wrote:
// consecutive read-only calls form a batch that runs in parallel (the pipeline's session lock lets
// readers share), every other call runs alone, and batches run one after another — so a read the
// model placed after a write sees the write. Calls whose capability is unknown (an unknown name, a
// tool removed meanwhile) run alone, as the pipeline would treat them. Results come back in call order.
import { stableJson } from '../guard/stable-json';
import type { PolicyRequest } from '../policy/policy-engine';
import type { Registry } from '../tools/registry';
import { fail, type ToolContext, type ToolOutcome, type ToolProgress, type ToolResult } from '../tools/types';
import { TurnCancelled, untilAborted } from './agent-abort';
import { notRun } from './agent-messages';
import type { AgentRuntime, TurnEvent } from './agent-types';
import type { ModelTool, ToolCallPart, ToolResultPart } from './model-types';

export interface ToolRunOptions {
  runtime: AgentRuntime;
  ctx: ToolContext;
  iteration: number;
  now: () => number;
  emit: (e: TurnEvent) => void;
}

export interface ToolRunOutcome {
  /** One per call, in call order. */
  results: ToolResultPart[];
  /** The loop detector's reason, when a result halted the run. */
  halt?: string;
  cancelled: boolean;
  /** Deferred tools the results found (mcp_tool_search), to offer for the rest of the turn. */
  offered: string[];
  /** The only tools the rest of the turn may use (use_skill's narrowTools, intersected when several); undefined: unchanged. */
  narrow?: string[];
}

const ARGS_DISPLAY_CHARS = 1000;
const PREVIEW_CHARS = 500;

/** The tools to offer, and their aliases for the system prompt, for the caller `ctx` describes. */
export function turnTools(registry: Registry, req: PolicyRequest): { tools: ModelTool[]; aliases: { name: string; target: string }[] } {
  const defs = registry.definitions(req);
  return { tools: defs.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })), aliases: defs.aliases };
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function argsForDisplay(runtime: AgentRuntime, args: unknown): string {
  let text: string;
  try {
    text = typeof args === 'string' ? args : stableJson(args ?? {});
  } catch {
    text = String(args);
  }
  return runtime.registry.deps.scrubber.scrub(shorten(text, ARGS_DISPLAY_CHARS));
}

function isReadOnly(registry: Registry, call: ToolCallPart): boolean {
  return !call.malformed && registry.resolve(call.name)?.tool.capability === 'read-only';
}

/** Consecutive read-only calls together, every other call on its own. */
function batches(registry: Registry, calls: readonly ToolCallPart[]): number[][] {
  const out: number[][] = [];
  calls.forEach((call, i) => {
    const last = out[out.length - 1];
    if (isReadOnly(registry, call) && last && isReadOnly(registry, calls[last[0]])) last.push(i);
    else out.push([i]);
  });
  return out;
}

export async function runToolCalls(calls: readonly ToolCallPart[], opts: ToolRunOptions): Promise<ToolRunOutcome> {
  const { runtime, ctx, iteration, emit } = opts;
  const results: (ToolResultPart | undefined)[] = calls.map(() => undefined);
  const ended = new Set<number>();
  let halt: string | undefined;
  const offered: string[] = [];
  let narrow: string[] | undefined;

  const end = (i: number, result: ToolResultPart, outcome: ToolOutcome, args: string, startedAt: number, preview: string) => {
    if (ended.has(i)) return;
    ended.add(i);
    results[i] = result;
    emit({ type: 'tool-end', iteration, id: result.id, name: result.name, args, durationMs: Math.max(0, opts.now() - startedAt), isError: result.isError, outcome, preview: shorten(preview, PREVIEW_CHARS) });
  };

  const runOne = async (i: number, started: Map<number, { args: string; at: number }>) => {
    const call = calls[i];
    const args = argsForDisplay(runtime, call.args);
    const at = opts.now();
    started.set(i, { args, at });
    emit({ type: 'tool-start', iteration, id: call.id, name: call.name, args });
    // Unknown names and unreadable arguments go through the pipeline too: it answers with the tools
    // that exist, or with why the arguments did not arrive whole and how to avoid it.
    let r: ToolResult;
    try {
      const onProgress = (p: ToolProgress) => emit({ type: 'tool-progress', iteration, id: call.id, name: call.name, args, ...p });
      r = await runtime.registry.execute(call.name, call.args, { ...ctx, onProgress }, call.malformed !== undefined ? { malformed: call.malformed } : undefined);
    } catch (e) {
      // The pipeline turns tool failures into results; this is a defect in the pipeline itself.
      r = fail(runtime.registry.deps.scrubber.scrub(`${call.name} failed inside Pincer: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (r.halt && !halt) halt = r.halt.reason;
    if (r.offerTools) offered.push(...r.offerTools);
    if (r.narrowTools) narrow = narrow ? narrow.filter((n) => r.narrowTools!.includes(n)) : [...r.narrowTools];
    const part: ToolResultPart = { type: 'tool-result', id: call.id, name: call.name, content: r.forLLM, isError: r.isError, ...(r.images?.length ? { images: r.images } : {}) };
    end(i, part, r.outcome ?? (r.isError ? 'error' : 'ok'), args, at, r.forUser ?? r.forLLM);
  };

  for (const batch of batches(runtime.registry, calls)) {
    if (halt || ctx.signal.aborted) break;
    const started = new Map<number, { args: string; at: number }>();
    try {
      await untilAborted(Promise.all(batch.map((i) => runOne(i, started))), ctx.signal);
    } catch (e) {
      if (!(e instanceof TurnCancelled)) throw e;
      // Calls still running were cancelled through the same signal; do not wait for them.
      for (const [i, s] of started) {
        const content = `${calls[i].name} was cancelled by the user while it ran.`;
        if (!ended.has(i)) end(i, { type: 'tool-result', id: calls[i].id, name: calls[i].name, content, isError: true }, 'cancelled', s.args, s.at, content);
      }
      break;
    }
  }
  const cancelled = ctx.signal.aborted && !halt;
  const why = halt ? 'the run was stopped by loop detection before this call.' : 'the user cancelled the turn before this call.';
  return { results: results.map((r, i) => r ?? notRun(calls[i], why)), halt, cancelled, offered, ...(narrow ? { narrow } : {}) };
}
