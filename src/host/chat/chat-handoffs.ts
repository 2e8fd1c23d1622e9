// Copilot custom agents' `handoffs` in the chat: buttons under an answer of an agent whose definition
// offers them. A button taken hands the session to its agent the way the handoff tool does (the
// handoff store: the person's next messages in this session run as that agent, with the whole
// history), and its prompt is written into the input — or sent, when the definition says `send`.
//
// The page names a button by agent and label only; what is handed over and written in is read from the
// answering agent's definition here, so a page cannot make the host send a prompt of its own choosing.
import { handoffButtons } from '../../core/agents/agent-handoffs';
import type { AgentRegistry } from '../../core/agents/agent-registry';
import type { HandoffButtonView } from '../../core/chat/chat-protocol';
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
