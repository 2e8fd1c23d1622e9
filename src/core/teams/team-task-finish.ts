// The ways a claimed task ends or leaves its member, and what each sets off: completing (after the
// quality gates; dependents released and their assignees started), handing in for review, a blocker
// (the task fails, the member's run stops, the lead is told which tasks it strands), approve and
// reject (the feedback goes back to the member, who is started again).
import { ok, fail, type ToolContext, type ToolResult } from '../tools/types';
import { taskLine } from './board-format';
import type { BoardTask, TaskOutcome } from './board-types';
import { runGate, type GatePorts } from './quality-gates';
import type { TeamCaller, TeamService } from './team-service';

const actor = (svc: TeamService, c: TeamCaller) => ({ name: c.name, at: svc.now() });

function afterMath(o: TaskOutcome): string {
  return [
    o.released.length ? `Now claimable: ${o.released.map((t) => `#${t.id} "${t.subject}"${t.assignee ? ` (${t.assignee} is started on it)` : ''}`).join(', ')}.` : '',
    o.stranded.length ? `Stranded (they wait on #${o.task.id}, which will not complete): ${o.stranded.map((t) => `#${t.id} "${t.subject}"`).join(', ')}.` : '',
  ].filter(Boolean).join('\n');
}

/**
 * Runs the team's gates, then the task's own (members only: the lead's own completion and reviewers
 * never trigger them). The task's gates are read from the board, never from the member's call, and
 * only the lead sets them. Resolves with a refusal to return to the member, or undefined when the
 * task may complete.
 */
async function gatesRefuse(svc: TeamService, c: TeamCaller, task: BoardTask, result: string, ports: GatePorts | undefined, ctx: ToolContext): Promise<ToolResult | undefined> {
  const gates = [...c.team.gates, ...task.gates];
  if (c.role !== 'member' || !gates.length) return undefined;
  if (!ports) return fail('This task has quality gates, and nothing here can run them: ask the lead to complete the task.');
  const board = await svc.board();
  let failures = task.gateFailures;
  for (const gate of gates) {
    const out = await runGate(gate, task, result, ports, ctx, c);
    if (out.passed) {
      await board.recordGate(c.team.id, task.id, { name: gate.name, passed: true, feedback: out.feedback }, { name: 'gate', at: svc.now() });
      continue;
    }
    if (!gate.blockOnFailure) {
      await board.recordGate(c.team.id, task.id, { name: gate.name, passed: false, feedback: `${out.feedback} (recorded only)` }, { name: 'gate', at: svc.now() });
      continue;
    }
    failures++;
    const final = failures > gate.maxRetries;
    await board.recordGate(c.team.id, task.id, { name: gate.name, passed: false, feedback: out.feedback, fail: final }, { name: 'gate', at: svc.now() });
    if (final) {
      await board.send(c.team.id, c.name, [c.team.lead], `[${c.name}] Task #${task.id} "${task.subject}" failed quality gate ${gate.name} ${failures} times and is failed now. Last feedback: ${out.feedback}`, svc.now());
      if (c.runId) svc.stopRun(c.runId, `Task #${task.id} failed its quality gate for good.`);
      return fail(`Quality gate ${gate.name} failed again (${failures} failures, ${gate.maxRetries} retries allowed): task #${task.id} is failed and the lead is told. Stop working on it.\nFeedback: ${out.feedback}`);
    }
    return fail(`Not completed: quality gate ${gate.name} failed. Fix this and complete again (${gate.maxRetries - failures + 1} attempt${gate.maxRetries - failures + 1 === 1 ? '' : 's'} left).\nFeedback: ${out.feedback}`);
  }
  return undefined;
}

export async function completeTask(svc: TeamService, c: TeamCaller, id: number, result: string, gates: GatePorts | undefined, ctx: ToolContext): Promise<ToolResult> {
  const board = await svc.board();
  const task = await board.get(c.team.id, id);
  if (!task) return fail(`There is no task #${id} on team ${c.team.id}.`);
  if (task.status !== 'in_progress' || task.owner !== c.name) return fail(`Refused: only the holder of task #${id}'s claim may complete it, while it is in progress (claim it first).`);
  if (task.requireReview) return fail(`Task #${id} requires review: hand in your result with action "review"; the lead approves it.`);
  const refused = await gatesRefuse(svc, c, task, result, gates, ctx);
  if (refused) return refused;
  const o = await board.complete(c.team.id, id, result, actor(svc, c));
  await svc.activateReleased(c, o.released);
  return ok([`Completed: ${taskLine(o.task)}`, afterMath(o)].filter(Boolean).join('\n'));
}

export async function handIn(svc: TeamService, c: TeamCaller, id: number, result: string): Promise<ToolResult> {
  const board = await svc.board();
  const t = await board.submitForReview(c.team.id, id, result, actor(svc, c));
  if (c.name !== c.team.lead) await board.send(c.team.id, c.name, [c.team.lead], `[${c.name}] Task #${t.id} "${t.subject}" is ready for your review: ${result}`, svc.now());
  return ok(`Handed in for review: ${taskLine(t)}. The lead approves it or sends it back with feedback.`);
}

export async function reportBlocker(svc: TeamService, c: TeamCaller, id: number, text: string): Promise<ToolResult> {
  const board = await svc.board();
  const o = await board.comment(c.team.id, id, 'blocker', text, actor(svc, c));
  const strands = afterMath(o);
  await board.send(c.team.id, c.name, [c.team.lead], `[${c.name}] Blocker on task #${id} "${o.task.subject}" (now failed): ${text}${strands ? `\n${strands}` : ''}`, svc.now());
  // The member's work on it is over: its run stops once this result is back (it may be this very run).
  if (c.runId) svc.stopRun(c.runId, `Stopped after reporting a blocker on task #${id}.`);
  return ok(`Task #${id} is failed with your blocker, and the lead is told. Your run ends here.${strands ? `\n${strands}` : ''}`);
}

export async function approveTask(svc: TeamService, c: TeamCaller, id: number, note: string): Promise<ToolResult> {
  const o = await (await svc.board()).approve(c.team.id, id, note, actor(svc, c));
  await svc.activateReleased(c, o.released);
  return ok([`Approved: ${taskLine(o.task)}`, afterMath(o)].filter(Boolean).join('\n'));
}

export async function rejectTask(svc: TeamService, c: TeamCaller, id: number, feedback: string): Promise<ToolResult> {
  const t = await (await svc.board()).reject(c.team.id, id, feedback, actor(svc, c));
  if (t.assignee && t.assignee !== c.team.lead) {
    await svc.activate(c, t.assignee, `The lead sent task #${t.id} "${t.subject}" back to you with this feedback:\n${feedback}\nClaim it again, fix it, and hand it in again.`);
  }
  return ok(`Sent back: ${taskLine(t)}. ${t.assignee ?? 'Its member'} has the feedback.`);
}

/** What activating `who` did, for the lead. */
export const startedText = (who: string, run: { started: boolean } | undefined) => (run === undefined ? ''
  : run.started ? `${who} is started on it.` : `${who} is busy with another run and is started on this when that run ends.`);

/** The lead (or a person on the board) gives the task to `who`, who is started on it once nothing blocks it. */
export async function assignTask(svc: TeamService, c: TeamCaller, id: number, who: string): Promise<ToolResult> {
  const board = await svc.board();
  const before = await board.get(c.team.id, id);
  const t = await board.assign(c.team.id, id, who, actor(svc, c));
  // Reassigning a task in progress takes the claim from its holder: that run's work on it is over.
  if (before?.runId && before.owner !== who) svc.stopRun(before.runId, `Task #${id} was reassigned to ${who}.`);
  const started = t.openBlockers.length === 0 ? await svc.activate(c, who, `Task #${t.id} "${t.subject}" is assigned to you: claim it and work on it.`) : undefined;
  return ok(`Assigned ${taskLine(t)}.${started ? ` ${startedText(who, started)}` : t.openBlockers.length ? ` ${who} starts once its blockers are completed.` : ''}`);
}

/** Cancels the task, stops the run working on it, and names the tasks it strands. */
export async function cancelTask(svc: TeamService, c: TeamCaller, id: number, reason: string): Promise<ToolResult> {
  const board = await svc.board();
  const before = await board.get(c.team.id, id);
  const o = await board.cancel(c.team.id, id, reason, actor(svc, c));
  if (before?.runId) svc.stopRun(before.runId, `Task #${id} was cancelled by ${c.name === c.team.lead ? 'the lead' : c.name}.`);
  const stranded = o.stranded.length ? `\nStranded (they wait on #${id}): ${o.stranded.map((t) => `#${t.id} "${t.subject}"`).join(', ')} — cancel them, retry #${id}, or change their blocked_by.` : '';
  return ok(`Cancelled ${taskLine(o.task)}.${stranded}`, { details: { stranded: o.stranded.map((t) => t.id) } });
}

/** A failed or cancelled task back to pending; its assignee is started on it when nothing blocks it. */
export async function retryTask(svc: TeamService, c: TeamCaller, id: number, reason: string): Promise<ToolResult> {
  const t = await (await svc.board()).retry(c.team.id, id, reason, actor(svc, c));
  const started = t.assignee && t.openBlockers.length === 0 ? await svc.activate(c, t.assignee, `Task #${t.id} "${t.subject}" is back on the board for you: claim it and work on it.`) : undefined;
  return ok(`Back to pending: ${taskLine(t)}.${started ? ` ${startedText(t.assignee!, started)}` : ''}`);
}
