// Composition of the core: one registry with its guards, the built-in tools, and the configuration
// applied to all of them. The extension and the CLI both build exactly this; only the ports differ.
import type { Clock } from './clock';
import { systemClock } from './clock';
import type { PincerConfig } from './config';
import { LoopDetector, type LoopConfig } from './guard/loop-detector';
import { RateLimiter } from './guard/rate-limiter';
import { Scrubber } from './guard/scrubber';
import { ToolTiming } from './guard/tool-timing';
import { PolicyEngine, type PolicyDecision, type PolicyRequest } from './policy/policy-engine';
import { datetimeTool } from './tools/builtin/datetime';
import { createSessionStatusTool } from './tools/builtin/session-status';
import { Registry } from './tools/registry';
import type { Tool, ToolContext, ToolResult } from './tools/types';

export interface RuntimeOptions {
  config: PincerConfig;
  clock?: Clock;
  /** Configuration problems and unknown policy entries; the host shows them once. */
  warn?: (message: string) => void;
}

export class PincerRuntime {
  readonly scrubber = new Scrubber();
  readonly policy: PolicyEngine;
  readonly rateLimiter: RateLimiter;
  readonly loops: LoopDetector;
  readonly timing = new ToolTiming();
  readonly registry: Registry;
  readonly clock: Clock;
  private config: PincerConfig;
  private readonly warn: (message: string) => void;

  constructor(opts: RuntimeOptions) {
    this.clock = opts.clock ?? systemClock;
    this.config = opts.config;
    this.policy = new PolicyEngine(opts.config.policy, [], opts.warn);
    this.warn = opts.warn ?? (() => undefined);
    this.rateLimiter = new RateLimiter(undefined, this.clock);
    this.loops = new LoopDetector();
    this.applyGuards(opts.config);
    this.registry = new Registry({
      policy: this.policy, scrubber: this.scrubber, rateLimiter: this.rateLimiter, loops: this.loops,
      timing: this.timing, limits: opts.config.limits, clock: this.clock,
    });
    this.timing.updateConfig({ defaultSlowMs: opts.config.slowNoticeMs });
    for (const tool of builtinTools(this)) this.registry.register(tool);
  }

  /**
   * Registers a toolset (the file tools, later MCP servers), replacing an earlier one of the same
   * names: the host rebuilds a set when its settings or the workspace folders change.
   */
  replaceTools(tools: Tool[]): void {
    for (const t of tools) this.registry.unregister(t.name);
    for (const t of tools) this.registry.register(t);
  }

  /** Settings changed: every guard takes the new values for the next call, without a reload. */
  applyConfig(config: PincerConfig): void {
    this.config = config;
    this.policy.setConfig(config.policy);
    this.applyGuards(config);
    this.registry.limits = config.limits;
    this.timing.updateConfig({ defaultSlowMs: config.slowNoticeMs });
  }

  /**
   * The guards validate combinations the settings schema cannot (critical below warn, a weight above
   * the burst): a bad combination keeps the previous values and is reported, never thrown at the host.
   */
  private applyGuards(config: PincerConfig): void {
    try {
      this.rateLimiter.updateConfig(config.rateLimit);
    } catch (e) {
      this.warn(`pincer.rateLimit: ${(e as Error).message} The previous rate limit stays in force.`);
    }
    try {
      this.loops.updateConfig(loopConfig(config));
    } catch (e) {
      this.warn(`pincer.loopDetection: ${(e as Error).message} The previous loop settings stay in force.`);
    }
  }

  get currentConfig(): PincerConfig {
    return this.config;
  }

  effectiveTools(req: PolicyRequest): PolicyDecision {
    return this.policy.evaluate(req);
  }

  /** A context with safe defaults for entry points that are not an agent run (palette, CLI). */
  /**
   * A person's own call (a view's button, Run Tool, `pincer cron`): through the one pipeline, as the
   * owner, under every allow and deny list, the owner and the trust checks but not the profile (the
   * menu a model is offered), and a run of its own — loop detection is per turn, so nothing of it
   * outlives it and five identical clicks never halt the next one.
   */
  personCall(name: string, args: unknown, over: Partial<ToolContext> & Pick<ToolContext, 'channel' | 'turnId'>): Promise<ToolResult> {
    const ctx = this.personContext(over);
    return this.registry.execute(name, args, ctx).finally(() => this.loops.forget(ctx.turnId!));
  }

  /** The context of a person's own call: also what a picker of the tools a person may run asks the policy with. */
  personContext(over: Partial<ToolContext> & Pick<ToolContext, 'channel'>): ToolContext {
    return this.context({ ...over, isOwner: true, profileOverride: PERSON_PROFILE });
  }

  context(over: Partial<ToolContext> & Pick<ToolContext, 'channel'>): ToolContext {
    return {
      sessionKey: `${over.channel}:default`, agentId: 'default', subagentDepth: 0,
      // No deadline of the caller's own: the tool's limit (or pincer.tools.timeoutSeconds) applies.
      // A signal of its own only when the caller has none (one per call otherwise, paid for nothing).
      isOwner: true, workspaceTrusted: true, signal: over.signal ?? new AbortController().signal,
      deadline: Number.POSITIVE_INFINITY, ...over,
    };
  }
}

/** The profile a person's own call runs under: every tool, then every list the person wrote. */
export const PERSON_PROFILE = 'full';

function loopConfig(c: PincerConfig): Partial<LoopConfig> {
  return { enabled: c.loopDetection.enabled, historySize: c.loopDetection.historySize, ...c.loopDetection.thresholds };
}

function builtinTools(rt: PincerRuntime): Tool[] {
  return [
    datetimeTool,
    createSessionStatusTool({ allowedTools: (ctx) => rt.policy.evaluate(rt.registry.policyRequest(ctx)).allowed }),
  ] as Tool[];
}
