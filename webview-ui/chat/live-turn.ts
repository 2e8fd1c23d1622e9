// A turn while it runs: its text segments stream (StreamingMarkdown), its tool calls appear as cards
// between them, approval and review cards wait inline. The turn's element is an aria-live region that
// is busy until the turn ends, so a screen reader reads the answer once, not every delta.
import type { ChatUsage, ChatStopReason, ToolCallView, TurnFooter } from '../../src/core/chat/chat-protocol';
import { el, formatMs } from './dom';
import { StreamingMarkdown } from './markdown-stream';
import { toolCard, updateToolCard } from './tool-card';

const STOPPED: Partial<Record<ChatStopReason, string>> = {
  'max-iterations': 'Stopped: the turn reached its iteration limit.',
  loop: 'Stopped: the model kept repeating itself.',
  cancelled: 'Stopped.',
  budget: 'Stopped: the token budget or the context window is used up.',
  error: 'The model failed.',
  length: 'The answer was cut off at the output limit.',
  'content-filter': 'The provider filtered the answer.',
};

export function usageLine(u: ChatUsage): string {
  const n = (x: number) => x.toLocaleString('en');
  const cost = u.costUsd !== undefined ? ` · $${u.costUsd < 0.01 ? u.costUsd.toFixed(4) : u.costUsd.toFixed(2)}` : '';
  return `${n(u.input)} in · ${n(u.output)} out${u.cached ? ` · ${n(u.cached)} cached` : ''}${cost}`;
}

/** A turn's last line: why it stopped (unless it simply ended), its tokens when a model counted any, its time. */
export function turnFooter(end: TurnFooter): HTMLElement {
  const note = STOPPED[end.stopReason];
  const parts = [end.usage && usageLine(end.usage), end.durationMs !== undefined && formatMs(end.durationMs)].filter(Boolean).join(' · ');
  return el('div', { class: `turn-footer${end.stopReason === 'end' ? '' : ' stopped'}` },
    note ? el('span', { class: 'turn-stop', role: end.stopReason === 'error' ? 'alert' : undefined }, `${note}${end.message ? ` ${end.message}` : ''} `) : null,
    parts ? el('span', { class: 'turn-usage' }, parts) : null);
}

export class LiveTurn {
  readonly el: HTMLElement;
  private md?: StreamingMarkdown;
  private readonly tools = new Map<string, HTMLElement>();
  private readonly started = performance.now();

  constructor(readonly id: string, readonly sessionKey: string, private readonly afterRender: () => void) {
    this.el = el('div', { class: 'turn live', 'data-turn-id': id, 'aria-live': 'polite', 'aria-busy': 'true' },
      el('div', { class: 'thinking', 'aria-hidden': 'true' }, el('span', { class: 'codicon codicon-loading codicon-modifier-spin' }), ' Working…'));
  }

  text(delta: string): void {
    if (!this.md) {
      this.md = new StreamingMarkdown(this.afterRender);
      this.el.append(el('div', { class: 'msg assistant' }, el('span', { class: 'sr-only' }, 'Pincer: '), this.md.el));
    }
    this.md.append(delta);
  }

  toolCall(c: ToolCallView): void {
    const card = this.tools.get(c.callId);
    if (card) {
      updateToolCard(card, c);
    } else {
      this.closeText();
      const fresh = toolCard(c);
      this.tools.set(c.callId, fresh);
      this.el.append(el('div', { class: 'msg tool' }, fresh));
    }
    this.afterRender();
  }

  /** An approval or review card in its place in the turn. */
  card(card: HTMLElement): void {
    this.closeText();
    this.el.append(card);
    this.afterRender();
  }

  end(usage: ChatUsage | undefined, reason: ChatStopReason, message?: string): void {
    this.closeText();
    this.el.classList.remove('live');
    this.el.querySelector('.thinking')?.remove();
    for (const [, card] of this.tools) {
      if (card.classList.contains('status-running')) card.classList.add('status-abandoned');
    }
    this.el.append(turnFooter({ stopReason: reason, ...(usage ? { usage } : {}), ...(message ? { message } : {}), durationMs: performance.now() - this.started }));
    this.el.setAttribute('aria-busy', 'false');
    this.afterRender();
  }

  get running(): boolean {
    return this.el.classList.contains('live');
  }

  /** The text segment is over (a tool call or a card follows): render it whole. */
  private closeText(): void {
    this.md?.finish();
    this.md = undefined;
  }
}
