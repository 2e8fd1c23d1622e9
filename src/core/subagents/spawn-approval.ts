// pincer.subagents.askBeforeSpawn through the approval prompt commands already use: the person sees
// the child's task and agent and answers yes or no. "Always" is never offered: the setting is the
// place to stop being asked.
import { randomUUID } from 'node:crypto';
import type { Approver, ExecHostKind } from '../exec/exec-types';
import type { SubagentManagerDeps } from './subagent-manager';

export function confirmThrough(approver: Approver, opts: { cwd: () => string; host: ExecHostKind }): NonNullable<SubagentManagerDeps['confirm']> {
  return async ({ record, background }, signal) => {
    const agent = record.agentId === 'default' ? 'a copy of the calling agent' : `agent "${record.agentId}"`;
    const { answer } = await approver.request({
      id: randomUUID(), tool: 'spawn', command: record.task, cwd: opts.cwd(), host: opts.host,
      reason: `${background ? 'A background subagent' : 'A subagent'} (${record.label ?? record.id}, ${agent}, depth ${record.depth}) wants to start with this task.`,
      segments: [], alwaysUnavailable: 'Subagents are confirmed one by one; set pincer.subagents.askBeforeSpawn to change when you are asked.',
      sessionKey: record.parentSessionKey, agentId: record.agentId,
    }, signal);
    return answer === 'once' || answer === 'always';
  };
}
