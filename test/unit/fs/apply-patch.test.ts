import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createApplyPatchTool } from '../../../src/core/fs/tools/apply-patch';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { harness } from './edit-harness';

const A = 'import x from "x";\n\nexport function a() {\n  return 1;\n}\n\nexport function b() {\n  return 2;\n}\n';
const B = 'one\ntwo\nthree\n';

function patch(...lines: string[]): { input: string } {
  return { input: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') };
}

describe('apply_patch', () => {
  after(removeTempDirs);

  it('adds, updates and deletes files in one call, in one review', async () => {
    const h = harness({ 'src/a.ts': A, 'old.txt': 'bye\n' });
    const tool = createApplyPatchTool(h.deps);
    const r = await h.run(tool, patch(
      '*** Add File: src/new/c.ts',
      '+export const c = 3;',
      '*** Update File: src/a.ts',
      '@@ export function b() {',
      '-  return 2;',
      '+  return 22;',
      '*** Delete File: old.txt',
    ));
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('src/new/c.ts'), 'export const c = 3;\n');
    assert.equal(h.ws.read('src/a.ts'), A.replace('return 2;', 'return 22;'));
    assert.equal(h.ws.exists('old.txt'), false);
    assert.equal(h.batches.length, 1);
    assert.match(r.forLLM, /^apply_patch: 3 of 3 file changes applied/);
    assert.match(r.forLLM, /- src\/new\/c\.ts: created \(1 line, 20 bytes\)\./);
    assert.match(r.forLLM, /- src\/a\.ts: updated \(1 hunk, \+1 -1 lines\)\./);
    assert.match(r.forLLM, /- old\.txt: deleted\./);
    assert.equal(tool.capability, 'mutating');
  });

  it('takes a heredoc-wrapped patch', async () => {
    const h = harness({ 'b.txt': B });
    const r = await h.run(createApplyPatchTool(h.deps), { input: `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: b.txt\n one\n-two\n+TWO\n three\n*** End Patch\nEOF\n` });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('b.txt'), 'one\nTWO\nthree\n');
  });

  it('moves a file with changes, and a pure move', async () => {
    const h = harness({ 'b.txt': B, 'c.txt': 'c\n' });
    const tool = createApplyPatchTool(h.deps);
    const r = await h.run(tool, patch('*** Update File: b.txt', '*** Move to: moved/b2.txt', '-three', '+THREE'));
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.exists('b.txt'), false);
    assert.equal(h.ws.read('moved/b2.txt'), 'one\ntwo\nTHREE\n');
    assert.match(r.forLLM, /moved\/b2\.txt: created as the new name of b\.txt/);
    assert.match(r.forLLM, /b\.txt: deleted \(moved to moved\/b2\.txt\)/);
    await h.run(tool, patch('*** Update File: c.txt', '*** Move to: d.txt'));
    assert.equal(h.ws.read('d.txt'), 'c\n');
    assert.equal(h.ws.exists('c.txt'), false);
  });

  it('refuses Add File over an existing file and Move onto an existing file', async () => {
    const h = harness({ 'b.txt': B, 'c.txt': 'c\n' });
    const tool = createApplyPatchTool(h.deps);
    const add = await h.run(tool, patch('*** Add File: b.txt', '+replaced'));
    assert.equal(add.isError, true);
    assert.match(add.forLLM, /Add File: b\.txt: b\.txt already exists\. To change an existing file use "\*\*\* Update File"/);
    assert.match(add.forLLM, /No files were modified\./);
    const move = await h.run(tool, patch('*** Update File: b.txt', '*** Move to: c.txt', '-one', '+1'));
    assert.match(move.forLLM, /Move to: c\.txt: c\.txt already exists; a move never overwrites a file/);
    assert.equal(h.ws.read('b.txt'), B);
    assert.equal(h.ws.read('c.txt'), 'c\n');
    assert.equal(h.batches.length, 0);
  });

  it('is all-or-nothing: a failing hunk in the second file leaves both files unchanged', async () => {
    const h = harness({ 'src/a.ts': A, 'b.txt': B });
    const r = await h.run(createApplyPatchTool(h.deps), patch(
      '*** Update File: src/a.ts',
      '-  return 1;',
      '+  return 11;',
      '*** Update File: b.txt',
      '@@',
      ' one',
      '-two',
      '+2',
      '@@',
      ' three',
      '-four',
      '+4',
    ));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /Update File: b\.txt, hunk 2 of 2 at patch line 10: these lines \(context and "-" lines\) were not found after line 2:\n {2}\|three\n {2}\|four/);
    assert.match(r.forLLM, /most similar region of b\.txt is lines 3-3:\n3\| three/);
    assert.match(r.forLLM, /No files were modified\. The patch is applied whole or not at all/);
    assert.equal(h.ws.read('src/a.ts'), A);
    assert.equal(h.ws.read('b.txt'), B);
    assert.equal(h.batches.length, 0);
  });

  it('matches context exact, then ignoring trailing, then surrounding whitespace, keeping the file\'s lines', async () => {
    const file = 'def f():\n    x = 1   \n    y = 2\n\treturn x\n';
    const h = harness({ 'f.py': file });
    const r = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: f.py', ' x = 1', '-y = 2', '+    y = 3', '   return x'));
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('f.py'), 'def f():\n    x = 1   \n    y = 3\n\treturn x\n');
  });

  it('anchors *** End of File hunks at the end and adds lines after the @@ line', async () => {
    const h = harness({ 'e.txt': 'x\nend\nmiddle\nend\n' });
    await h.run(createApplyPatchTool(h.deps), patch('*** Update File: e.txt', '@@', '-end', '+END', '*** End of File'));
    assert.equal(h.ws.read('e.txt'), 'x\nend\nmiddle\nEND\n');
    await h.run(createApplyPatchTool(h.deps), patch('*** Update File: e.txt', '@@ middle', '+inserted'));
    assert.equal(h.ws.read('e.txt'), 'x\nend\nmiddle\ninserted\nEND\n');
  });

  it('keeps CRLF, the BOM and a missing final newline', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const h = harness({ 'w.txt': Buffer.concat([bom, Buffer.from('a\r\nb\r\nc')]) });
    await h.run(createApplyPatchTool(h.deps), patch('*** Update File: w.txt', ' a', '-b', '+B1', '+B2'));
    assert.deepEqual(h.bytes('w.txt'), Buffer.concat([bom, Buffer.from('a\r\nB1\r\nB2\r\nc')]));
  });

  it('names the hunk order problem when hunks are out of file order', async () => {
    const h = harness({ 'b.txt': B });
    const r = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: b.txt', '-three', '+3', '@@', '-one', '+1'));
    assert.match(r.forLLM, /These lines do occur at line 1, before the end of the previous hunk: hunks must follow the order of the file\./);
    assert.equal(h.ws.read('b.txt'), B);
  });

  it('reports an unknown @@ line, a missing file to update and a missing file to delete', async () => {
    const h = harness({ 'b.txt': B });
    const r = await h.run(createApplyPatchTool(h.deps), patch(
      '*** Update File: b.txt', '@@ function nowhere()', '-two', '+2',
      '*** Update File: ghost.txt', '-x', '+y',
      '*** Delete File: gone.txt',
    ));
    assert.match(r.forLLM, /^The patch has 3 problems:/);
    assert.match(r.forLLM, /the line named after @@, "function nowhere\(\)", was not found/);
    assert.match(r.forLLM, /Update File: ghost\.txt: ghost\.txt does not exist; to create it use "\*\*\* Add File: ghost\.txt"/);
    assert.match(r.forLLM, /Delete File: gone\.txt: gone\.txt does not exist/);
    assert.equal(h.ws.read('b.txt'), B);
  });

  it('sends every path through the guard: outside, .git, delete and both ends of a move', async () => {
    const h = harness({ 'b.txt': B, '.git/config': '[core]\n' });
    const outside = tempDir('outside');
    fs.writeFileSync(`${outside}/victim.txt`, 'keep\n');
    const tool = createApplyPatchTool(h.deps);
    const cases = [
      patch('*** Add File: ../evil.txt', '+x'),
      patch(`*** Delete File: ${outside}/victim.txt`),
      patch('*** Delete File: .git/config'),
      patch('*** Update File: .git/config', '-[core]', '+[evil]'),
      patch('*** Update File: b.txt', `*** Move to: ${outside}/b.txt`),
      patch('*** Update File: b.txt', '*** Move to: .git/hooks/post-checkout'),
      patch(`*** Update File: ${outside}/victim.txt`, '*** Move to: stolen.txt'),
    ];
    for (const c of cases) {
      const r = await h.run(tool, c);
      assert.equal(r.isError, true, c.input);
      assert.match(r.forLLM, /outside|pincer\.fs\.denyPaths/, r.forLLM);
      assert.match(r.forLLM, /No files were modified/);
    }
    assert.equal(fs.readFileSync(`${outside}/victim.txt`, 'utf8'), 'keep\n');
    assert.deepEqual(fs.readdirSync(outside), ['victim.txt']);
    assert.equal(h.ws.read('.git/config'), '[core]\n');
    assert.equal(h.ws.read('b.txt'), B);
    assert.equal(h.ws.exists('stolen.txt'), false);
    assert.equal(h.batches.length, 0);
  });

  it('refuses a patch that changes one file twice', async () => {
    const h = harness({ 'b.txt': B });
    const r = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: b.txt', '-one', '+1', '*** Delete File: b.txt'));
    assert.match(r.forLLM, /Delete File: b\.txt: b\.txt is already changed by "Update File: b\.txt"/);
    assert.equal(h.ws.read('b.txt'), B);
  });

  it('says "no files were modified" when the patch changes nothing or everything is rejected', async () => {
    const h = harness({ 'b.txt': B });
    const same = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: b.txt', ' one', '-two', '+two'));
    assert.equal(same.isError, false);
    assert.match(same.forLLM, /The patch changes nothing .* No files were modified\./);
    assert.equal(h.batches.length, 0);
    const rejected = harness({ 'b.txt': B }, 'reject');
    const r = await rejected.run(createApplyPatchTool(rejected.deps), patch('*** Update File: b.txt', '-two', '+2', '*** Add File: n.txt', '+n'));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /0 of 2 file changes applied/);
    assert.match(r.forLLM, /No files were modified\.$/);
    assert.equal(rejected.ws.read('b.txt'), B);
    assert.equal(rejected.ws.exists('n.txt'), false);
  });

  it('refuses [REDACTED] in context where the file has the real value', async () => {
    const env = 'HOST=db\nPASSWORD=hunter2-correct-horse\nPORT=5432\n';
    const h = harness({ 'app.env': env });
    const r = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: app.env', ' HOST=db', ' PASSWORD=[REDACTED]', '-PORT=5432', '+PORT=6543'));
    assert.match(r.forLLM, /contains \[REDACTED\], which is not in app\.env \(the file has the real value at line 2\)/);
    const plus = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: app.env', '-HOST=db', '+HOST=db2', '+PASSWORD=[REDACTED]'));
    assert.match(plus.forLLM, /"\+" lines contains \[REDACTED\] where app\.env holds a real value/);
    assert.equal(h.ws.read('app.env'), env);
    // Around the secret, the patch applies.
    const ok = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: app.env', '-PORT=5432', '+PORT=6543', '*** End of File'));
    assert.equal(ok.isError, false, ok.forLLM);
    assert.equal(h.ws.read('app.env'), env.replace('5432', '6543'));
  });

  it('a large file with many hunks applies in linear-ish time (complexity guard)', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}`);
    const h = harness({ 'big.txt': `${lines.join('\n')}\n` });
    const hunks: string[] = [];
    for (let i = 1000; i < 50_000; i += 1000) hunks.push('@@', ` line ${i - 1}`, `-line ${i}`, `+LINE ${i}`);
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const r = await h.run(createApplyPatchTool(h.deps), patch('*** Update File: big.txt', ...hunks));
    assert.equal(r.isError, false, r.forLLM);
    assert.match(h.ws.read('big.txt'), /\nLINE 49000\nline 49001\n/);
  });
});
