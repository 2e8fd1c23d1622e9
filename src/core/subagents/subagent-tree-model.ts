// The Subagents view's model, free of the editor: the parent sessions (newest activity first) with
// their children and grandchildren, each child's one-line status (status, tokens, cost, duration),
// what may be done with it, and its transcript as a readable markdown document.
import type { ModelMessage } from '../agent/model-types';
import { preview } from '../chat/chat-history';
import { formatCount } from '../format-count';
import type { SubagentNode, SubagentRecord, SubagentStatus } from './types';

export interface SubagentSessionGroup {
  /** The session whose turns started these children (a person's chat). */
  sessionKey: string;
  children: SubagentNode[];
}

/** The forest's roots grouped by the session that started them; the session with the newest child first. */
export function groupBySession(forest: readonly SubagentNode[]): SubagentSessionGroup[] {
  const groups = new Map<string, SubagentNode[]>();
  for (const n of forest) groups.set(n.record.parentSessionKey, [...(groups.get(n.record.parentSessionKey) ?? []), n]);
  const newest = (g: SubagentNode[]) => Math.max(...g.map((n) => n.record.createdAt));
  return [...groups].sort((a, b) => newest(b[1]) - newest(a[1])).map(([sessionKey, children]) => ({ sessionKey, children }));
}

/**
 * What a person may do with a child: `live` (cancel, steer), `resumable` (it stopped before it
 * finished: resume, steer) or `done` (steer starts it again with a new instruction).
 */
export type SubagentActions = 'live' | 'resumable' | 'done';

export function actionsOf(status: SubagentStatus): SubagentActions {
  if (status === 'queued' || status === 'running') return 'live';
  return status === 'done' ? 'done' : 'resumable';
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function tokens(r: SubagentRecord): string {
  const n = r.usage.input + r.usage.output;
  const cost = r.usage.costUsd !== undefined ? ` · $${r.usage.costUsd.toFixed(4)}` : '';
  return `${formatCount(n)} tokens${cost}`;
}

/** A child's row: its name, then status, tokens, cost and duration; the tooltip adds the task and result. */
export function childRow(r: SubagentRecord, durationMs: number): { label: string; description: string; tooltip: string; actions: SubagentActions } {
  const name = r.label ?? oneLine(r.task, 60);
  const agent = r.agentId === 'default' ? '' : ` · ${r.agentId}`;
  const description = `${r.status} · ${tokens(r)} · ${formatDuration(durationMs)}${agent}`;
  const tooltip = [`${r.id}: ${r.status}`, `Task: ${preview(r.task, 1000)}`, r.result ? `Result: ${preview(r.result, 1500)}` : ''].filter(Boolean).join('\n\n');
  return { label: name, description, tooltip, actions: actionsOf(r.status) };
}

/** A child's session as a read-only markdown document: the task, how it ended, then every message. */
export function transcriptMarkdown(r: SubagentRecord, messages: readonly ModelMessage[]): string {
  const out = [
    `# Subagent ${r.label ? `${r.label} (${r.id})` : r.id}`, '',
    `${r.status} · agent ${r.agentId} · ${tokens(r)} · ${formatDuration(r.durationMs)} · session ${r.sessionKey}`, '',
    '## Task', '', quote(r.task), '',
  ];
  if (r.result) out.push('## Result', '', quote(r.result), '');
  out.push('## Transcript', '');
  for (const m of messages) {
    if (m.role === 'system') continue;
    for (const p of m.parts) {
      if (p.type === 'text' && p.text.trim()) out.push(`**${m.role === 'user' ? 'Instruction' : 'Subagent'}:**`, '', quote(p.text), '');
      else if (p.type === 'tool-call') out.push(`**Tool call** \`${p.name}\``, '', fence(preview(typeof p.args === 'string' ? p.args : JSON.stringify(p.args) ?? '', 2000)), '');
      else if (p.type === 'tool-result') out.push(`**${p.isError ? 'Tool error' : 'Tool result'}** \`${p.name}\``, '', fence(preview(p.content, 4000)), '');
    }
  }
  if (!messages.length) out.push('(nothing stored yet)');
  return out.join('\n');
}

/** Text as a block quote, so a child's markdown cannot restructure the document around it. */
function quote(text: string): string {
  return text.split('\n').map((l) => `> ${l}`).join('\n');
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

/** Whitespace folded to single spaces, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
