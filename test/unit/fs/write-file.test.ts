import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createWriteFileTool } from '../../../src/core/fs/tools/write-file';
import { link, removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { context, EditingReviewer, harness } from './edit-harness';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('write_file', () => {
  after(removeTempDirs);

  it('creates a file and its parent folders, and says created with lines and bytes', async () => {
    const h = harness();
    const tool = createWriteFileTool(h.deps);
    const r = await tool.execute({ path: 'deep/er/new.ts', content: 'a\nb\n' }, context());
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('deep/er/new.ts'), 'a\nb\n');
    assert.match(r.forLLM, /^deep\/er\/new\.ts: created \(2 lines, 4 bytes\)\.$/);
    assert.equal(r.details!.mode, 'create');
    assert.equal(tool.group, 'fs');
    assert.equal(tool.capability, 'mutating');
  });

  it('overwrites an existing file and says so, with the old and new size', async () => {
    const h = harness({ 'a.txt': 'one\ntwo\nthree\n' });
    const r = await h.run(createWriteFileTool(h.deps), { path: 'a.txt', content: 'x' });
    assert.equal(h.ws.read('a.txt'), 'x');
    assert.match(r.forLLM, /a\.txt: overwritten \(1 line, 1 byte; it had 3 lines, 14 bytes\)/);
    assert.equal(h.batches[0]![0]!.before, 'one\ntwo\nthree\n');
  });

  it('"" writes an empty file (new or existing) and never deletes', async () => {
    const h = harness({ 'full.txt': 'content\n' });
    const tool = createWriteFileTool(h.deps);
    assert.equal((await h.run(tool, { path: 'empty.txt', content: '' })).isError, false);
    assert.equal((await h.run(tool, { path: 'full.txt', content: '' })).isError, false);
    assert.equal(h.bytes('empty.txt').length, 0);
    assert.equal(h.bytes('full.txt').length, 0);
    assert.ok(h.batches.every((b) => b.every((c) => c.after === '')), 'an empty write is a write, never a deletion');
  });

  it('a call without the content key is refused by the schema, and nothing is written', async () => {
    const h = harness({ 'keep.txt': 'precious\n' });
    const r = await h.run(createWriteFileTool(h.deps), { path: 'keep.txt' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /content: required, but missing/);
    assert.equal(h.ws.read('keep.txt'), 'precious\n');
    assert.equal(h.batches.length, 0);
    const nullContent = await h.run(createWriteFileTool(h.deps), { path: 'keep.txt', content: null });
    assert.equal(nullContent.isError, true);
    assert.equal(h.ws.read('keep.txt'), 'precious\n');
  });

  it('append adds to the end, creates a missing file, and does nothing for ""', async () => {
    const h = harness({ 'log.txt': 'first\n' });
    const tool = createWriteFileTool(h.deps);
    const r = await h.run(tool, { path: 'log.txt', content: 'second\nthird\n', append: true });
    assert.equal(h.ws.read('log.txt'), 'first\nsecond\nthird\n');
    assert.match(r.forLLM, /appended 2 lines, 13 bytes; the file now has 19 bytes/);
    await h.run(tool, { path: 'new/log.txt', content: 'x', append: true });
    assert.equal(h.ws.read('new/log.txt'), 'x');
    const none = await h.run(tool, { path: 'log.txt', content: '', append: true });
    assert.equal(none.isError, false);
    assert.match(none.forLLM, /Nothing to append/);
    assert.equal(h.batches.length, 2);
  });

  it('append to a BOM + CRLF file keeps the bytes before and uses CRLF for the new text', async () => {
    const h = harness({ 'w.txt': Buffer.concat([BOM, Buffer.from('a\r\nb\r\n')]) });
    await h.run(createWriteFileTool(h.deps), { path: 'w.txt', content: 'c\nd\n', append: true });
    assert.deepEqual(h.bytes('w.txt'), Buffer.concat([BOM, Buffer.from('a\r\nb\r\nc\r\nd\r\n')]));
  });

  it('overwriting a CRLF file with a BOM keeps both; a new file gets exactly the content', async () => {
    const h = harness({ 'win.txt': Buffer.concat([BOM, Buffer.from('old\r\nlines\r\n')]) });
    const tool = createWriteFileTool(h.deps);
    await h.run(tool, { path: 'win.txt', content: 'new\nlines\n' });
    assert.deepEqual(h.bytes('win.txt'), Buffer.concat([BOM, Buffer.from('new\r\nlines\r\n')]));
    await h.run(tool, { path: 'unix.txt', content: 'a\r\nb\n' });
    assert.deepEqual(h.bytes('unix.txt'), Buffer.from('a\r\nb\n'));
  });

  it('refuses paths outside the workspace and inside .git, writing nothing', async () => {
    const h = harness({ '.git/config': '[core]\n', 'src/a.ts': '' });
    const outside = tempDir('outside');
    const tool = createWriteFileTool(h.deps);
    for (const p of ['../escape.txt', path.join(outside, 'x.txt'), '.git/config', '.git/hooks/pre-commit', 'src/../../escape2.txt']) {
      const r = await h.run(tool, { path: p, content: 'pwned' });
      assert.equal(r.isError, true, `${p} was accepted`);
      assert.match(r.forLLM, /outside|denied|pincer\.fs/i, r.forLLM);
    }
    assert.equal(fs.readdirSync(outside).length, 0);
    assert.equal(h.ws.read('.git/config'), '[core]\n');
    assert.equal(fs.existsSync(path.join(path.dirname(h.ws.root), 'escape.txt')), false);
    assert.equal(h.batches.length, 0);
  });

  it('refuses a symlink that leads out and a hard-linked file, leaving their targets alone', async () => {
    const h = harness({ 'in.txt': 'in\n' });
    const outside = tempDir('outside');
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside\n');
    link(path.join(outside, 'target.txt'), h.ws.path('leak.txt'));
    link(outside, h.ws.path('outdir'));
    fs.linkSync(path.join(outside, 'target.txt'), h.ws.path('hard.txt'));
    const tool = createWriteFileTool(h.deps);
    for (const [p, code] of [['leak.txt', /symbolic link|outside/], ['outdir/new.txt', /symbolic link|outside/], ['hard.txt', /hard link/]] as const) {
      const r = await h.run(tool, { path: p, content: 'pwned' });
      assert.equal(r.isError, true, `${p}: ${r.forLLM}`);
      assert.match(r.forLLM, code);
    }
    assert.equal(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8'), 'outside\n');
    assert.deepEqual(fs.readdirSync(outside), ['target.txt']);
  });

  it('refuses a folder as the target', async () => {
    const h = harness({ 'dir/x.txt': 'x' });
    const r = await h.run(createWriteFileTool(h.deps), { path: 'dir', content: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /dir is a folder/);
  });

  it('identical content is not proposed again', async () => {
    const h = harness({ 'same.txt': 'same\n' });
    const r = await h.run(createWriteFileTool(h.deps), { path: 'same.txt', content: 'same\n' });
    assert.match(r.forLLM, /already has exactly this content/);
    assert.equal(h.batches.length, 0);
  });

  it('leaves no temporary files behind', async () => {
    const h = harness({ 'd/a.txt': 'a' });
    await h.run(createWriteFileTool(h.deps), { path: 'd/a.txt', content: 'b'.repeat(100_000) });
    assert.deepEqual(fs.readdirSync(h.ws.path('d')), ['a.txt']);
  });

  it('a rejected change leaves the file alone and gives the model the reason', async () => {
    const h = harness({ 'a.txt': 'old\n' }, 'reject');
    const r = await h.run(createWriteFileTool(h.deps), { path: 'a.txt', content: 'new\n' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /a\.txt: NOT changed: the user rejected the proposed change \(overwritten/);
    assert.match(r.forLLM, /"not now, the tests are red"/);
    assert.equal(h.ws.read('a.txt'), 'old\n');
    assert.equal((r.details!.decisions as { decision: string }[])[0]!.decision, 'rejected');
  });

  it('a change the user edited before accepting is reported with a diff of what differs', async () => {
    const h = harness({}, (wfs) => new EditingReviewer(wfs, (s) => s.replace('b = 2', 'b = 3')));
    const r = await h.run(createWriteFileTool(h.deps), { path: 'm.ts', content: 'a = 1\nb = 2\nc = 3\n' });
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /user edited your proposal/);
    assert.match(r.forLLM, /```diff\n--- a\/m\.ts\tproposed\n\+\+\+ b\/m\.ts\twritten\n@@ -1,3 \+1,3 @@\n a = 1\n-b = 2\n\+b = 3\n c = 3\n```/);
    assert.equal(h.ws.read('m.ts'), 'a = 1\nb = 3\nc = 3\n');
  });

  it('refuses to write [REDACTED] over a real secret the model saw scrubbed', async () => {
    const h = harness({ '.env.local': 'PORT=8080\nAPI_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c\n' });
    const r = await h.run(createWriteFileTool(h.deps), { path: '.env.local', content: 'PORT=9090\nAPI_KEY=sk-live-[REDACTED]\n' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /\[REDACTED\].*real value at line 2/s);
    assert.equal(h.ws.read('.env.local'), 'PORT=8080\nAPI_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c\n');
  });

  it('writes [REDACTED] when it is ordinary text (a new file, or nothing real stands behind it)', async () => {
    const h = harness({ 'doc.md': '# Scrubbing\nold text\n' });
    const tool = createWriteFileTool(h.deps);
    const docs = 'Secrets are shown as [REDACTED] in tool results.\n';
    assert.equal((await h.run(tool, { path: 'new.md', content: docs })).isError, false);
    assert.equal(h.ws.read('new.md'), docs);
    assert.equal((await h.run(tool, { path: 'doc.md', content: `# Scrubbing\n${docs}` })).isError, false);
    assert.equal(h.ws.read('doc.md'), `# Scrubbing\n${docs}`);
  });
});
