// How a child's result reads to its parent's model: status, what it cost (tokens, duration) and its
// answer, one block per child. The same block serves `run`, `wait`, `list` and the announcement, so
// the model always sees a child described the same way.
import type { ModelMessage } from '../agent/model-types';
import { formatCount } from '../format-count';
import type { SubagentRecord } from './types';

/** Longest answer quoted back to the parent; the child's session keeps the whole transcript. */
const RESULT_CHARS = 8000;

export function costLine(r: SubagentRecord): string {
  const secs = (r.durationMs / 1000).toFixed(1);
  const cost = r.usage.costUsd !== undefined ? `, $${r.usage.costUsd.toFixed(4)}` : '';
  return `${formatCount(r.usage.input)} tokens in, ${formatCount(r.usage.output)} out${cost}, ${secs} s`;
}

export function nameOf(r: SubagentRecord): string {
  return r.label ? `${r.id} "${r.label}"` : r.id;
}

/** One line per child for `list`. */
export function listLine(r: SubagentRecord): string {
  const agent = r.agentId === 'default' ? '' : `, agent ${r.agentId}`;
  return `${nameOf(r)} — ${r.status}${agent}, ${costLine(r)}: ${oneLine(r.task, 80)}`;
}

/** A settled child's result, as its parent reads it. */
export function resultBlock(r: SubagentRecord): string {
  const body = r.result ?? '(no answer)';
  const clipped = body.length > RESULT_CHARS ? `${body.slice(0, RESULT_CHARS)}… [${body.length - RESULT_CHARS} more characters in session ${r.sessionKey}]` : body;
  return `### ${nameOf(r)} — ${r.status} (${costLine(r)})\n${clipped}`;
}

/** Background children's results as one user message, added before the parent's next model request. */
export function announcement(records: readonly SubagentRecord[]): ModelMessage {
  const head = records.length === 1 ? 'A subagent you started has finished.' : `${records.length} subagents you started have finished.`;
  const text = `[Subagent results] ${head}\n\n${records.map(resultBlock).join('\n\n')}`;
  return { role: 'user', parts: [{ type: 'text', text }] };
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Who raised an approval or an edit review inside a child, as the person reads it on the prompt:
 * `subagent "fix tests" (sa-1a2b3c4d), agent "default", depth 1`. The label is the model's words,
 * so it is folded to one short line.
 */
export function originLabel(r: Pick<SubagentRecord, 'id' | 'label' | 'agentId' | 'depth'>): string {
  const name = r.label ? `"${oneLine(r.label, 60)}" (${r.id})` : r.id;
  return `subagent ${name}, agent "${r.agentId}", depth ${r.depth}`;
}
