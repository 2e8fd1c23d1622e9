// Shared set-up for the agent-loop tests: a real PincerRuntime with real test tools, the scripted
// provider, an instant backoff sleep that records its waits, and the turn's events collected.
import { z } from 'zod';
import { runAgentTurn, turnTools } from '../../../src/core/agent/agent-loop';
import type { AgentLoopDeps, TurnEvent, TurnInput } from '../../../src/core/agent/agent-types';
import type { ModelMessage, ToolResultPart } from '../../../src/core/agent/model-types';
import { defineTool, ok, type Tool } from '../../../src/core/tools/types';
import { ScriptedProvider, type Reply } from '../../support/scripted-provider';
import { echoTool, runtimeWith, sleepTool } from '../../support/test-tools';

/** A mutating tool that records when each call starts and ends, to see order and overlap. */
export function journalTool(log: string[]): Tool {
  return defineTool({
    name: 'journal', group: 'fs', capability: 'mutating', description: 'Writes an entry to the journal. Slowly.',
    parameters: z.object({ entry: z.string(), ms: z.number().min(0).default(0) }).strict(),
    async execute(args, ctx) {
      log.push(`start ${args.entry}`);
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, args.ms);
        ctx.signal.addEventListener('abort', () => { clearTimeout(t); reject(ctx.signal.reason); }, { once: true });
      });
      log.push(`end ${args.entry}`);
      return ok(`wrote ${args.entry}`);
    },
  }) as Tool;
}

export interface HarnessOptions {
  settings?: Record<string, unknown>;
  tools?: Tool[];
  deps?: Partial<AgentLoopDeps>;
}

export function harness(script: Reply[], opts: HarnessOptions = {}) {
  const journal: string[] = [];
  const rt = runtimeWith({ 'rateLimit.enabled': false, ...opts.settings }, [echoTool as Tool, sleepTool as Tool, journalTool(journal), ...(opts.tools ?? [])]);
  const provider = new ScriptedProvider(script);
  const events: TurnEvent[] = [];
  const sleeps: number[] = [];
  const deps: AgentLoopDeps = {
    provider, runtime: rt, model: 'scripted-1',
    sleep: async (ms) => { sleeps.push(ms); },
    random: () => 0.5,
    ...opts.deps,
  };
  const offered = turnTools(rt.registry, rt.registry.policyRequest(rt.context({ channel: 'chat', provider: provider.id })));
  const run = (over: Partial<TurnInput> = {}) => runAgentTurn(deps, {
    sessionKey: 'chat:s1', agentId: 'default', turnId: 't1', history: [], user: 'hello', system: 'You are a test.',
    tools: offered.tools, signal: new AbortController().signal, onEvent: (e) => events.push(e), ...over,
  });
  return { rt, provider, events, sleeps, journal, deps, run, offered };
}

/** The tool results of a turn's messages, in order. */
export function resultsOf(messages: readonly ModelMessage[]): ToolResultPart[] {
  return messages.flatMap((m) => m.parts.filter((p): p is ToolResultPart => p.type === 'tool-result'));
}

/** Every tool call in `messages` has exactly one result, after it. */
export function everyCallAnswered(messages: readonly ModelMessage[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call') open.add(p.id);
      if (p.type === 'tool-result' && !open.delete(p.id)) return false;
    }
  }
  return open.size === 0;
}

export function texts(events: readonly TurnEvent[]): string {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
}
