// Copilot custom agents' `handoffs` in the chat: buttons under an answer of an agent whose definition
// offers them. A button taken hands the session to its agent the way the handoff tool does (the
// handoff store: the person's next messages in this session run as that agent, with the whole
// history), and its prompt is written into the input — or sent, when the definition says `send`.
//
// The page names a button by agent and label only; what is handed over and written in is read from the
// answering agent's definition here, so a page cannot make the host send a prompt of its own choosing.
import { handoffButtons } from '../../core/agents/agent-handoffs';
import type { AgentRegistry } from '../../core/agents/agent-registry';
import type { HandedTo, HandoffButtonView, MessageOf, SessionPage, ToWebview } from '../../core/chat/chat-protocol';
import type { HandoffStore } from '../../core/sessions/handoff-store';

export class ChatHandoffs {
  constructor(private readonly d: { agents: AgentRegistry; handoffs?: () => Promise<HandoffStore | undefined> }) {}

  /** Who answers in `sessionKey`: the agent it was handed to, else `owner`, the agent it belongs to. */
  async answering(sessionKey: string, owner: string): Promise<string> {
    const store = await this.d.handoffs?.().catch(() => undefined);
    return (await store?.get(sessionKey).catch(() => undefined))?.agent ?? owner;
  }

  /** The buttons under an answer of `agentId`. */
  buttons(agentId: string): HandoffButtonView[] {
    return handoffButtons(this.d.agents.get(agentId), (id) => this.d.agents.get(id))
      .map((b) => ({ ...b, agentName: b.agentName.slice(0, 500) }));
  }

  /** Who has `sessionKey` now when it is handed over (the chat's header names it); undefined when `owner` has it. */
  async handedTo(sessionKey: string, owner: string): Promise<HandedTo | undefined> {
    return this.named(await this.answering(sessionKey, owner), owner);
  }

  private named(agent: string, owner: string): HandedTo | undefined {
    return agent === owner ? undefined : { agent, name: (this.d.agents.get(agent)?.name ?? agent).slice(0, 500) };
  }

  /** The page's word that who has `sessionKey` may have changed (after a turn: the handoff tool; a button taken). */
  async handed(sessionKey: string, owner: string): Promise<MessageOf<ToWebview, 'handed'>> {
    const to = await this.handedTo(sessionKey, owner);
    return { type: 'handed', key: sessionKey, ...(to ? { to } : {}) };
  }

  /**
   * What a reopened page shows of handoffs: who has the chat, and the buttons under its last answer
   * (`lastBy`: chat-history's lastAnswerBy) — those the live answer showed, from the definitions as
   * they are now, when the agent that answered still has the chat (after a button was taken or the
   * chat handed on, the live row was done too). An answer recorded without its agent counts as the holder's.
   */
  async page(sessionKey: string, owner: string, lastBy: string | null | undefined): Promise<Pick<SessionPage, 'handoffs' | 'handedTo'>> {
    const holder = await this.answering(sessionKey, owner);
    const buttons = lastBy !== undefined && (lastBy ?? holder) === holder ? this.buttons(holder) : [];
    const handed = this.named(holder, owner);
    return { ...(buttons.length ? { handoffs: buttons } : {}), ...(handed ? { handedTo: handed } : {}) };
  }

  /** Takes the button `label` to `agent` in `sessionKey`: what to write in, or why it cannot be taken. */
  async take(sessionKey: string, owner: string, agent: string, label: string): Promise<{ text: string; send: boolean } | string> {
    const from = await this.answering(sessionKey, owner);
    const h = this.buttons(from).find((b) => b.agent === agent && b.label === label);
    if (!h) return `"${label}" is not offered by ${from} any more.`;
    const store = await this.d.handoffs?.();
    if (!store) return 'The workspace database could not be opened, so the chat cannot be handed over.';
    // Back to the agent the chat belongs to: the handoff ends, as `handoff clear` does.
    if (agent === owner) await store.clear(sessionKey);
    else await store.set(sessionKey, { agent, from, reason: `the person chose "${label}"`, at: Date.now() });
    return { text: h.prompt ?? '', send: h.send };
  }
}
