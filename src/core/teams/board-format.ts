// How the board reads to a model: one line per task, a task in full with its audit trail, and the
// near-duplicate check `create` runs.
import { gateNames } from './board-explain';
import type { BoardEvent, BoardTask } from './board-types';

export function taskLine(t: BoardTask): string {
  const state = t.status === 'pending' && t.openBlockers.length ? `pending, blocked by ${t.openBlockers.map((b) => `#${b}`).join(', ')}` : t.status;
  const who = t.owner ? ` — ${t.owner}` : t.assignee ? ` — for ${t.assignee}` : '';
  const progress = t.status === 'in_progress' && (t.progress || t.progressNote) ? ` (${t.progress}%${t.progressNote ? `: ${t.progressNote}` : ''})` : '';
  return `#${t.id} [${state}] P${t.priority} "${t.subject}"${who}${progress}`;
}

export function taskDetail(t: BoardTask, events: readonly BoardEvent[]): string {
  return [
    taskLine(t),
    t.description && `Description: ${t.description}`,
    t.blockedBy.length ? `Blocked by: ${t.blockedBy.map((b) => `#${b}${t.openBlockers.includes(b) ? ' (open)' : ' (completed)'}`).join(', ')}` : '',
    t.requireReview ? 'Requires review by the lead.' : '',
    t.result && `Result: ${t.result}`,
    t.attachments.length ? `Attachments: ${t.attachments.join(', ')}` : '',
    t.returns ? `Returned by the watchdog ${t.returns} time${t.returns === 1 ? '' : 's'}.` : '',
    t.gates.length ? `Its own quality gates: ${gateNames(t.gates)}.` : '',
    t.gateFailures ? `Quality-gate failures: ${t.gateFailures}.` : '',
    events.length ? `History:\n${events.map((e) => `- ${new Date(e.at).toISOString()} ${e.actor} ${e.action}${e.detail ? `: ${e.detail}` : ''}`).join('\n')}` : '',
  ].filter(Boolean).join('\n');
}

export function taskList(tasks: readonly BoardTask[], empty: string): string {
  return tasks.length ? tasks.map(taskLine).join('\n') : empty;
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** Open tasks whose subject shares most of its words with `subject` (Jaccard ≥ 0.6). */
export function nearDuplicates(subject: string, candidates: readonly BoardTask[]): BoardTask[] {
  const mine = words(subject);
  if (!mine.size) return [];
  return candidates.filter((c) => {
    const theirs = words(c.subject);
    const shared = [...mine].filter((w) => theirs.has(w)).length;
    return shared / (mine.size + theirs.size - shared) >= 0.6;
  });
}
