import assert from 'node:assert/strict';
import { createEditTool } from '../../../src/core/fs/tools/edit';
import { removeTempDirs } from '../../support/fs-fixtures';
import { EditingReviewer, harness } from './edit-harness';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CODE = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';

describe('edit', () => {
  after(removeTempDirs);

  it('replaces exactly one occurrence and reports the line and the new text', async () => {
    const h = harness({ 'm.js': CODE });
    const tool = createEditTool(h.deps);
    const r = await h.run(tool, { path: 'm.js', old_string: '  return a - b;', new_string: '  return a - b - 0;' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('m.js'), CODE.replace('a - b;', 'a - b - 0;'));
    assert.match(r.forLLM, /^m\.js: edited \(1 replacement at line 6\)\./);
    assert.match(r.forLLM, /The file now reads:\n5\| function sub\(a, b\) \{\n6\|   return a - b - 0;\n7\| \}/);
    assert.equal(tool.capability, 'mutating');
    assert.equal(tool.group, 'fs');
  });

  it('writes $&, $1, $$ and $` in new_string literally (no replace() patterns)', async () => {
    const h = harness({ 'p.txt': 'price: X\n' });
    await h.run(createEditTool(h.deps), { path: 'p.txt', old_string: 'X', new_string: "$& $1 $$ $` $' $<n>" });
    assert.equal(h.ws.read('p.txt'), "price: $& $1 $$ $` $' $<n>\n");
    const h2 = harness({ 'q.txt': 'a a a\n' });
    await h2.run(createEditTool(h2.deps), { path: 'q.txt', old_string: 'a', new_string: '$&$&', replace_all: true });
    assert.equal(h2.ws.read('q.txt'), '$&$& $&$& $&$&\n');
  });

  it('answers ambiguity with the matching line numbers and changes nothing', async () => {
    const h = harness({ 'm.js': CODE });
    const r = await h.run(createEditTool(h.deps), { path: 'm.js', old_string: '(a, b) {', new_string: '(a, b = 0) {' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /occurs 2 times in m\.js, at lines 1, 5\. .*replace_all: true/);
    assert.equal(h.ws.read('m.js'), CODE);
    assert.equal(h.batches.length, 0);
  });

  it('counts an overlapping second occurrence as ambiguous too', async () => {
    const h = harness({ 'o.txt': 'xaaay\n' });
    const r = await h.run(createEditTool(h.deps), { path: 'o.txt', old_string: 'aa', new_string: 'b' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /more than once \(overlapping\)/);
  });

  it('replace_all changes every occurrence and lists their lines', async () => {
    const h = harness({ 'm.js': CODE });
    const r = await h.run(createEditTool(h.deps), { path: 'm.js', old_string: '(a, b)', new_string: '(x, y)', replace_all: true });
    assert.equal(h.ws.read('m.js'), CODE.replaceAll('(a, b)', '(x, y)'));
    assert.match(r.forLLM, /2 replacements at lines 1, 5/);
  });

  it('answers not-found with the most similar lines, numbered, and the first difference', async () => {
    const h = harness({ 'm.js': CODE });
    const r = await h.run(createEditTool(h.deps), { path: 'm.js', old_string: 'function sub(a, b) {\n  return a - c;\n}', new_string: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /old_string was not found in m\.js/);
    assert.match(r.forLLM, /most similar region of m\.js is lines 5-7:\n5\| function sub\(a, b\) \{\n6\|   return a - b;\n7\| \}/);
    assert.match(r.forLLM, /First difference, line 6: you sent "  return a - c;", the file has "  return a - b;"/);
    assert.match(r.forLLM, /offset=1/);
  });

  it('points out read_file line-number prefixes copied into old_string when it does not match without them either', async () => {
    const h = harness({ 'm.js': CODE });
    const r = await h.run(createEditTool(h.deps), { path: 'm.js', old_string: '5\tfunction sub(a, b) {\n6\t  return a - c;', new_string: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /line-number prefixes of read_file's output/);
    assert.match(r.forLLM, /lines 5-6/);
  });

  it('finds the nearest single line by similarity when no line matches outright', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `const value${i} = compute(${i});`);
    const h = harness({ 'big.js': `${lines.join('\n')}\n` });
    const r = await h.run(createEditTool(h.deps), { path: 'big.js', old_string: 'const valu137 = compute(137)', new_string: 'x' });
    assert.match(r.forLLM, /lines 138-138:\n138\| const value137 = compute\(137\);/);
  });

  it('refuses old_string === new_string, an empty old_string, and both forms at once', async () => {
    const h = harness({ 'm.js': CODE });
    const tool = createEditTool(h.deps);
    assert.match((await h.run(tool, { path: 'm.js', old_string: 'add', new_string: 'add' })).forLLM, /identical/);
    assert.match((await h.run(tool, { path: 'm.js', old_string: '', new_string: 'x' })).forLLM, /old_string is empty.*write_file/);
    assert.match((await h.run(tool, { path: 'm.js', old_string: 'a', new_string: 'b', edits: [{ old_string: 'c', new_string: 'd' }] })).forLLM, /either old_string\/new_string .* or edits/);
    assert.match((await h.run(tool, { path: 'm.js', old_string: 'a' })).forLLM, /new_string is missing/);
    assert.equal(h.ws.read('m.js'), CODE);
    assert.equal(h.batches.length, 0);
  });

  it('tells the model to use write_file for a file that does not exist', async () => {
    const h = harness();
    const r = await h.run(createEditTool(h.deps), { path: 'nope.ts', old_string: 'a', new_string: 'b' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /nope\.ts does not exist\. .*use write_file/);
    assert.equal(h.ws.exists('nope.ts'), false);
  });

  it('edits a CRLF file with an LF old_string and writes CRLF for the new lines', async () => {
    const crlf = 'line one\r\nline two\r\nline three\r\n';
    const h = harness({ 'w.txt': crlf });
    const r = await h.run(createEditTool(h.deps), { path: 'w.txt', old_string: 'line one\nline two\n', new_string: 'first\nsecond\nthird\n' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.bytes('w.txt').toString(), 'first\r\nsecond\r\nthird\r\nline three\r\n');
  });

  it('keeps the BOM and the line endings of a mixed file outside the edit', async () => {
    const h = harness({ 'b.txt': Buffer.concat([BOM, Buffer.from('a\r\nb\nc\r\n')]) });
    await h.run(createEditTool(h.deps), { path: 'b.txt', old_string: 'b', new_string: 'B1\nB2' });
    assert.deepEqual(h.bytes('b.txt'), Buffer.concat([BOM, Buffer.from('a\r\nB1\nB2\nc\r\n')]));
  });

  it('edits UTF-16 files in their own encoding', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]);
    const h = harness({ 'u.txt': le });
    await h.run(createEditTool(h.deps), { path: 'u.txt', old_string: 'wörld', new_string: 'welt\nzwei' });
    assert.deepEqual(h.bytes('u.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwelt\r\nzwei\r\n', 'utf16le')]));
  });

  it('refuses binary and non-UTF-8 files instead of corrupting them', async () => {
    const h = harness({ 'img.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const tool = createEditTool(h.deps);
    assert.match((await h.run(tool, { path: 'img.bin', old_string: 'PNG', new_string: 'x' })).forLLM, /binary file/);
    assert.match((await h.run(tool, { path: 'latin.txt', old_string: 'caf', new_string: 'x' })).forLLM, /not valid UTF-8/);
    assert.deepEqual(h.bytes('latin.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });

  it('refuses paths outside the workspace and in .git', async () => {
    const h = harness({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const tool = createEditTool(h.deps);
    for (const p of ['../x.txt', '/etc/hosts', '.git/HEAD']) {
      const r = await h.run(tool, { path: p, old_string: 'main', new_string: 'evil' });
      assert.equal(r.isError, true, p);
      assert.match(r.forLLM, /outside|pincer\.fs\.denyPaths/i);
    }
    assert.equal(h.ws.read('.git/HEAD'), 'ref: refs/heads/main\n');
  });

  it('reports a rejection and a user-modified edit', async () => {
    const rejected = harness({ 'm.js': CODE }, 'reject');
    const r1 = await rejected.run(createEditTool(rejected.deps), { path: 'm.js', old_string: 'a + b', new_string: 'b + a' });
    assert.equal(r1.isError, true);
    assert.match(r1.forLLM, /NOT changed: the user rejected/);
    assert.doesNotMatch(r1.forLLM, /now reads/);
    assert.equal(rejected.ws.read('m.js'), CODE);
    const modified = harness({ 'm.js': CODE }, (wfs) => new EditingReviewer(wfs, (s) => s.replace('b + a', 'b + a + 0')));
    const r2 = await modified.run(createEditTool(modified.deps), { path: 'm.js', old_string: 'a + b', new_string: 'b + a' });
    assert.match(r2.forLLM, /-  return b \+ a;\n\+  return b \+ a \+ 0;/);
    assert.equal(modified.ws.read('m.js'), CODE.replace('a + b', 'b + a + 0'));
  });
});
