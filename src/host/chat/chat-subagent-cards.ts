// Child agents as cards in the chat: a child started by the running turn gets a card in that turn
// (and a `subagent` mark, so the reloaded transcript shows it in the same place with its latest
// state); every later change of a shown child (a tool call, tokens, its end) updates the card, also
// after the turn that started it has ended (background children outlive it).
import type { LiveEvent, MessageOf, SubagentCardView } from '../../core/chat/chat-protocol';
import { SubagentCardBook } from '../../core/subagents/subagent-cards';
import type { SubagentControl, SubagentEvent } from '../../core/subagents/types';

export interface CardHost {
  /** The turn running now: its id, session and the live events a re-opened view replays. */
  running(): { turnId: string; sessionKey: string; live: LiveEvent[] } | undefined;
  /** The session on screen. */
  current(): string | undefined;
  post(e: LiveEvent): void;
  /** Stores where the card was shown (a mark of the session at its latest message). */
  mark(sessionKey: string, data: { id: string }): void;
}

export class ChatSubagentCards {
  private readonly book = new SubagentCardBook(() => Date.now());
  /** Children shown as cards in this window. */
  private readonly shown = new Set<string>();

  /** Listens for the window's lifetime (the manager and the chat live and go together). */
  constructor(private readonly control: SubagentControl, private readonly host: CardHost) {
    control.onEvent((e) => this.onEvent(e));
  }

  /** A child's card as it stands now (for a stored `subagent` mark), undefined for an unknown id. */
  card(id: string): SubagentCardView | undefined {
    const r = this.control.get(id);
    return r && this.book.card(r);
  }

  cancel(id: string): Promise<void> {
    return this.control.cancel(id, 'Cancelled by a person (Stop on its card in the chat).');
  }

  private onEvent(e: SubagentEvent): void {
    // Streamed text is not on the card (its result is): no message per token.
    if (e.type === 'output') return;
    const id = this.book.apply(e);
    const r = this.control.get(id);
    if (!r) return;
    const run = this.host.running();
    const inTurn = run?.sessionKey === r.parentSessionKey;
    if (e.type === 'started' && inTurn && !this.shown.has(id)) {
      this.shown.add(id);
      this.host.mark(r.parentSessionKey, { id });
    }
    if (!this.shown.has(id) && r.parentSessionKey !== this.host.current()) return;
    const msg: MessageOf<LiveEvent, 'subagent'> = { type: 'subagent', ...(inTurn ? { turnId: run.turnId } : {}), child: this.book.card(r) };
    if (inTurn) {
      // One replayed event per card, in the place the card first appeared, with its latest state.
      const at = run.live.findIndex((x) => x.type === 'subagent' && x.child.id === id);
      if (at >= 0) run.live[at] = msg;
      else run.live.push(msg);
    }
    this.host.post(msg);
  }
}
