// OutputLog on real temp directories: every byte kept across the spill to disk, pages by line from
// memory and from files, the disk cap's dropped middle named exactly, private file modes, and
// dispose leaving nothing behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { OutputLog } from '../../../../src/core/exec/run/output-log';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { rng } from '../../../support/rng';

/** Every line of a log, read back page by page. */
function allLines(log: OutputLog, pageLines: number): string[] {
  const out: string[] = [];
  for (let off: number | undefined = 1; off !== undefined;) {
    const page = log.read(off, pageLines);
    assert.equal(page.from, off);
    out.push(...page.text.split('\n').slice(0, -1));
    off = page.nextOffset;
  }
  return out;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir).map((f) => path.join(dir, f));
}

describe('OutputLog', () => {
  const logs: OutputLog[] = [];
  const make = (opts: ConstructorParameters<typeof OutputLog>[0]) => {
    const l = new OutputLog(opts);
    logs.push(l);
    return l;
  };
  afterEach(() => logs.splice(0).forEach((l) => l.dispose()));
  after(removeTempDirs);

  it('keeps stdout and stderr interleaved in arrival order, with counts per stream', () => {
    const log = make({});
    log.append('one\n', 'stdout');
    log.append('two\n', 'stderr');
    log.append('thr', 'stdout');
    log.append('ee', 'stdout');
    assert.equal(log.totalChars, 13);
    assert.equal(log.totalLines, 3);
    assert.deepEqual(log.charsByStream, { stdout: 9, stderr: 4, terminal: 0 });
    assert.deepEqual(log.read(1, 10), { text: 'one\ntwo\nthree\n', from: 1, to: 3, totalLines: 3, nextOffset: undefined });
    assert.equal(log.head(5), 'one\nt');
    assert.equal(log.tail(7), 'o\nthree');
    assert.equal(log.spilled, false);
    assert.equal(log.spillDirectory, undefined);
  });

  it('counts lines as an editor does and pages past the end to nothing', () => {
    const log = make({});
    assert.equal(log.totalLines, 0);
    assert.equal(log.read(1, 5).text, '');
    log.append('a\n', 'stdout');
    assert.equal(log.totalLines, 1);
    log.append('b', 'stdout');
    assert.equal(log.totalLines, 2);
    assert.deepEqual(log.read(3, 5), { text: '', from: 3, to: 2, totalLines: 2 });
    log.append('\r\n', 'stdout');
    assert.equal(log.read(2, 1).text, 'b\n', 'a CRLF line shows without its CR');
  });

  it('mark/since return only what came after the mark', () => {
    const log = make({ memoryChars: 10, spillDir: tempDir('log') });
    log.append('before\n', 'stdout');
    const m = log.mark();
    assert.equal(m.line, 2);
    assert.equal(log.since(m), '');
    log.append('after 1\n', 'stdout');
    log.append('after 2', 'stderr');
    assert.equal(log.since(m), 'after 1\nafter 2');
    assert.equal(log.since(log.mark()), '');
  });

  it('spills past memoryChars into a private 0700 folder and 0600 files, and keeps every byte', () => {
    const parent = tempDir('log');
    const log = make({ memoryChars: 5000, spillDir: parent });
    const rand = rng(7);
    const alphabet = ['a', 'b', 'Z', ' ', '\n', '\n', 'é', '€', '😀', '\r\n', '\t'];
    let expected = '';
    for (let i = 0; i < 3000; i++) {
      let chunk = '';
      const len = Math.floor(rand() * 200);
      for (let j = 0; j < len; j++) chunk += alphabet[Math.floor(rand() * alphabet.length)];
      log.append(chunk, rand() < 0.3 ? 'stderr' : 'stdout');
      expected += chunk;
    }
    assert.ok(log.spilled);
    const dir = log.spillDirectory!;
    assert.equal(path.dirname(dir), parent);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const files = filesUnder(dir);
    assert.ok(files.length >= 1);
    for (const f of files) assert.equal(fs.statSync(f).mode & 0o777, 0o600);
    assert.equal(log.totalChars, expected.length);
    assert.equal(log.charsByStream.stdout + log.charsByStream.stderr, expected.length);
    assert.equal(log.since({ pos: 0, chars: 0, newlines: 0, line: 1 }), expected, 'every character, in order');
    assert.equal(log.head(12_345), expected.slice(0, 12_345));
    assert.equal(log.tail(9_999), expected.slice(-9_999));
    const lines = expected.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    assert.equal(log.totalLines, lines.length);
    assert.deepEqual(allLines(log, 97), lines.map((l) => l.replace(/\r$/, '')));
    // What is on disk is the output itself, as UTF-8.
    assert.equal(files.map((f) => fs.readFileSync(f, 'utf8')).join(''), expected);
  });

  it('finds any line fast through the index: random pages of 200k lines match', () => {
    const log = make({ memoryChars: 100_000, spillDir: tempDir('log') });
    const lines: string[] = [];
    let batch = '';
    for (let i = 1; i <= 200_000; i++) {
      const l = `line ${i} ${'x'.repeat(i % 13)}`;
      lines.push(l);
      batch += `${l}\n`;
      if (i % 977 === 0) {
        log.append(batch, 'stdout');
        batch = '';
      }
    }
    log.append(batch, 'stdout');
    assert.equal(log.totalLines, 200_000);
    const rand = rng(3);
    for (let k = 0; k < 50; k++) {
      const off = 1 + Math.floor(rand() * 200_000);
      const page = log.read(off, 25);
      const want = lines.slice(off - 1, off - 1 + 25);
      assert.equal(page.text, `${want.join('\n')}\n`, `page at ${off}`);
      assert.equal(page.to, off + want.length - 1);
      assert.equal(page.nextOffset, off + 25 <= 200_000 ? off + 25 : undefined);
    }
    // Line 1024·k+1 sits right after an index entry.
    assert.equal(log.read(1025, 1).text, `${lines[1024]}\n`);
    assert.equal(log.read(2049, 2).text, `${lines[2048]}\n${lines[2049]}\n`);
  });

  it('stops a page at maxChars on a line boundary and names the next offset', () => {
    const log = make({});
    for (let i = 1; i <= 100; i++) log.append(`${String(i).padStart(3, '0')} ${'y'.repeat(96)}\n`, 'stdout');
    const page = log.read(10, 50, 1000);
    assert.equal(page.from, 10);
    assert.equal(page.to, 18, 'nine lines of 101 characters fit in 1,000; a tenth would not');
    assert.equal(page.nextOffset, 19);
    assert.ok(page.text.length <= 1000);
    // A single line is always shown, even over the budget.
    assert.equal(log.read(5, 3, 10).to, 5);
  });

  it('cuts a line over 2,000 characters with a note giving its length', () => {
    const log = make({ memoryChars: 100, spillDir: tempDir('log') });
    log.append('short\n', 'stdout');
    log.append(`${'€'.repeat(50_000)}\n`, 'stdout');
    log.append('after\n', 'stdout');
    const page = log.read(1, 3);
    const [a, b, c] = page.text.split('\n');
    assert.equal(a, 'short');
    assert.ok(b.startsWith('€'.repeat(2000) + ' … [line 2 is 50,000 characters long; cut at 2,000]'), b.slice(1990, 2100));
    assert.equal(c, 'after');
  });

  it('splits a huge single chunk without breaking a surrogate pair, in memory and on disk', () => {
    const log = make({ memoryChars: 1000, spillDir: tempDir('log') });
    const big = '😀'.repeat(400_000) + '\nend';
    log.append(big, 'stdout');
    assert.ok(log.spilled);
    assert.equal(log.head(big.length + 10), big);
    assert.equal(log.tail(3), 'end');
    assert.equal(log.tail(6), '😀\nend');
    assert.equal(log.totalLines, 2);
  });

  it('drops only the middle past the disk cap, and the marker says exactly how much', () => {
    const cap = 64 * 1024;
    const log = make({ memoryChars: 2000, spillDir: tempDir('log'), diskCapBytes: cap });
    let expected = '';
    for (let i = 1; i <= 60_000; i++) {
      const line = `row ${i}\n`;
      log.append(line, i % 2 ? 'stdout' : 'stderr');
      expected += line;
    }
    const onDisk = filesUnder(log.spillDirectory!).reduce((s, f) => s + fs.statSync(f).size, 0);
    assert.ok(onDisk <= cap, `${onDisk} bytes on disk, cap ${cap}`);
    assert.ok(log.dropped > 0);
    assert.equal(log.totalChars, expected.length);
    assert.equal(log.totalLines, 60_000);

    const all = log.since({ pos: 0, chars: 0, newlines: 0, line: 1 });
    const m = /\n\[… ([\d,]+) characters \(([\d,]+) line feeds\) dropped here: the output passed 64 KB, [^\n]*\]\n/.exec(all);
    assert.ok(m, 'a marker line naming the cap');
    const num = (x: string) => Number(x.replace(/,/g, ''));
    const droppedChars = num(m[1]);
    assert.equal(droppedChars, log.dropped);
    const head = all.slice(0, m.index);
    const tail = all.slice(m.index + m[0].length);
    assert.ok(expected.startsWith(head), 'the head is the start of the output');
    assert.ok(expected.endsWith(tail), 'the tail is the end of the output');
    assert.equal(head.length + droppedChars + tail.length, expected.length, 'kept + dropped = everything');
    assert.equal(num(m[2]), expected.slice(head.length, expected.length - tail.length).split('\n').length - 1, 'dropped line feeds counted exactly');

    // Lines keep their numbers across the gap.
    const last = log.read(60_000, 1);
    assert.equal(last.text, 'row 60000\n');
    const firstKept = expected.length - tail.length;
    const tailFirstLine = expected.slice(0, firstKept).split('\n').length;
    const inGap = log.read(tailFirstLine - 5, 3);
    assert.match(inGap.text, /^\[… [\d,]+ characters/);
    assert.equal(inGap.from, tailFirstLine);
    const page = log.read(tailFirstLine + 1, 2);
    assert.equal(page.text, `row ${tailFirstLine + 1}\nrow ${tailFirstLine + 2}\n`);
    // A page that crosses the gap shows the marker between the lines.
    const headLast = head.split('\n').length - 1;
    const across = log.read(headLast - 1, 4);
    assert.match(across.text, new RegExp(`^row ${headLast - 1}\\nrow ${headLast}\\n\\[… `));
    assert.equal(log.tail(10), expected.slice(-10));
  });

  it('dispose removes the spill files and folder, is safe twice, and reads nothing after', () => {
    const log = make({ memoryChars: 10, spillDir: tempDir('log') });
    log.append('x'.repeat(100_000), 'stdout');
    const dir = log.spillDirectory!;
    assert.ok(fs.existsSync(dir));
    log.dispose();
    assert.equal(fs.existsSync(dir), false);
    log.dispose();
    log.append('more', 'stdout');
    assert.equal(log.read(1, 1).text, '');
    assert.equal(log.tail(5), '');
  });

  it('keeps everything in memory (within the cap) when the spill folder cannot be made', () => {
    const parent = tempDir('log');
    const notADir = path.join(parent, 'file');
    fs.writeFileSync(notADir, 'x');
    const log = make({ memoryChars: 100, spillDir: notADir });
    const text = 'abc\n'.repeat(10_000);
    log.append(text, 'stdout');
    assert.ok(log.spillError, 'the reason is kept');
    assert.equal(log.spilled, false);
    assert.equal(log.head(text.length), text);
  });
});
