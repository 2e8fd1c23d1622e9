// A reopened chat's handoffs: the turn-end mark names the agent that answered (the footer still shows
// as before), lastAnswerBy finds the answer the buttons belong under only when its turn ended normally
// and nothing followed it, and the page's handoff fields and the `handed` message pass the protocol
// while malformed ones are refused.
import assert from 'node:assert/strict';
import { lastAnswerBy, toChatMessages } from '../../../src/core/chat/chat-history';
import { parseToWebview } from '../../../src/core/chat/chat-protocol';
import type { SessionMark } from '../../../src/core/sessions/session-store';

const end = (seq: number, data: unknown): SessionMark => ({ seq, kind: 'turn-end', data });
const BUTTON = { label: 'Start Implementation', agent: 'impl', agentName: 'Implementer', prompt: 'Implement the plan above.', send: false };

describe('chat: handoffs on a reopened page', () => {
  it('a turn-end mark that names its agent still shows its footer, without the agent', () => {
    const msgs = toChatMessages([
      { seq: 1, role: 'user', parts: [{ type: 'text', text: 'Plan it' }] },
      { seq: 2, role: 'assistant', parts: [{ type: 'text', text: 'Step 1.' }] },
    ], {}, [end(2, { stopReason: 'end', durationMs: 900, agent: 'planner' })]);
    assert.deepEqual(msgs.at(-1), { role: 'turn-end', id: 'm2:k0', end: { stopReason: 'end', durationMs: 900 } });
  });

  it('lastAnswerBy: the agent of the last turn that ended normally with nothing after it', () => {
    const tool: SessionMark = { seq: 4, kind: 'tool', data: { callId: 'c1', status: 'ok' } };
    assert.equal(lastAnswerBy([end(2, { stopReason: 'end', agent: 'a' }), end(4, { stopReason: 'end', agent: 'planner' }), tool], 4), 'planner');
    // Made before marks named the agent: the caller takes the agent that has the chat.
    assert.equal(lastAnswerBy([end(4, { stopReason: 'end', durationMs: 5 })], 4), null);
  });

  it('lastAnswerBy: nothing for a stopped or failed turn, a message after the footer, a broken mark, no mark', () => {
    assert.equal(lastAnswerBy([end(4, { stopReason: 'cancelled', agent: 'planner' })], 4), undefined);
    assert.equal(lastAnswerBy([end(4, { stopReason: 'error', message: 'boom', agent: 'planner' })], 4), undefined);
    // The window closed mid-turn: the person's next message (seq 5) has no footer after it.
    assert.equal(lastAnswerBy([end(4, { stopReason: 'end', agent: 'planner' })], 5), undefined);
    assert.equal(lastAnswerBy([end(4, null)], 4), undefined);
    assert.equal(lastAnswerBy([end(4, 'end')], 4), undefined);
    assert.equal(lastAnswerBy([], 4), undefined);
  });

  it('the protocol carries a page\'s buttons and holder and the `handed` word; malformed ones are refused', () => {
    const page = { key: 's', title: 't', messages: [], hasOlder: false };
    assert.ok(parseToWebview({ type: 'session', session: { ...page, handoffs: [BUTTON], handedTo: { agent: 'impl', name: 'Implementer' } } }).ok);
    assert.ok(parseToWebview({ type: 'handed', key: 's', to: { agent: 'impl', name: 'Implementer' } }).ok);
    assert.ok(parseToWebview({ type: 'handed', key: 's' }).ok);
    assert.equal(parseToWebview({ type: 'handed', key: 's', to: { agent: '', name: 'x' } }).ok, false);
    assert.equal(parseToWebview({ type: 'handed', key: 's', to: { agent: 'impl', name: 'x', script: '<img src=x onerror=alert(1)>' } }).ok, false);
    assert.equal(parseToWebview({ type: 'session', session: { ...page, handoffs: Array(11).fill(BUTTON) } }).ok, false);
    assert.equal(parseToWebview({ type: 'session', session: { ...page, handedTo: { agent: 'impl', name: 'x'.repeat(501) } } }).ok, false);
  });
});
