import assert from 'node:assert/strict';
import { createEditTool } from '../../../src/core/fs/tools/edit';
import { removeTempDirs } from '../../support/fs-fixtures';
import { harness } from './edit-harness';

const FILE = 'alpha\nbeta\ngamma\ndelta\nepsilon\n';

describe('edit: several edits in one call', () => {
  after(removeTempDirs);

  it('applies every edit against the original, in one review', async () => {
    const h = harness({ 'g.txt': FILE });
    const r = await h.run(createEditTool(h.deps), {
      path: 'g.txt',
      edits: [
        { old_string: 'delta', new_string: 'DELTA' },
        { old_string: 'alpha\n', new_string: 'ALPHA\nalpha2\n' },
      ],
    });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('g.txt'), 'ALPHA\nalpha2\nbeta\ngamma\nDELTA\nepsilon\n');
    assert.match(r.forLLM, /2 replacements from 2 edits at lines 1, 4/);
    assert.equal(h.batches.length, 1);
  });

  it('matches each edit in the original, not in the output of the edits before it', async () => {
    const h = harness({ 'g.txt': FILE });
    const r = await h.run(createEditTool(h.deps), {
      path: 'g.txt',
      edits: [
        { old_string: 'beta', new_string: 'zeta' },
        { old_string: 'zeta', new_string: 'eta' },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /^edits\[1\]\.old_string was not found in g\.txt/);
    assert.equal(h.ws.read('g.txt'), FILE);
  });

  it('is all-or-nothing: a failing second edit leaves the file unchanged', async () => {
    const h = harness({ 'g.txt': FILE });
    const r = await h.run(createEditTool(h.deps), {
      path: 'g.txt',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'omega', new_string: 'OMEGA' },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /edits\[1\]\.old_string was not found/);
    assert.match(r.forLLM, /No edit was applied: the edits of one call are applied all together or not at all\./);
    assert.equal(h.ws.read('g.txt'), FILE);
    assert.equal(h.batches.length, 0);
  });

  it('refuses overlapping edits with a clear message', async () => {
    const h = harness({ 'g.txt': FILE });
    const r = await h.run(createEditTool(h.deps), {
      path: 'g.txt',
      edits: [
        { old_string: 'beta\ngamma', new_string: 'x' },
        { old_string: 'gamma\ndelta', new_string: 'y' },
      ],
    });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /edits\[0\] \(line 2\) and edits\[1\] \(line 3\) overlap in g\.txt.*Merge them into one edit\. No edit was applied\./s);
    assert.equal(h.ws.read('g.txt'), FILE);
  });

  it('accepts adjacent edits that touch without overlapping', async () => {
    const h = harness({ 'g.txt': FILE });
    await h.run(createEditTool(h.deps), { path: 'g.txt', edits: [{ old_string: 'alpha\n', new_string: '1\n' }, { old_string: 'beta\n', new_string: '2\n' }] });
    assert.equal(h.ws.read('g.txt'), '1\n2\ngamma\ndelta\nepsilon\n');
  });

  it('refuses an ambiguous edit among several, and an identical pair, naming the edit', async () => {
    const h = harness({ 'g.txt': FILE });
    const tool = createEditTool(h.deps);
    const amb = await h.run(tool, { path: 'g.txt', edits: [{ old_string: 'gamma', new_string: 'G' }, { old_string: 'ta\n', new_string: 'TA\n' }] });
    assert.match(amb.forLLM, /edits\[1\]\.old_string occurs 2 times in g\.txt, at lines 2, 4/);
    const same = await h.run(tool, { path: 'g.txt', edits: [{ old_string: 'gamma', new_string: 'gamma' }] });
    assert.match(same.forLLM, /identical/);
    assert.equal(h.ws.read('g.txt'), FILE);
  });

  it('refuses an empty edits array through the schema', async () => {
    const h = harness({ 'g.txt': FILE });
    const r = await h.run(createEditTool(h.deps), { path: 'g.txt', edits: [] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /edits/);
  });

  it('a CRLF file takes several edits and stays CRLF', async () => {
    const h = harness({ 'w.txt': FILE.replace(/\n/g, '\r\n') });
    await h.run(createEditTool(h.deps), { path: 'w.txt', edits: [{ old_string: 'beta\ngamma', new_string: 'b\ng' }, { old_string: 'epsilon', new_string: 'e\nf' }] });
    assert.equal(h.bytes('w.txt').toString(), 'alpha\r\nb\r\ng\r\ndelta\r\ne\r\nf\r\n');
  });
});
