// Quality gates: checks that run before a member's `complete` is accepted. A `command` gate runs a
// shell command through exec as the member (so the command judge and approvals apply exactly as to
// any command the member runs); exit 0 passes and the output's tail is the feedback. An `agent` gate
// asks a reviewer agent, which must answer APPROVED or REJECTED: feedback. Reviewers are not members:
// the team tools refuse them, so a reviewer's own work can never complete a task or trigger a gate.
import type { Registry } from '../tools/registry';
import type { ToolContext } from '../tools/types';
import type { SubagentManager } from '../subagents/subagent-manager';
import type { BoardTask } from './board-types';
import type { GateDefinition } from './team-definition';
import type { TeamCaller } from './team-service';

export interface GatePorts {
  /** Runs `command` as the caller, through exec's judge and approvals. */
  command(command: string, ctx: ToolContext): Promise<{ passed: boolean; output: string }>;
  /** Starts `agent` on `prompt` and resolves with its final answer. */
  review(agent: string, prompt: string, caller: TeamCaller): Promise<string>;
}

export interface GateOutcome {
  gate: GateDefinition;
  passed: boolean;
  feedback: string;
}

const FEEDBACK_CHARS = 2000;
const tail = (s: string) => (s.length > FEEDBACK_CHARS ? `…${s.slice(-FEEDBACK_CHARS)}` : s);

/** APPROVED passes; REJECTED: feedback fails with it; anything else fails, saying so. */
export function readVerdict(answer: string): { passed: boolean; feedback: string } {
  const text = answer.trim();
  if (/^\**APPROVED\b/i.test(text)) return { passed: true, feedback: text.replace(/^\**APPROVED\**:?\s*/i, '') || 'approved' };
  const rejected = /^\**REJECTED\**:?\s*([\s\S]*)$/i.exec(text);
  if (rejected) return { passed: false, feedback: rejected[1]!.trim() || 'rejected without feedback' };
  return { passed: false, feedback: `the reviewer answered neither APPROVED nor REJECTED: ${tail(text)}` };
}

export function reviewPrompt(task: BoardTask, result: string): string {
  return [
    `Review the result of task #${task.id} "${task.subject}" of the team board.`,
    `Task description:\n${task.description || '(none)'}`,
    `The member's result:\n${result}`,
    'Check the work (read the files it names if you need to). Answer with exactly APPROVED, or REJECTED: followed by what must change.',
  ].join('\n\n');
}

/** Runs one gate; a port that throws counts as a failure with its message. */
export async function runGate(gate: GateDefinition, task: BoardTask, result: string, ports: GatePorts, ctx: ToolContext, caller: TeamCaller): Promise<GateOutcome> {
  try {
    if (gate.kind === 'command') {
      const out = await ports.command(gate.command!, ctx);
      return { gate, passed: out.passed, feedback: tail(out.output) };
    }
    return { gate, ...readVerdict(await ports.review(gate.agent!, reviewPrompt(task, result), caller)) };
  } catch (e) {
    return { gate, passed: false, feedback: `the gate could not run: ${(e as Error).message}` };
  }
}

/** The ports over the window's real machinery: the tool registry's exec and the subagent manager. */
export function gatePorts(registry: () => Registry, manager: () => SubagentManager | undefined): GatePorts {
  return {
    async command(command, ctx) {
      // Its own session key: the member's session is held by the team_tasks call that runs this gate
      // (a mutating call runs alone in its session), so exec under that key would wait for itself.
      const r = await registry().execute('exec', { command }, { ...ctx, sessionKey: `${ctx.sessionKey}:gate`, offeredTools: undefined, requestAllow: undefined });
      return { passed: !r.isError && r.details?.exitCode === 0, output: r.forLLM };
    },
    async review(agent, prompt, caller) {
      const m = manager();
      if (!m) throw new Error('reviewer agents need a model, and this entry point has none');
      const child = await m.spawn({ parentSessionKey: caller.leadSessionKey, callerAgentId: caller.team.lead, callerDepth: 0, task: prompt, label: `${caller.team.id}: review`, agent, mode: 'run' });
      const done = await m.settled(child.id);
      if (done?.status !== 'done') throw new Error(`the reviewer's run ${done?.status ?? 'vanished'}: ${done?.result ?? ''}`);
      return done.result ?? '';
    },
  };
}
