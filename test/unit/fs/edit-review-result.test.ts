import assert from 'node:assert/strict';
import { decisionsResult, reviewChanges, unifiedDiff, type ChangeSummary } from '../../../src/core/fs/review-result';
import type { ProposedChange, ResolvedPath } from '../../../src/core/fs/types';

function change(rel: string, after: string | undefined): ChangeSummary {
  const path: ResolvedPath = { abs: `/ws/${rel}`, root: '/ws', rel, input: rel, exists: true };
  const c: ProposedChange = { tool: 'edit', path, before: 'x\n', after };
  return { change: c, what: after === undefined ? 'deleted' : 'updated' };
}

describe('review results: what the model is told about each decision', () => {
  it('reports accepted, rejected (with and without a reason) and modified, file by file', () => {
    const r = decisionsResult('apply_patch', [change('a', 'A\n'), change('b', 'B\n'), change('c', undefined), change('d', 'one\ntwo\n')], [
      { decision: 'accepted' },
      { decision: 'rejected', reason: '  use tabs  ' },
      { decision: 'rejected' },
      { decision: 'modified', content: 'one\n2\n' },
    ]);
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /^apply_patch: 2 of 4 file changes applied \(1 as proposed, 1 edited by the user, 2 rejected\)\./);
    assert.match(r.forLLM, /- a: updated\./);
    assert.match(r.forLLM, /- b: NOT changed: the user rejected the proposed change \(updated\)\. The user's reason: "use tabs"\./);
    assert.match(r.forLLM, /- c: NOT changed: .* No reason was given: do not retry the same change/);
    assert.match(r.forLLM, /- d: updated, but the user edited your proposal before accepting it\. .*\n```diff\n--- a\/d\tproposed\n\+\+\+ b\/d\twritten\n@@ -1,2 \+1,2 @@\n one\n-two\n\+2\n```/);
    assert.deepEqual((r.details!.decisions as { decision: string }[]).map((d) => d.decision), ['accepted', 'rejected', 'rejected', 'modified']);
  });

  it('treats a missing decision as a rejection rather than a silent success', () => {
    const r = decisionsResult('edit', [change('a', 'A\n')], []);
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /reviewer returned no decision/);
  });

  it('diffs CRLF text as lines and gives up on a complete rewrite only past a bound', () => {
    assert.equal(unifiedDiff('f', 'a\r\nb\r\n', 'a\r\nB\r\n'), '--- a/f\tproposed\n+++ b/f\twritten\n@@ -1,2 +1,2 @@\n a\n-b\n+B');
    const big = Array.from({ length: 3000 }, (_, i) => `l${i}`).join('\n');
    const other = Array.from({ length: 3000 }, (_, i) => `m${i}`).join('\n');
    assert.equal(unifiedDiff('f', big, other), undefined);
    const r = decisionsResult('write_file', [change('f', big)], [{ decision: 'modified', content: other }]);
    assert.match(r.forLLM, /differs from your proposal too much to show as a diff; read the file/);
  });

  it('turns a reviewer failure into an error result, but lets a cancellation through', async () => {
    const failing = { review: async () => { throw new Error('EACCES: permission denied'); } };
    const r = await reviewChanges({ reviewer: failing }, 'edit', [change('a', 'A')], new AbortController().signal);
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /edit could not apply its changes: EACCES: permission denied\. Read a before trying again\./);
    const ac = new AbortController();
    const cancelled = { review: async () => { ac.abort(); throw new Error('aborted'); } };
    await assert.rejects(reviewChanges({ reviewer: cancelled }, 'edit', [change('a', 'A')], ac.signal), /aborted/);
  });
});
