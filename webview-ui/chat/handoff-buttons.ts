// The handoff buttons under an answer (the answering agent's definition offers them: a Copilot custom
// agent's `handoffs`). A button posts its agent and label; the host hands the chat over and answers
// with `prefill`. Once one is taken the row is done: the buttons disable, so one click hands over once.
import type { HandoffButtonView } from '../../src/core/chat/chat-protocol';
import { disable, el, textButton } from './dom';
import { post } from './vscode-api';

export function handoffButtons(handoffs: readonly HandoffButtonView[]): HTMLElement {
  const row = el('div', { class: 'handoffs', role: 'group', 'aria-label': 'Next steps' });
  const buttons = handoffs.map((h) => {
    const b = textButton(h.label, () => {
      buttons.forEach((x) => disable(x));
      post({ type: 'handoff', agent: h.agent, label: h.label });
    }, { secondary: true, icon: 'arrow-right', action: 'handoff', label: `${h.label}: hand the chat to ${h.agentName}${h.send ? ' and send' : ''}` });
    b.title = `Hand the chat to ${h.agentName}${h.prompt ? `${h.send ? ', sending' : ' with'}: ${h.prompt.slice(0, 300)}` : ''}`;
    b.dataset.agent = h.agent;
    return b;
  });
  row.append(...buttons);
  return row;
}
