// spawn (alias sessions_spawn): start child agents for parts of a task, in the background (`spawn`)
// or waiting for the answer (`run`); list, cancel, steer and wait for the caller's own children. A
// child is a full agent loop in its own session, with tools through the policy at the next depth.
import { z } from 'zod';
import type { AgentDefinition } from '../../agents/types';
import { agentCatalogue } from '../../subagents/subagent-agents';
import { listLine, nameOf, resultBlock } from '../../subagents/subagent-format';
import type { SubagentManager } from '../../subagents/subagent-manager';
import type { SubagentRecord } from '../../subagents/types';
import { defineTool, fail, ok, type ToolContext, type ToolResult } from '../../tools/types';

const parameters = z.object({
  action: z.enum(['spawn', 'run', 'list', 'cancel', 'steer', 'wait']).describe(
    'spawn: start a child in the background (returns its id at once; its result arrives as a message before your next step). '
    + 'run: start a child and wait for its answer. list: your children. cancel: stop a child (id, "last" or "all"). '
    + 'steer: stop a child and restart it with a new instruction after its transcript. wait: block until children finish.'),
  task: z.string().min(1).max(20_000).optional().describe('spawn/run: the complete task; the child sees nothing else of this conversation.'),
  label: z.string().min(1).max(80).optional().describe('spawn/run: a short name for the child.'),
  agent: z.string().min(1).max(64).optional().describe('spawn/run: the agent to start (see the list); default a copy of you.'),
  id: z.string().min(1).optional().describe('cancel: a child id, "last" or "all". steer: a child id.'),
  message: z.string().min(1).max(20_000).optional().describe('steer: the new instruction.'),
  ids: z.array(z.string().min(1)).max(64).optional().describe('wait: these children (default every child you started that has not reported).'),
  timeoutSeconds: z.number().int().min(1).max(3600).optional().describe('wait: give up after this long (default 300); children keep running.'),
}).strict();

type Args = z.infer<typeof parameters>;

const DESCRIPTION = 'Starts child agents (subagents) for self-contained parts of a task and collects their results. '
  + 'Use spawn for parallel background work and then wait (or keep working: results arrive on their own), run for one task whose answer you need now. '
  + 'Each result says what the child cost in tokens and time. Children have fewer tools than you and cannot ask the person anything; '
  + 'the number running at once, their depth and their token budgets are limited.';

export function createSpawnTool(manager: () => SubagentManager | undefined, agents: () => readonly AgentDefinition[] = () => []) {
  const list = agentCatalogue(agents());
  return defineTool({
    name: 'spawn',
    description: list ? `${DESCRIPTION}\nAgents a child may be started as:\n${list}` : DESCRIPTION,
    parameters,
    group: 'sessions',
    capability: 'external',
    // It may wait for a person (askBeforeSpawn) and for children, whose own limits bound the wait.
    interactive: true,
    async execute(args, ctx) {
      const m = manager();
      if (!m) return fail('Subagents are not available here: no model is configured (pick one with "Pincer: Select Model…").');
      try {
        return await act(m, args, ctx);
      } catch (e) {
        if (e instanceof Error && (e.name === 'SpawnRefused' || e.name === 'AgentReferenceError')) return fail(e.message, { outcome: 'denied' });
        throw e;
      }
    },
  });
}

async function act(m: SubagentManager, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const mine = () => m.list({ parentSessionKey: ctx.sessionKey, includeArchived: true });
  switch (args.action) {
    case 'spawn':
    case 'run': {
      if (!args.task) return fail(`${args.action} needs a task: the complete instructions for the child.`);
      const r = await m.spawn({
        parentSessionKey: ctx.sessionKey, callerAgentId: ctx.agentId, callerDepth: ctx.subagentDepth, task: args.task, mode: args.action,
        ...(args.label ? { label: args.label } : {}), ...(args.agent ? { agent: args.agent } : {}),
      });
      if (args.action === 'spawn') {
        return ok(`Started ${nameOf(r)} in the background. Its result arrives as a message before your next step once it finishes; spawn action=wait blocks until then.`, { details: { id: r.id } });
      }
      const onAbort = () => void m.cancel(r.id, 'Cancelled: its parent\'s turn was stopped.');
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const done = await m.settled(r.id).finally(() => ctx.signal.removeEventListener('abort', onAbort));
      return blockResult(done ?? r);
    }
    case 'list': {
      const rows = mine().filter((r) => !r.archived);
      return ok(rows.length ? rows.map(listLine).join('\n') : 'You have no subagents (finished ones are archived after an hour).', { details: { count: rows.length } });
    }
    case 'cancel': {
      const live = mine().filter((r) => r.status === 'queued' || r.status === 'running');
      const target = args.id ?? '';
      const chosen = target === 'all' ? live : target === 'last' ? live.slice(-1) : mine().filter((r) => r.id === target);
      if (!target) return fail('cancel needs an id: a child id, "last" or "all".');
      if (!chosen.length) return target === 'all' || target === 'last' ? ok('No child of yours is running.') : notMine(target);
      await Promise.all(chosen.map((r) => m.cancel(r.id, 'Cancelled by the agent that started it.')));
      return ok(`Cancelled ${chosen.map((r) => r.id).join(', ')}. Their sessions keep what they did so far.`);
    }
    case 'steer': {
      if (!args.id || !args.message) return fail('steer needs the child\'s id and a message (the new instruction).');
      if (!mine().some((r) => r.id === args.id)) return notMine(args.id);
      const r = await m.steer(args.id, args.message);
      return ok(`Steered ${nameOf(r)}: it continues from its transcript with the new instruction, in the background.`);
    }
    case 'wait': {
      const own = mine();
      const ids = args.ids ?? own.filter((r) => r.status === 'queued' || r.status === 'running' || (r.mode === 'spawn' && !r.delivered)).map((r) => r.id);
      const foreign = ids.find((id) => !own.some((r) => r.id === id));
      if (foreign) return notMine(foreign);
      if (!ids.length) return ok('No child of yours is running or has an unreported result.');
      const records = await m.wait(ids, (args.timeoutSeconds ?? 300) * 1000, ctx.signal);
      const running = records.filter((r) => r.status === 'queued' || r.status === 'running');
      const tail = running.length ? `\n\nStill running after the wait: ${running.map((r) => r.id).join(', ')} (wait again, or cancel them).` : '';
      return ok(records.filter((r) => !running.includes(r)).map(resultBlock).join('\n\n') + tail, { details: { finished: records.length - running.length, running: running.length } });
    }
  }
}

function blockResult(r: SubagentRecord): ToolResult {
  return r.status === 'done' ? ok(resultBlock(r), { details: { id: r.id } }) : fail(resultBlock(r), { details: { id: r.id } });
}

function notMine(id: string): ToolResult {
  return fail(`${id} is not one of your subagents; spawn action=list shows yours.`);
}
