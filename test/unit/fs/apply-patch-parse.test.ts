import assert from 'node:assert/strict';
import { parsePatch, unwrap, type PatchOp } from '../../../src/core/fs/patch-parse';

function ops(input: string): PatchOp[] {
  const r = parsePatch(input);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.ops;
}

function error(input: string): string {
  const r = parsePatch(input);
  assert.equal(r.ok, false, 'the patch was accepted');
  return r.ok ? '' : r.message;
}

describe('apply_patch: parsing', () => {
  it('parses Add, Delete, Update with Move, @@ headers and End of File', () => {
    const parsed = ops([
      '*** Begin Patch',
      '*** Add File: docs/new.md',
      '+# Title',
      '+',
      '+text',
      '*** Delete File: old.txt',
      '*** Update File: src/a.ts',
      '*** Move to: src/b.ts',
      '@@ class A {',
      ' keep',
      '-old',
      '+new',
      '@@',
      ' tail',
      '+last',
      '*** End of File',
      '*** End Patch',
    ].join('\n'));
    assert.deepEqual(parsed[0], { kind: 'add', path: 'docs/new.md', content: '# Title\n\ntext\n', patchLine: 2 });
    assert.deepEqual(parsed[1], { kind: 'delete', path: 'old.txt', patchLine: 6 });
    const up = parsed[2]!;
    assert.equal(up.kind, 'update');
    if (up.kind !== 'update') return;
    assert.equal(up.moveTo, 'src/b.ts');
    assert.equal(up.hunks.length, 2);
    assert.equal(up.hunks[0]!.header, 'class A {');
    assert.deepEqual(up.hunks[0]!.lines, [{ op: ' ', text: 'keep' }, { op: '-', text: 'old' }, { op: '+', text: 'new' }]);
    assert.equal(up.hunks[1]!.header, undefined);
    assert.equal(up.hunks[1]!.endOfFile, true);
  });

  it('accepts a first hunk without @@, unified-diff ranges after @@, and CRLF patches', () => {
    const parsed = ops('*** Begin Patch\r\n*** Update File: a.txt\r\n-x\r\n+y\r\n@@ -10,3 +10,3 @@\r\n-p\r\n+q\r\n*** End Patch\r\n');
    const up = parsed[0]!;
    assert.ok(up.kind === 'update');
    assert.equal(up.hunks.length, 2);
    assert.equal(up.hunks[1]!.header, undefined);
    assert.deepEqual(up.hunks[0]!.lines, [{ op: '-', text: 'x' }, { op: '+', text: 'y' }]);
  });

  it('tolerates heredoc wrappers and code fences', () => {
    const body = '*** Begin Patch\n*** Delete File: x\n*** End Patch';
    for (const wrapped of [
      `apply_patch <<'EOF'\n${body}\nEOF\n`,
      `apply_patch <<"PATCH"\n${body}\nPATCH`,
      `<<EOF\n${body}\nEOF`,
      `applypatch <<-'END_OF_PATCH'\n${body}\n  END_OF_PATCH  \n`,
      `\`\`\`\n${body}\n\`\`\``,
      `\n\n  ${body}\n\n`,
    ]) {
      assert.deepEqual(ops(wrapped), [{ kind: 'delete', path: 'x', patchLine: 2 }], wrapped);
    }
    assert.deepEqual(unwrap("apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF"), ['*** Begin Patch', '*** End Patch']);
  });

  it('drops blank separator lines at the end of a hunk but keeps a blank context line inside it', () => {
    const up = ops('*** Begin Patch\n*** Update File: a\n a\n\n b\n-c\n\n\n*** Delete File: z\n*** End Patch')[0]!;
    assert.ok(up.kind === 'update');
    assert.deepEqual(up.hunks[0]!.lines, [{ op: ' ', text: 'a' }, { op: ' ', text: '' }, { op: ' ', text: 'b' }, { op: '-', text: 'c' }]);
  });

  it('refuses a patch cut off before *** End Patch, so half a patch is never applied', () => {
    assert.match(error('*** Begin Patch\n*** Add File: a\n+x\n'), /does not end with "\*\*\* End Patch": it was probably cut off/);
    assert.match(error("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\nEOF"), /cut off/);
  });

  it('explains malformed patches with the patch line', () => {
    assert.match(error('*** Add File: a\n+x\n*** End Patch'), /must start with "\*\*\* Begin Patch"/);
    assert.match(error(''), /it is empty/);
    assert.match(error('*** Begin Patch\n*** End Patch'), /no file operations/);
    assert.match(error('*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch'), /line 3: every line of "\*\*\* Add File: a" must start with "\+"/);
    assert.match(error('*** Begin Patch\n*** Update File: a\n@@\n~weird\n*** End Patch'), /line 4: unexpected "~weird"/);
    assert.match(error('*** Begin Patch\n*** Update File: a\n*** End Patch'), /has no hunks/);
    assert.match(error('*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch'), /line 3: a hunk .* has no lines/);
    assert.match(error('*** Begin Patch\n*** Delete File: a\n+x\n*** End Patch'), /line 3: "\*\*\* Delete File: a" takes no lines/);
    assert.match(error('*** Begin Patch\n*** Frobnicate File: a\n*** End Patch'), /line 2: expected "\*\*\* Add File/);
    assert.match(error('*** Begin Patch\n*** Add File:   \n*** End Patch'), /needs a path/);
    assert.match(error('*** Begin Patch\n*** Update File: a\n*** Move to: \n-x\n*** End Patch'), /Move to:" needs a path/);
  });

  it('hostile input parses in linear time (complexity guard)', () => {
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const blanks = ' '.repeat(200_000);
    const up = ops(`*** Begin Patch\n*** Update File: a\n@@ x${blanks}y\n-a\n*** End Patch`)[0]!;
    assert.ok(up.kind === 'update' && up.hunks[0]!.header!.endsWith('y'));
    const many = Array.from({ length: 100_000 }, (_, i) => `+line ${i}`).join('\n');
    assert.equal(ops(`*** Begin Patch\n*** Add File: big\n${many}\n*** End Patch`)[0]!.kind, 'add');
  });

  it('an Update that only moves is valid', () => {
    const up = ops('*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch')[0]!;
    assert.ok(up.kind === 'update');
    assert.equal(up.moveTo, 'b.txt');
    assert.equal(up.hunks.length, 0);
  });

  it('a blank line right after *** End of File separates; it does not start an empty hunk', () => {
    const beforeEnd = ops('*** Begin Patch\n*** Update File: a\n@@\n x\n+y\n*** End of File\n\n*** End Patch')[0]!;
    assert.ok(beforeEnd.kind === 'update');
    assert.equal(beforeEnd.hunks.length, 1);
    assert.equal(beforeEnd.hunks[0]!.endOfFile, true);
    const beforeNext = ops('*** Begin Patch\n*** Update File: a\n@@\n x\n+y\n*** End of File\n\n  \n*** Update File: b\n@@\n-z\n*** End Patch');
    assert.deepEqual(beforeNext.map((o) => o.path), ['a', 'b']);
    // A blank line that opens a file's first hunk is still a blank context line.
    const first = ops('*** Begin Patch\n*** Update File: a\n\n-x\n*** End Patch')[0]!;
    assert.ok(first.kind === 'update');
    assert.deepEqual(first.hunks[0]!.lines, [{ op: ' ', text: '' }, { op: '-', text: 'x' }]);
  });

  it('accepts a file header indented by spaces where a header is expected', () => {
    const parsed = ops([
      '*** Begin Patch',
      '  *** Delete File: gone.txt',
      '  *** Add File: new.txt',
      '+hello',
      '   *** Update File: a.ts',
      '@@',
      ' keep',
      '+tail',
      '*** End of File',
      '  *** Update File: b.ts',
      '-old',
      '+new',
      '  *** End Patch',
    ].join('\n'));
    assert.deepEqual(parsed.map((o) => [o.kind, o.path]), [['delete', 'gone.txt'], ['add', 'new.txt'], ['update', 'a.ts'], ['update', 'b.ts']]);
    const a = parsed[2]!;
    assert.ok(a.kind === 'update');
    assert.deepEqual(a.hunks[0]!.lines, [{ op: ' ', text: 'keep' }, { op: '+', text: 'tail' }]);
  });

  it('inside a hunk, a context line whose text looks like a header stays a context line', () => {
    // " " + " *** Update File: other" is context of a.md (a Markdown file that quotes a patch).
    const parsed = ops('*** Begin Patch\n*** Update File: a.md\n@@\n before\n  *** Update File: other\n-after\n+changed\n*** End Patch');
    assert.equal(parsed.length, 1);
    const up = parsed[0]!;
    assert.ok(up.kind === 'update');
    assert.deepEqual(up.hunks[0]!.lines, [
      { op: ' ', text: 'before' }, { op: ' ', text: ' *** Update File: other' }, { op: '-', text: 'after' }, { op: '+', text: 'changed' },
    ]);
    // An unindented header still ends the hunk, as before.
    assert.equal(ops('*** Begin Patch\n*** Update File: a\n-x\n*** Update File: b\n-y\n*** End Patch').length, 2);
  });
});
