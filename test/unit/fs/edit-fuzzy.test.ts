import assert from 'node:assert/strict';
import { locate } from '../../../src/core/fs/edit-match';
import { fold } from '../../../src/core/fs/edit-normalize';
import { createEditTool } from '../../../src/core/fs/tools/edit';
import { removeTempDirs } from '../../support/fs-fixtures';
import { harness } from './edit-harness';

describe('edit: fuzzy matching replaces only the matched span', () => {
  after(removeTempDirs);

  it('matches smart quotes with straight ones, and the other smart quotes of the file survive', async () => {
    const file = 'intro: “keep these” and ‘these’\nsay(“hello”, ‘world’);\noutro: “also kept”\n';
    const h = harness({ 'q.js': file });
    const r = await h.run(createEditTool(h.deps), { path: 'q.js', old_string: 'say("hello", \'world\');', new_string: 'say("bye");' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('q.js'), 'intro: “keep these” and ‘these’\nsay("bye");\noutro: “also kept”\n');
    assert.match(r.forLLM, /only the matched text was replaced/);
    assert.equal(r.details!.match, 'fuzzy');
  });

  it('tolerates trailing spaces in the file and in old_string, keeping the rest byte for byte', async () => {
    const file = 'a = 1   \nb = 2\t\nc = 3  \nd = 4 \n';
    const h = harness({ 't.txt': file });
    await h.run(createEditTool(h.deps), { path: 't.txt', old_string: 'a = 1\nb = 2  \n', new_string: 'A = 1\nB = 2\n' });
    assert.equal(h.ws.read('t.txt'), 'A = 1\nB = 2\nc = 3  \nd = 4 \n');
  });

  it('matches non-breaking spaces, NFKC forms and dashes, touching nothing else', async () => {
    const file = 'price:\u00a010\u00a0€ — ﬁnal\nkeep\u00a0this — and ﬁle\n';
    const h = harness({ 'n.txt': file });
    await h.run(createEditTool(h.deps), { path: 'n.txt', old_string: 'price: 10 € - final', new_string: 'price: 12 €' });
    assert.equal(h.ws.read('n.txt'), 'price: 12 €\nkeep\u00a0this — and ﬁle\n');
  });

  it('matches precomposed against decomposed accents (NFKC equivalence)', async () => {
    const file = 'caf\u00e9 = 1\nother = caf\u00e9\n';
    const h = harness({ 'c.txt': file });
    const r = await h.run(createEditTool(h.deps), { path: 'c.txt', old_string: 'cafe\u0301 = 1', new_string: 'tea = 1' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('c.txt'), 'tea = 1\nother = caf\u00e9\n');
  });

  it('does not let a match end inside the file\'s own trailing whitespace or split a ligature', () => {
    // Mid-line old text ending with a space keeps that space inside the span.
    const hit = locate('a = 1', 'a = ', '\n');
    assert.deepEqual(hit?.spans, [{ start: 0, end: 4 }]);
    // "f" alone must not match half of the ligature "ﬁ".
    assert.equal(locate('ﬁx', 'f', '\n'), undefined);
    assert.deepEqual(locate('ﬁx', 'fix', '\n')?.spans, [{ start: 0, end: 2 }]);
  });

  it('maps every folded character back to its original span', () => {
    const f = fold('a\u00a0“b”  \r\nc');
    assert.equal(f.text, 'a "b"\nc');
    assert.deepEqual(Array.from(f.start), [0, 1, 2, 3, 4, 7, 9]);
    assert.deepEqual(Array.from(f.end), [1, 2, 3, 4, 5, 9, 10]);
  });

  it('exact matches win over fuzzy ones (no false alarms on ordinary files)', async () => {
    const file = 'x = "a"\ny = “a”\n';
    const h = harness({ 'e.txt': file });
    const r = await h.run(createEditTool(h.deps), { path: 'e.txt', old_string: 'x = "a"', new_string: 'x = "b"' });
    assert.equal(r.details!.match, 'exact');
    assert.equal(h.ws.read('e.txt'), 'x = "b"\ny = “a”\n');
  });

  it('reports fuzzy ambiguity with line numbers too', async () => {
    const h = harness({ 'f.txt': 'say(“hi”)\nx\nsay(„hi“)  \n' });
    const r = await h.run(createEditTool(h.deps), { path: 'f.txt', old_string: 'say("hi")', new_string: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /occurs 2 times in f\.txt, at lines 1, 3/);
  });

  it('a long hostile file and old_string finish quickly (complexity guard)', async () => {
    const file = `${'a'.repeat(200_000)}\n${'a \u00a0'.repeat(20_000)}\n`;
    const h = harness({ 'big.txt': file });
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const r = await h.run(createEditTool(h.deps), { path: 'big.txt', old_string: `${'a'.repeat(50_000)}b`, new_string: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /was not found/);
  });
});

describe('edit: [REDACTED] is never written over a real value', () => {
  after(removeTempDirs);
  const ENV = 'PORT=8080\nAPI_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c\nDEBUG=false\n';

  it('refuses an old_string with the placeholder where the file has the secret, naming the line', async () => {
    const h = harness({ '.env': ENV });
    const r = await h.run(createEditTool(h.deps), { path: '.env', old_string: 'API_KEY=sk-live-[REDACTED]\nDEBUG=false', new_string: 'API_KEY=sk-live-[REDACTED]\nDEBUG=true' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /old_string contains \[REDACTED\], which is not in \.env \(the file has the real value at line 2\)/);
    assert.match(r.forLLM, /Edit around it/);
    assert.equal(h.ws.read('.env'), ENV);
    assert.equal(h.batches.length, 0);
  });

  it('lets the model edit around the secret', async () => {
    const h = harness({ '.env': ENV });
    const r = await h.run(createEditTool(h.deps), { path: '.env', old_string: 'DEBUG=false', new_string: 'DEBUG=true' });
    assert.equal(r.isError, false);
    assert.equal(h.ws.read('.env'), ENV.replace('DEBUG=false', 'DEBUG=true'));
  });

  it('refuses a new_string that copies the scrubbed line back in', async () => {
    const h = harness({ '.env': ENV });
    const r = await h.run(createEditTool(h.deps), { path: '.env', old_string: 'PORT=8080', new_string: 'PORT=9090\nAPI_KEY=sk-live-[REDACTED]' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /new_string contains \[REDACTED\] where \.env holds a real value \(.*line 2\)/);
    assert.equal(h.ws.read('.env'), ENV);
  });

  it('edits a file that really contains the text [REDACTED] (documentation) normally', async () => {
    const doc = 'Secrets appear as [REDACTED] in results.\nSee the scrubber.\n';
    const h = harness({ 'doc.md': doc });
    const r = await h.run(createEditTool(h.deps), { path: 'doc.md', old_string: 'appear as [REDACTED] in', new_string: 'are shown as [REDACTED] in' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('doc.md'), doc.replace('appear as', 'are shown as'));
  });
});
