// A tool call's card: name, status and duration in the summary line; the arguments and the result
// preview (both already shortened and scrubbed by the host) inside, collapsed until opened.
import type { ToolCallView } from '../../src/core/chat/chat-protocol';
import { el, formatMs, icon } from './dom';

const STATUS: Record<ToolCallView['status'], { icon: string; label: string }> = {
  running: { icon: 'loading codicon-modifier-spin', label: 'running' },
  ok: { icon: 'check', label: 'done' },
  error: { icon: 'error', label: 'failed' },
  denied: { icon: 'circle-slash', label: 'denied' },
};

function oneLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function fill(card: HTMLElement, c: ToolCallView): void {
  const st = STATUS[c.status];
  card.className = `tool-card status-${c.status}`;
  const summary = el('summary', { 'aria-label': `Tool ${c.name}, ${st.label}${c.durationMs !== undefined ? `, ${formatMs(c.durationMs)}` : ''}` },
    icon(st.icon, 'tool-status'),
    el('span', { class: 'tool-name' }, c.name),
    el('span', { class: 'tool-args-line' }, oneLine(c.args, 80)),
    el('span', { class: 'tool-meta' }, c.durationMs !== undefined ? `${st.label} · ${formatMs(c.durationMs)}` : c.progress && c.status === 'running' ? `${st.label} · ${c.progress}` : st.label));
  const body = el('div', { class: 'tool-body' },
    el('div', { class: 'tool-label' }, 'Arguments'), el('pre', { class: 'tool-args' }, c.args || '(none)'),
    c.result !== undefined && el('div', { class: 'tool-label' }, 'Result'),
    c.result !== undefined && el('pre', { class: 'tool-result' }, c.result));
  card.replaceChildren(summary, body);
}

export function toolCard(c: ToolCallView): HTMLElement {
  const card = el('details', { 'data-call-id': c.callId });
  fill(card, c);
  return card;
}

/** A later state of the same call (running → ok): the card keeps its place and its open state. */
export function updateToolCard(card: HTMLElement, c: ToolCallView): void {
  fill(card, c);
}
