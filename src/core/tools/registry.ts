// The registry: the tools Pincer knows, how names resolve, what providers are shown, and the one
// entry point every call goes through (`execute`, implemented in execute.ts). Whoever calls a tool —
// the agent loop, a subagent, the command palette, VS Code's own agent, the CLI, an MCP client —
// calls Registry.execute; there is no second path.
import { z } from 'zod';
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import { Emitter } from '../events';
import type { LoopDetector } from '../guard/loop-detector';
import type { RateLimiter } from '../guard/rate-limiter';
import type { Scrubber } from '../guard/scrubber';
import { ToolTiming } from '../guard/tool-timing';
import { ALIASES } from '../policy/groups';
import type { PolicyEngine, PolicyRequest } from '../policy/policy-engine';
import type { CallEnd, CallStart, SlowNotice } from './call-record';
import { executeCall } from './execute';
import { SessionLocks } from './session-lock';
import type { CallOptions, Tool, ToolContext, ToolResult } from './types';

export interface RuntimeLimits {
  /** Cap on what the model sees from one result. */
  maxResultChars: number;
  /** Cap on what a person sees (documents, the log); larger, but still bounded. */
  maxUserChars: number;
  /** Time limit for a call when neither the tool nor the caller sets a shorter one. */
  defaultTimeoutMs: number;
}

export const DEFAULT_LIMITS: RuntimeLimits = { maxResultChars: 60_000, maxUserChars: 400_000, defaultTimeoutMs: 300_000 };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the parameters, top level `type: object`. */
  parameters: Record<string, unknown>;
}

export interface RegistryDeps {
  policy: PolicyEngine;
  scrubber: Scrubber;
  rateLimiter: RateLimiter;
  loops: LoopDetector;
  timing?: ToolTiming;
  limits?: RuntimeLimits;
  clock?: Clock;
}

export class Registry {
  readonly onCallStart = new Emitter<CallStart>();
  readonly onCallEnd = new Emitter<CallEnd>();
  readonly onSlow = new Emitter<SlowNotice>();

  private readonly tools = new Map<string, Tool>();
  private readonly schemas = new Map<string, Record<string, unknown>>();
  readonly locks = new SessionLocks();
  readonly timing: ToolTiming;
  readonly clock: Clock;
  limits: RuntimeLimits;

  constructor(readonly deps: RegistryDeps) {
    this.timing = deps.timing ?? new ToolTiming();
    this.limits = deps.limits ?? DEFAULT_LIMITS;
    this.clock = deps.clock ?? systemClock;
  }

  register(tool: Tool): void {
    if (!/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/.test(tool.name)) {
      throw new Error(`Tool name "${tool.name}" is not accepted by model providers (letters, digits, _ . : -; at most 64).`);
    }
    if (this.tools.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered; names must be unique.`);
    this.tools.set(tool.name, tool);
    this.schemas.delete(tool.name);
    this.deps.policy.setTools(this.policyTools());
  }

  unregister(name: string): boolean {
    const had = this.tools.delete(name);
    this.schemas.delete(name);
    if (had) this.deps.policy.setTools(this.policyTools());
    return had;
  }

  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The registered names, unsorted: for a set, without list()'s localeCompare, whose first call in a
   * process loads ICU's collation data (milliseconds the first tool call would pay).
   */
  names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Real tools before aliases: a registered tool named like an alias shadows the alias. */
  resolve(name: string): { tool: Tool; alias?: string } | undefined {
    const real = this.tools.get(name);
    if (real) return { tool: real };
    const target = ALIASES[name];
    const aliased = target ? this.tools.get(target) : undefined;
    return aliased ? { tool: aliased, alias: name } : undefined;
  }

  policyRequest(ctx: ToolContext): PolicyRequest {
    return {
      agentId: ctx.agentId, provider: ctx.provider, channel: ctx.channel, depth: ctx.subagentDepth,
      isOwner: ctx.isOwner, trusted: ctx.workspaceTrusted, requestAllow: ctx.requestAllow, profileOverride: ctx.profileOverride,
    };
  }

  /**
   * What a provider is shown for this caller: allowed tools sorted by name, then the aliases of
   * allowed tools (one line each in the system prompt), so the prompt prefix is stable across
   * requests and provider caches hit.
   */
  definitions(req: PolicyRequest): { tools: ToolDefinition[]; aliases: { name: string; target: string }[] } {
    const allowed = this.deps.policy.evaluate(req).allowed;
    const tools = allowed.map((n) => this.tools.get(n)!).filter((t) => !t.deferred).map((t) => this.definition(t));
    const aliases = Object.entries(ALIASES)
      .filter(([alias, target]) => allowed.includes(target) && !this.tools.has(alias))
      .map(([name, target]) => ({ name, target }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { tools, aliases };
  }

  /** The definitions of these tools (deferred ones included) that the policy allows this caller, in the order given. */
  definitionsOf(names: readonly string[], req: PolicyRequest): ToolDefinition[] {
    const allowed = new Set(this.deps.policy.evaluate(req).allowed);
    return names.filter((n) => allowed.has(n)).map((n) => this.definition(this.tools.get(n)!));
  }

  private definition(t: Tool): ToolDefinition {
    return { name: t.name, description: t.description, parameters: this.jsonSchema(t) };
  }

  jsonSchema(tool: Tool): Record<string, unknown> {
    let s = this.schemas.get(tool.name);
    if (!s) {
      s = z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      delete s.$schema;
      if (s.type !== 'object') s = { type: 'object', properties: {}, ...s };
      this.schemas.set(tool.name, s);
    }
    return s;
  }

  execute(name: string, args: unknown, ctx: ToolContext, opts?: CallOptions): Promise<ToolResult> {
    return executeCall(this, name, args, ctx, opts);
  }

  private policyTools() {
    return [...this.tools.values()].map((t) => ({ name: t.name, group: t.group, capability: t.capability, ownerOnly: t.ownerOnly, mcpServer: t.mcpServer }));
  }
}
