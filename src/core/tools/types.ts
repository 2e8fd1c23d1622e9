// The contract between the runtime and every tool. One tool instance serves many concurrent calls,
// so everything a call needs arrives in its ToolContext; tools keep no per-call state of their own.
import type { z } from 'zod';
import type { ImagePart } from '../media/image-part';
import { knownErrorResult } from './known-errors';

/** What a tool may do to the world; the policy engine, the rate limiter and the scheduler read it. */
export type Capability = 'read-only' | 'mutating' | 'external';

/** Where a call comes from. Used for per-channel policy, rate-limit keys and the tool log. */
export type Channel = 'chat' | 'palette' | 'lm' | 'cli' | 'subagent' | 'mcp' | 'test' | (string & {});

export interface ToolContext {
  /** Conversation or run this call belongs to; rate limits and loop detection are kept per key. */
  readonly sessionKey: string;
  /**
   * A user turn of an agent run, or one call a person started (palette, sidebar); calls without one
   * belong to their session's single open turn. Checkpoints keep one set of originals per turn, and
   * loop detection judges each turn on its own: a halt ends with the turn that earned it.
   */
  readonly turnId?: string;
  readonly agentId: string;
  readonly channel: Channel;
  /** 0 for the user's agent, 1 for its subagents, and so on. */
  readonly subagentDepth: number;
  /** Whether the caller acts for the owner of this editor (owner-only tools need it). */
  readonly isOwner: boolean;
  /** Model provider of the calling agent (openai, anthropic, vscode-lm …); selects provider policy. */
  readonly provider?: string;
  /** Absolute path of the primary workspace folder, if any. */
  readonly workspaceRoot?: string;
  /** Aborted when the user cancels or the deadline passes; tools must stop promptly. */
  readonly signal: AbortSignal;
  /**
   * Hears the same abort as `signal` without making it. Under the pipeline a call's AbortSignal is
   * made the first time the tool reads `signal` (Node takes microseconds to make one, more than the
   * rest of the pipeline), so a tool that only needs to hear of the abort (the MCP bridge) listens
   * here. A listener added after the abort runs at once. Absent on a context made outside the pipeline.
   */
  readonly onAbort?: (listener: (reason: unknown) => void) => void;
  /** Epoch milliseconds by which the call must finish. */
  readonly deadline: number;
  /** Tool names the model was offered for this request; a call outside it is refused. */
  readonly offeredTools?: ReadonlySet<string>;
  /** A last intersection applied to the policy for this request only (a per-request allow list). */
  readonly requestAllow?: readonly string[];
  /**
   * A profile that replaces the configured ones for this call. A profile is the menu a model is
   * offered; a person's own call (a view's button, Run Tool, `pincer cron`) is not the model's, so it
   * runs under `full` — and still under every allow and deny list, the owner and the trust checks.
   */
  readonly profileOverride?: string;
  /** False in an untrusted workspace: only read-only tools may run. */
  readonly workspaceTrusted: boolean;
  /** Where a long call reports how far it got (an MCP server's progress notifications); the chat shows it on the tool card. */
  readonly onProgress?: (p: ToolProgress) => void;
  /**
   * Whether the model that reads this call's result takes images: false when it is known not to
   * (read_image then says which models would), undefined when not known or no model reads it.
   */
  readonly imageInput?: boolean;
}

/** How far a running call got: `progress` of `total` when the total is known, and what it is doing. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a caller knows about one call beyond its arguments. */
export interface CallOptions {
  /**
   * The provider could not read the arguments (cut off at the output token limit, not JSON): why.
   * The call goes through the pipeline like any other (logged, rate limited, seen by loop detection)
   * and is answered by its arguments step without running.
   */
  malformed?: string;
}

/**
 * How a call ended, as data for the chat, the tool log and the sidebar (never guessed from the text):
 * `denied` — a policy or guard refused it (tool policy, the command judge); `rejected-by-user` — a
 * person said no (a diff, an approval); `cancelled` — the caller aborted; `timed-out` — the deadline.
 */
export type ToolOutcome = 'ok' | 'error' | 'denied' | 'rejected-by-user' | 'cancelled' | 'timed-out';

export interface ToolResult {
  /** What the model sees. */
  forLLM: string;
  /** What a person sees (markdown); defaults to forLLM when a tool has nothing better to show. */
  forUser?: string;
  /**
   * Images for the model beside forLLM (which describes them in words): sent as image parts to
   * providers that take images, as those words' placeholder lines to the others (media/image-part.ts).
   */
  images?: ImagePart[];
  /** True exactly when `outcome` is not 'ok'. */
  isError: boolean;
  /**
   * Set by the pipeline on every result it returns. A tool sets it only to say more than ok/error
   * (`denied`, `rejected-by-user`); the pipeline keeps that and keeps isError consistent with it.
   */
  outcome?: ToolOutcome;
  /** Structured facts about the call (counts, paths, truncation) for UIs and tests; never sent raw. */
  details?: Record<string, unknown>;
  /** Set when the run that made this call must stop (a critical loop, for instance). */
  halt?: { reason: string };
  /** Deferred tools this result found (mcp_tool_search): the agent loop offers them for the rest of the turn. */
  offerTools?: string[];
  /**
   * The only tools the rest of the turn may use (use_skill with a skill's allowed-tools, already
   * intersected with what the turn allowed): the agent loop keeps these and drops the others. It can
   * only narrow: a name the turn did not have is not added.
   */
  narrowTools?: string[];
  /**
   * forLLM is external text (an MCP server's output): the pipeline wraps it in the untrusted-content
   * markers (untrusted-content.ts) after scrubbing and capping it, so the scrubber does not scan the
   * markers' fixed text on every call and the cap never cuts them; `lead` goes before the block.
   */
  untrusted?: { source: string; lead?: string };
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** The model-facing description: what it does, when to use it, what it returns. */
  readonly description: string;
  readonly parameters: S;
  /** Policy group without the `group:` prefix (fs, runtime, web, memory, sessions …). */
  readonly group: string;
  readonly capability: Capability;
  /** Hidden from, and refused to, callers that are not the owner. */
  readonly ownerOnly?: boolean;
  /** Time limit for one call when the caller gives none, in milliseconds. */
  readonly timeoutMs?: number;
  /** A poll-style tool: repeated calls with unchanged results count as "no progress", not as a loop. */
  readonly poll?: boolean;
  /**
   * The call may wait for a person (a diff review, an approval): no default time limit beyond the
   * caller's deadline, no slow-tool notice, and its durations do not feed the timing history.
   */
  readonly interactive?: boolean;
  /** For MCP bridge tools: the server name, which puts the tool in the group `mcp:<server>` too. */
  readonly mcpServer?: string;
  /**
   * Left out of what providers are shown (Registry.definitions) until a search finds it (an MCP
   * server's tool when there are too many to offer at once); the policy applies to it as to any tool.
   */
  readonly deferred?: boolean;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Shorthand constructors that keep tools' return statements short and uniform. */
export function ok(forLLM: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { forLLM, isError: false, ...extra };
}

export function fail(forLLM: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { forLLM, isError: true, ...extra };
}

/**
 * Declares a tool with its argument type inferred from its zod schema. A known error the tool lets
 * propagate (a refused path, a memory or session refusal: known-errors.ts) becomes its error result
 * here, the one place for it, so a tool never repeats that mapping and a direct call (a test, another
 * tool wrapping it) gets the same answer as a call through the pipeline.
 */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  const run = tool.execute;
  return {
    ...tool,
    async execute(args, ctx) {
      try {
        return await run.call(tool, args, ctx);
      } catch (e) {
        const known = knownErrorResult(e);
        if (known) return known;
        throw e;
      }
    },
  };
}
