// capForModel: whole when it fits; otherwise head and tail on line boundaries with a marker that
// counts exactly what was left out and names the page to read; a tail with errors gets more room.
import assert from 'node:assert/strict';
import { capForModel } from '../../../../src/core/exec/run/output-cap';

const hint = (from: number, count: number) => `read them with process log id=j1 offset=${from} limit=${count}`;

function numbered(count: number, make: (i: number) => string = (i) => `line ${i}`): string {
  let s = '';
  for (let i = 1; i <= count; i++) s += `${make(i)}\n`;
  return s;
}

/** Splits a capped result into head lines, the marker, tail lines. */
function parts(capped: string) {
  const lines = capped.split('\n');
  const at = lines.findIndex((l) => l.startsWith('[… '));
  assert.ok(at >= 0, 'a marker line');
  const m = /^\[… ([\d,]+) lines \(([\d,]+) characters\) omitted here; read them with process log id=j1 offset=(\d+) limit=(\d+) …\]$/.exec(lines[at]);
  assert.ok(m, lines[at]);
  const num = (x: string) => Number(x.replace(/,/g, ''));
  return { head: lines.slice(0, at), tail: lines.slice(at + 1), lines: num(m[1]), chars: num(m[2]), offset: num(m[3]), limit: num(m[4]) };
}

describe('capForModel', () => {
  it('returns text that fits unchanged, marker-free', () => {
    const t = numbered(10);
    assert.equal(capForModel(t, t.length, hint), t);
    assert.equal(capForModel('', 10, hint), '');
  });

  it('keeps whole lines at both ends and counts the omitted ones exactly', () => {
    const text = numbered(10_000);
    const out = capForModel(text, 5000, hint);
    assert.ok(out.length <= 5000, `${out.length}`);
    const p = parts(out);
    assert.equal(p.head[0], 'line 1');
    const lastHead = Number(p.head[p.head.length - 1].split(' ')[1]);
    const tailLines = p.tail.filter(Boolean);
    const firstTail = Number(tailLines[0].split(' ')[1]);
    assert.equal(tailLines[tailLines.length - 1], 'line 10000');
    assert.equal(p.offset, lastHead + 1, 'the hint starts at the first line left out');
    assert.equal(p.lines, firstTail - lastHead - 1);
    assert.equal(p.limit, p.lines);
    const omitted = text.slice(text.indexOf(`line ${lastHead + 1}\n`), text.indexOf(`line ${firstTail}\n`));
    assert.equal(p.chars, omitted.length);
    // Neutral output: an even split.
    const headChars = p.head.join('\n').length;
    const tailChars = p.tail.join('\n').length;
    assert.ok(Math.abs(headChars - tailChars) < 200, `${headChars} vs ${tailChars}`);
  });

  it('gives the tail the bigger share when it holds errors or a summary', () => {
    for (const last of ['Traceback (most recent call last):', 'npm ERR! code 1', 'Tests: 3 failed, 97 passed, 100 total', '✗ 2 specs', 'thread main panicked']) {
      const text = numbered(5000) + `${last}\n`;
      const p = parts(capForModel(text, 10_000, hint));
      const headChars = p.head.join('\n').length;
      const tailChars = p.tail.join('\n').length;
      assert.ok(tailChars > headChars * 2, `${last}: head ${headChars}, tail ${tailChars}`);
      assert.equal(p.tail.filter(Boolean).pop(), last);
    }
  });

  it('cuts inside a line longer than the room instead of showing nothing', () => {
    const text = `${'a'.repeat(50_000)}\n${'b'.repeat(50_000)}`;
    const out = capForModel(text, 2000, hint);
    assert.ok(out.length <= 2000);
    assert.ok(out.startsWith('aaa'));
    assert.ok(out.endsWith('bbb'), 'the end of the last line is kept');
    const p = parts(out);
    assert.equal(p.offset, 1, 'the first line is only partly shown');
    assert.equal(p.lines, 2);
  });

  it('never splits a surrogate pair and survives a tiny budget', () => {
    const text = '😀'.repeat(10_000);
    const out = capForModel(text, 1000, hint);
    assert.doesNotMatch(out, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    assert.match(capForModel(numbered(100), 10, hint), /^\[… 100 lines/);
  });
});
