// The grep output builder: windows cut from long lines, and the caps applied as lines arrive.
import assert from 'node:assert/strict';
import { byteToCharIndex, GrepCollector, sliceLine } from '../../../src/core/fs/grep-collect';

const caps = (over = {}) => ({ limit: 100, maxLineChars: 500, maxBytes: 50_000, ...over });

describe('sliceLine', () => {
  it('leaves short lines alone and cuts long ones to at most max characters around the match', () => {
    assert.deepEqual(sliceLine('short', 10), { text: 'short', cut: false });
    const line = `${'a'.repeat(5000)}MATCH${'b'.repeat(5000)}`;
    const s = sliceLine(line, 500, 5000);
    assert.ok(s.cut && s.text.length <= 500 && s.text.includes('MATCH'));
    assert.ok(s.text.startsWith('…') && s.text.endsWith('…'));
    const head = sliceLine(line, 500, 0);
    assert.ok(head.text.startsWith('aaa') && head.text.endsWith('…') && head.text.length <= 500);
    const tail = sliceLine(line, 500, line.length - 1);
    assert.ok(tail.text.startsWith('…') && tail.text.endsWith('b') && tail.text.length <= 500);
  });

  it('never splits a surrogate pair (no lone halves in the output)', () => {
    const line = '😀'.repeat(2000);
    for (const at of [0, 1, 999, 1000, 3999]) {
      const s = sliceLine(line, 101, at).text.replace(/…/g, '');
      assert.ok(s.length > 0 && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s), `at ${at}`);
    }
  });

  it('converts rg\'s byte offsets to character offsets', () => {
    assert.equal(byteToCharIndex('größe x', 7), 5);
    assert.equal(byteToCharIndex('😀x', 4), 2);
    assert.equal(byteToCharIndex('abc', 0), 0);
  });
});

describe('GrepCollector', () => {
  it('groups by file, separates non-adjacent context groups, stops at the limit', () => {
    const c = new GrepCollector(caps({ limit: 2 }), 1, 1);
    c.beginFile('a.ts');
    assert.ok(c.addContext(1, 'c1\n'));
    assert.ok(c.addMatch(2, 'm2\n'));
    assert.ok(c.addContext(3, 'c3\n'));
    c.endFile();
    c.beginFile('b.ts');
    assert.ok(c.addContext(9, 'c9\r\n'));
    assert.ok(c.addMatch(10, 'm10\r\n'));
    assert.ok(c.addContext(11, 'c11\n'));
    assert.ok(c.addContext(19, 'c19\n'));
    assert.equal(c.addMatch(20, 'm20\n'), false, 'the third match is over the limit');
    assert.equal(c.stopped, 'limit');
    assert.equal(c.text(), 'a.ts\n1- c1\n2: m2\n3- c3\n\nb.ts\n9- c9\n10: m10\n11- c11');
    assert.deepEqual([c.matches, c.files], [2, 2]);
  });

  it('stops before the byte cap, never after it', () => {
    const c = new GrepCollector(caps({ maxBytes: 1000, limit: 1000 }), 0, 0);
    c.beginFile('f');
    let n = 0;
    while (c.addMatch(++n, 'y'.repeat(90))) { /* until full */ }
    assert.equal(c.stopped, 'bytes');
    assert.ok(Buffer.byteLength(c.text()) <= 1000);
    assert.equal(c.matches, 10);
  });

  it('a NUL in a line marks the file binary: nothing more of it is shown', () => {
    const c = new GrepCollector(caps(), 0, 0);
    c.beginFile('bin');
    assert.ok(c.addMatch(1, 'ok\n'));
    assert.ok(c.addMatch(2, 'x\0y\n'));
    assert.ok(c.addMatch(3, 'later\n'));
    c.endFile();
    c.beginFile('txt');
    assert.ok(c.addMatch(1, 'fine\n'));
    assert.equal(c.text(), 'bin\n1: ok\n\ntxt\n1: fine');
    assert.equal(c.binarySkipped, 1);
  });

  it('asks for the match position only for lines it has to cut', () => {
    const c = new GrepCollector(caps({ maxLineChars: 50 }), 0, 0);
    c.beginFile('f');
    let asked = 0;
    c.addMatch(1, 'short', () => (asked++, 0));
    c.addMatch(2, `${'z'.repeat(100)}HIT${'z'.repeat(100)}`, () => (asked++, 100));
    assert.equal(asked, 1);
    assert.match(c.text(), /2: …z+HITz+…/);
    assert.deepEqual(c.cut, [{ file: 'f', line: 2, chars: 203 }]);
  });
});
