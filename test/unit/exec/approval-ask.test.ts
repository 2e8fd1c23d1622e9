// askApproval: only a person's own 'once' or 'always' lets a command through. Timeouts, cancels,
// failing or misbehaving prompts all come back as 'deny' with a note; the prompt's own signal is
// aborted when nobody answered, so the UI can close it.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { askApproval, describeWait } from '../../../src/core/exec/approval-ask';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../../src/core/exec/exec-types';

const req: ApprovalRequest = {
  id: 'r1', tool: 'exec', command: 'rm -rf build', cwd: '/w', host: 'process', reason: 'destructive_ops', segments: [],
  always: [{ executable: '/usr/bin/rm', args: '-rf build' }], sessionKey: 's', agentId: 'a',
};

/** Answers after `ms` (or never), and records what it saw. */
function approver(answer: ApprovalAnswer | 'never' | 'throw' | 'garbage', ms = 0) {
  const seen: { req?: ApprovalRequest; signal?: AbortSignal } = {};
  const a: Approver = {
    request(r, signal) {
      seen.req = r;
      seen.signal = signal;
      if (answer === 'throw') return Promise.reject(new Error('the chat view is gone'));
      if (answer === 'never') return new Promise(() => undefined);
      const value = answer === 'garbage' ? ({ answer: 'yes please' } as unknown as { answer: ApprovalAnswer }) : { answer };
      return new Promise((resolve) => setTimeout(() => resolve(value), ms));
    },
  };
  return { a, seen };
}

const live = () => new AbortController().signal;

describe('askApproval', () => {
  it("passes a person's answers through, with the request unchanged", async () => {
    for (const answer of ['once', 'always', 'deny'] as const) {
      const { a, seen } = approver(answer, 5);
      assert.deepEqual(await askApproval(a, req, { timeoutMs: 1_000, signal: live() }), { answer });
      assert.equal(seen.req, req);
      assert.equal(seen.signal?.aborted, false, 'an answered prompt is not aborted');
    }
  });

  it('no answer in time is a deny that says how long it waited, and the prompt is withdrawn', async () => {
    const { a, seen } = approver('never');
    const waits: { ms: number; fire: () => void }[] = [];
    let settled = false;
    const asked = askApproval(a, req, { timeoutMs: 60, signal: live(), after: (ms, fire) => (waits.push({ ms, fire }), () => undefined) })
      .finally(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(waits.map((w) => w.ms), [60], 'it waits the given time');
    assert.equal(settled, false, 'nothing is decided before the time is up');
    assert.equal(seen.signal?.aborted, false);
    waits[0].fire();
    assert.deepEqual(await asked, { answer: 'deny', note: 'no answer within 60 ms: denied' });
    assert.equal(seen.signal?.aborted, true);
    assert.equal(describeWait(120_000), '2 minutes');
    assert.equal(describeWait(60_000), '1 minute');
    assert.equal(describeWait(90_000), '90 seconds');
    assert.equal(describeWait(1_000), '1 second');
  });

  it('an answer that comes after the timeout counts for nothing', async () => {
    const { a } = approver('always', 200);
    assert.equal((await askApproval(a, req, { timeoutMs: 30, signal: live() })).answer, 'deny');
  });

  it('cancelling the call denies at once, before or during the prompt', async () => {
    const pre = new AbortController();
    pre.abort();
    const first = approver('once');
    assert.deepEqual(await askApproval(first.a, req, { timeoutMs: 1_000, signal: pre.signal }), { answer: 'deny', note: 'cancelled' });
    assert.equal(first.seen.req, undefined, 'nobody is asked for a call already cancelled');
    const during = new AbortController();
    const { a, seen } = approver('never');
    setTimeout(() => during.abort(), 20);
    assert.deepEqual(await askApproval(a, req, { timeoutMs: 10_000, signal: during.signal }), { answer: 'deny', note: 'cancelled' });
    assert.equal(seen.signal?.aborted, true);
  });

  it('a prompt that throws or answers nonsense is a deny with a note, never a yes', async () => {
    const thrown = await askApproval(approver('throw').a, req, { timeoutMs: 1_000, signal: live() });
    assert.equal(thrown.answer, 'deny');
    assert.match(thrown.note ?? '', /the approval prompt failed \(the chat view is gone\)/);
    const garbage = await askApproval(approver('garbage').a, req, { timeoutMs: 1_000, signal: live() });
    assert.equal(garbage.answer, 'deny');
    assert.match(garbage.note ?? '', /no valid answer \("yes please"\)/);
    const syncThrow: Approver = { request() { throw new Error('sync'); } };
    assert.equal((await askApproval(syncThrow, req, { timeoutMs: 1_000, signal: live() })).answer, 'deny');
    const nothing: Approver = { request: async () => undefined as unknown as { answer: ApprovalAnswer } };
    assert.equal((await askApproval(nothing, req, { timeoutMs: 1_000, signal: live() })).answer, 'deny');
  });

  it('leaves no listener on the call\'s signal behind', async () => {
    const signal = new AbortController();
    const at = async (answer: ApprovalAnswer) => ({ answer });
    await askApproval({ request: () => at('once') }, req, { timeoutMs: 3_600_000, signal: signal.signal });
    await askApproval(approver('throw').a, req, { timeoutMs: 3_600_000, signal: signal.signal });
    assert.equal(getEventListeners(signal.signal, 'abort').length, 0);
  });
});
