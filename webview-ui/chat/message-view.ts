// One stored message of a session as an element: the person's text as plain text (what they typed,
// with the chips they attached), the assistant's as markdown, a tool call as its card, and what the
// turn showed beside them (settled approval and review cards, the turn's footer).
import type { ChatMessage, ContextChip } from '../../src/core/chat/chat-protocol';
import { baseName, el, icon } from './dom';
import { turnFooter } from './live-turn';
import { renderMarkdown } from './markdown';
import { settledApprovalCard, settledReviewCard } from './prompt-cards';
import { subagentCard } from './subagent-card';
import { toolCard } from './tool-card';

export function chipLabel(c: ContextChip): string {
  if (c.kind === 'resource') return `${c.server ?? ''}: ${baseName(c.path) || c.path}`;
  const name = baseName(c.path);
  return c.kind === 'selection' && c.range ? `${name}:${c.range.startLine}-${c.range.endLine}` : name;
}

/** The codicon of a chip's kind. */
export function chipIcon(c: ContextChip): string {
  return c.kind === 'resource' ? 'plug' : c.kind === 'selection' ? 'selection' : 'file';
}

/** An image the person sent: where it came from (a pasted one's name), and its thumbnail when there is one. */
export interface SentImage {
  source: string;
  url?: string;
  /** The session kept no thumbnail of it (too large): its chip says so. */
  unkept?: boolean;
}

/** A thumbnail of a pasted image (its blob: URL), named by its source for screen readers and on hover. */
export function thumbnail(url: string, source: string): HTMLElement {
  return el('img', { class: 'thumb', src: url, alt: source, title: source });
}

export function userMessage(id: string, text: string, chips: readonly ContextChip[] = [], images: readonly SentImage[] = []): HTMLElement {
  return el('div', { class: 'msg user', 'data-id': id },
    el('div', { class: 'msg-role' }, 'You'),
    chips.length || images.length ? el('div', { class: 'msg-chips' }, ...chips.map((c) =>
      el('span', { class: 'chip', title: c.path }, icon(chipIcon(c)), ' ', chipLabel(c))),
    ...images.map((i) => (i.url ? thumbnail(i.url, i.source) : el('span', { class: 'chip chip-image', title: i.source }, icon('file-media'), ' ', i.source,
      i.unkept ? el('span', { class: 'chip-note' }, ' · too large to keep a preview') : null)))) : null,
    text ? el('div', { class: 'user-text' }, text) : null);
}

/** `thumbnails`: blob: URLs of a user message's images, in order (this page's own, or made of the stored ones). */
export function messageElement(m: ChatMessage, thumbnails: readonly (string | undefined)[] = []): HTMLElement {
  switch (m.role) {
    case 'user':
      return userMessage(m.id, m.text, m.chips, m.images?.map((source, i) => ({ source, url: thumbnails[i], unkept: m.thumbnails?.[i] === null })));
    case 'assistant': {
      const md = el('div', { class: 'md' });
      renderMarkdown(m.text, md);
      return el('div', { class: 'msg assistant', 'data-id': m.id }, el('span', { class: 'sr-only' }, 'Pincer: '), md);
    }
    case 'tool':
      return el('div', { class: 'msg tool', 'data-id': m.id }, toolCard(m.call));
    case 'approval':
      return el('div', { class: 'msg mark', 'data-id': m.id }, settledApprovalCard(m.approval));
    case 'review':
      return el('div', { class: 'msg mark', 'data-id': m.id }, settledReviewCard(m.review));
    case 'turn-end':
      return el('div', { class: 'msg mark', 'data-id': m.id }, turnFooter(m.end));
    case 'subagent':
      return el('div', { class: 'msg tool', 'data-id': m.id }, subagentCard(m.child));
  }
}
