// What the board says, whichever store holds it (the workspace database or a shared server): the
// refusals a change meets, the audit text a change records, why a claim did not take its task, and
// what a change left open behind it. One wording for both, so an agent (and the tests) cannot tell
// the backends apart.
import type { BoardTask, NewTask, TaskChange, TaskOutcome } from './board-types';
import type { GateDefinition } from './team-definition';

export const refusal = {
  noTask: (id: number, teamId: string) => `Refused: there is no task #${id} on team ${teamId}.`,
  completedFinal: (id: number) => `Refused: task #${id} is completed; completed tasks are final.`,
  notReassignable: (id: number) => `Refused: task #${id} is not pending or in progress, so it cannot be reassigned (retry it first).`,
  notOwner: (id: number, verb: string) => `Refused: only the holder of task #${id}'s claim may ${verb} it, while it is in progress (claim it first).`,
  needsReview: (id: number) => `Refused: task #${id} requires review: hand in your result with action "review"; the lead approves it.`,
  notInReview: (id: number) => `Refused: task #${id} is not in review.`,
  notRetryable: (id: number) => `Refused: only a failed or cancelled task can be retried; #${id} is not.`,
};

/** The words of a search (letters and digits, two or more, at most 32): nothing a person types is read as query syntax. */
export function searchWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).slice(0, 32);
}

/** Gates as the audit trail and the board name them: `npm test (command), reviewer qa (agent)`. */
export function gateNames(gates: readonly GateDefinition[]): string {
  return gates.length ? gates.map((g) => `${g.name} (${g.kind})`).join(', ') : 'none';
}

export function createDetail(input: NewTask, blockers: readonly number[]): string {
  return `created "${input.subject}"${blockers.length ? `, blocked by ${blockers.map((b) => `#${b}`).join(', ')}` : ''}${input.assignee ? `, assigned to ${input.assignee}` : ''}${input.gates?.length ? `, gates ${gateNames(input.gates)}` : ''}`;
}

/** The columns a change sets (in this order) and its audit text. */
export function changeOf(change: TaskChange): { columns: [string, string | number][]; blockers?: number[]; detail: string } {
  const columns: [string, string | number][] = [];
  const said: string[] = [];
  for (const key of ['subject', 'description', 'priority'] as const) {
    if (change[key] === undefined) continue;
    columns.push([key, change[key]!]);
    said.push(key);
  }
  if (change.requireReview !== undefined) {
    columns.push(['require_review', change.requireReview ? 1 : 0]);
    said.push(`review ${change.requireReview ? 'required' : 'not required'}`);
  }
  if (change.gates !== undefined) {
    columns.push(['gates', JSON.stringify(change.gates)]);
    said.push(`gates now ${gateNames(change.gates)}`);
  }
  const blockers = change.blockedBy && [...new Set(change.blockedBy)];
  if (blockers) said.push(`blockers now ${blockers.length ? blockers.map((b) => `#${b}`).join(', ') : 'none'}`);
  return { columns, ...(blockers ? { blockers } : {}), detail: said.join('; ') || 'no change' };
}

/** The watchdog's audit text for a task it moves (to the lead, or back to pending). */
export function orphanDetail(t: BoardTask, toLead: string | undefined, why = 'ended without completing it or reporting a blocker'): string {
  const reason = `its member run ${t.runId} (${t.owner ?? '?'}) ${why}`;
  return toLead ? `returned to the lead ${toLead} after ${t.returns + 1} returns: ${reason}` : `back to pending: ${reason}`;
}

/** Why a claim did not take the task, as it stands now. */
export async function whyNotClaimed(t: BoardTask, claimer: string, get: (id: number) => Promise<BoardTask | undefined>): Promise<string> {
  if (t.status === 'in_progress') return `Refused: task #${t.id} is already claimed by ${t.owner ?? '?'}.`;
  if (t.status !== 'pending') return `Refused: task #${t.id} is ${t.status}, so it cannot be claimed${t.status === 'completed' ? ' (completed tasks are final)' : ''}.`;
  if (t.assignee && t.assignee !== claimer) return `Refused: task #${t.id} is assigned to ${t.assignee}, not ${claimer}.`;
  const blockers = await Promise.all(t.openBlockers.map((b) => get(b)));
  return `Refused: task #${t.id} is blocked by ${blockers.map((b, i) => `#${t.openBlockers[i]} (${b?.status ?? '?'})`).join(', ')}: it can be claimed once they are completed.`;
}

/** The task and its open dependents: claimable now (released) or left waiting on a closed blocker (stranded). */
export function outcomeOf(task: BoardTask, openDependents: BoardTask[]): TaskOutcome {
  const released = task.status === 'completed' ? openDependents.filter((d) => d.status === 'pending' && d.openBlockers.length === 0) : [];
  const stranded = task.status === 'cancelled' || task.status === 'failed' ? openDependents : [];
  return { task, released, stranded };
}
