// A child agent's card inside its parent's turn: name, status, tokens and time in the summary line
// (with Stop while it runs: it cancels that child and its own children); inside, the task, its latest
// tool calls and, once it finished, its answer, with a button that opens its whole transcript.
import type { SubagentCardView } from '../../src/core/chat/chat-protocol';
import { el, formatMs, icon, textButton, toolButton } from './dom';
import { usageLine } from './live-turn';
import { post } from './vscode-api';

const STATUS: Record<SubagentCardView['status'], string> = {
  queued: 'clock', running: 'loading codicon-modifier-spin', done: 'check', failed: 'error', cancelled: 'circle-slash', interrupted: 'debug-pause', stalled: 'warning',
};
const TOOL_ICON = { running: 'loading codicon-modifier-spin', ok: 'check', error: 'error', denied: 'circle-slash' } as const;

function fill(card: HTMLElement, c: SubagentCardView): void {
  const live = c.status === 'queued' || c.status === 'running';
  card.className = `tool-card subagent-card status-${c.status}`;
  const name = c.label ?? 'Subagent';
  const stop = live && toolButton('debug-stop', `Stop ${name}`, 'subagent-stop', (e) => {
    e.preventDefault();
    e.stopPropagation();
    post({ type: 'subagent-stop', id: c.id });
  });
  const summary = el('summary', { 'aria-label': `Subagent ${name}, ${c.status}` },
    icon(STATUS[c.status], 'tool-status'),
    el('span', { class: 'tool-name' }, name),
    el('span', { class: 'tool-args-line' }, c.agentId === 'default' ? c.task : `${c.agentId}: ${c.task}`),
    el('span', { class: 'tool-meta' }, `${c.status} · ${usageLine(c.usage)} · ${formatMs(c.durationMs)}`),
    stop);
  const body = el('div', { class: 'tool-body' },
    el('div', { class: 'tool-label' }, `Task (${c.id}, agent ${c.agentId})`), el('pre', { class: 'tool-args' }, c.task),
    c.tools.length > 0 && el('div', { class: 'tool-label' }, 'Latest tool calls'),
    c.tools.length > 0 && el('ul', { class: 'subagent-tools' }, ...c.tools.map((t) =>
      el('li', { class: `status-${t.status}` }, icon(TOOL_ICON[t.status], 'tool-status'), ' ', el('span', { class: 'tool-name' }, t.name), ' ', t.args))),
    c.result !== undefined && el('div', { class: 'tool-label' }, 'Result'),
    c.result !== undefined && el('pre', { class: 'tool-result' }, c.result),
    el('div', { class: 'prompt-actions' }, textButton('Open transcript', () => post({ type: 'subagent-open', id: c.id }), { secondary: true, action: 'subagent-open' })));
  card.replaceChildren(summary, body);
}

export function subagentCard(c: SubagentCardView): HTMLElement {
  const card = el('details', { 'data-subagent-id': c.id });
  fill(card, c);
  return card;
}

/** A later state of the same child: the card keeps its place and its open state. */
export function updateSubagentCard(card: HTMLElement, c: SubagentCardView): void {
  fill(card, c);
}
