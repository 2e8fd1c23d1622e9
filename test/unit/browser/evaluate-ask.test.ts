// The browser's evaluate asks a person through the approval prompt commands use: what the person is
// shown (the script, the page), and that only their own yes lets it run — no approver, a no, or
// nobody answering in time all refuse.
import assert from 'node:assert/strict';
import { evaluateAsker } from '../../../src/core/browser/evaluate-ask';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../../src/core/exec/exec-types';
import type { ToolContext } from '../../../src/core/tools/types';

const browserContext = (sessionKey: string): ToolContext => ({
  sessionKey, agentId: 'default', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60_000, workspaceTrusted: true,
});

function approver(answer: ApprovalAnswer | 'never'): Approver & { seen: ApprovalRequest[] } {
  const seen: ApprovalRequest[] = [];
  return {
    seen,
    request: (req, signal) => {
      seen.push(req);
      if (answer !== 'never') return Promise.resolve({ answer });
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ answer: 'deny' }), { once: true }));
    },
  };
}

describe('browser: evaluate asks first', () => {
  it('shows the person the script and the page, and runs only on their yes', async () => {
    const yes = approver('once');
    assert.equal(await evaluateAsker(() => yes, () => 60_000)('document.title', 'http://crabs.example/', browserContext('s')), undefined);
    assert.equal(yes.seen[0].tool, 'browser');
    assert.equal(yes.seen[0].command, 'document.title');
    assert.equal(yes.seen[0].cwd, 'http://crabs.example/');
    assert.equal(yes.seen[0].always, undefined);
    const no = approver('deny');
    assert.match(await evaluateAsker(() => no, () => 60_000)('fetch("/x")', 'http://crabs.example/', browserContext('s')) ?? '', /did not allow/);
  });

  it('refuses when nobody can be asked, and when nobody answers in time', async () => {
    assert.match(await evaluateAsker(() => undefined, () => 60_000)('1', 'about:blank', browserContext('s')) ?? '', /nobody can give here/);
    const silent = approver('never');
    assert.match(await evaluateAsker(() => silent, () => 50)('1', 'about:blank', browserContext('s')) ?? '', /did not allow/);
    assert.equal(silent.seen.length, 1);
  });
});
