// The reviewers that decide without a person: AutoApplyReviewer writes through the WorkspaceFs
// exactly what was proposed; RejectAllReviewer writes nothing and gives its reason.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer, RejectAllReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import type { PathGuard } from '../../../src/core/fs/path-guard';
import { PathError, type ProposedChange } from '../../../src/core/fs/types';
import { makeGuard, makeWorkspace, removeTempDirs, type Workspace } from '../../support/fs-fixtures';

describe('AutoApplyReviewer and RejectAllReviewer', () => {
  let ws: Workspace;
  let guard: PathGuard;
  const signal = new AbortController().signal;

  async function change(p: string, before: string | undefined, after: string | undefined, afterBytes?: Uint8Array): Promise<ProposedChange> {
    return { tool: 'test', path: await guard.resolve(p, 'write'), before, after, afterBytes };
  }

  beforeEach(() => {
    ws = makeWorkspace({ 'a.txt': 'alpha', 'gone.txt': 'bye' });
    guard = makeGuard([ws.root]);
  });

  after(removeTempDirs);

  it('applies writes, new files in new folders and deletes, in order, and answers accepted for each', async () => {
    const reviewer = new AutoApplyReviewer(new NodeWorkspaceFs());
    const changes = [await change('a.txt', 'alpha', 'ALPHA'), await change('new/b.txt', undefined, ''), await change('gone.txt', 'bye', undefined)];
    const decisions = await reviewer.review(changes, signal);
    assert.deepEqual(decisions, [{ decision: 'accepted' }, { decision: 'accepted' }, { decision: 'accepted' }]);
    assert.equal(ws.read('a.txt'), 'ALPHA');
    assert.equal(ws.read('new/b.txt'), '');
    assert.ok(!ws.exists('gone.txt'));
    assert.equal(reviewer.applied.length, 3);
  });

  it('afterBytes win over the text (BOM and CRLF land as given); secret-looking text is written verbatim', async () => {
    const reviewer = new AutoApplyReviewer(new NodeWorkspaceFs());
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\r\ny\r\n')]);
    await reviewer.review([await change('a.txt', 'alpha', 'x\ny\n', bom)], signal);
    assert.ok(fs.readFileSync(ws.path('a.txt')).equals(bom));
    await reviewer.review([await change('a.txt', undefined, 'token=sk-live-123')], signal);
    assert.equal(ws.read('a.txt'), 'token=sk-live-123');
  });

  it('deleting a file that is already gone is not an error', async () => {
    const reviewer = new AutoApplyReviewer(new NodeWorkspaceFs());
    const c = await change('gone.txt', 'bye', undefined);
    fs.rmSync(ws.path('gone.txt'));
    assert.deepEqual(await reviewer.review([c], signal), [{ decision: 'accepted' }]);
  });

  it('stops at a cancelled signal before writing anything', async () => {
    const reviewer = new AutoApplyReviewer(new NodeWorkspaceFs());
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(reviewer.review([await change('a.txt', 'alpha', 'X')], ac.signal), { name: 'AbortError' });
    assert.equal(ws.read('a.txt'), 'alpha');
  });

  it('a failing write (a hard link made after the check) is thrown, and later changes are not applied', async () => {
    const reviewer = new AutoApplyReviewer(new NodeWorkspaceFs());
    const changes = [await change('a.txt', 'alpha', 'X'), await change('c.txt', undefined, 'C')];
    fs.linkSync(ws.path('a.txt'), ws.path('a-twin.txt'));
    await assert.rejects(reviewer.review(changes, signal), (e: unknown) => e instanceof PathError && e.code === 'hardlink');
    assert.equal(ws.read('a.txt'), 'alpha');
    assert.ok(!ws.exists('c.txt'));
  });

  it('RejectAllReviewer writes nothing and rejects each change with its reason', async () => {
    const reviewer = new RejectAllReviewer('not today');
    const changes = [await change('a.txt', 'alpha', 'X'), await change('gone.txt', 'bye', undefined)];
    assert.deepEqual(await reviewer.review(changes, signal), [
      { decision: 'rejected', reason: 'not today' },
      { decision: 'rejected', reason: 'not today' },
    ]);
    assert.equal(ws.read('a.txt'), 'alpha');
    assert.ok(ws.exists('gone.txt'));
    assert.equal(reviewer.seen.length, 1);
    const [first] = await new RejectAllReviewer().review(changes, signal);
    assert.ok(first.decision === 'rejected' && first.reason && first.reason.length > 0);
  });
});
