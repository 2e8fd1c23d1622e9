import * as assert from 'node:assert/strict';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import type { RangeReadable } from '../../../src/core/fs/read-range';
import { createReadFileTool, type ReadFileOptions } from '../../../src/core/fs/tools/read-file';
import type { FsToolDeps, WorkspaceFs } from '../../../src/core/fs/types';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, removeTempDirs, type TreeSpec } from '../../support/fs-fixtures';

function ctx(signal = new AbortController().signal): ToolContext {
  return { sessionKey: 's', agentId: 'agent', channel: 'test', subagentDepth: 0, isOwner: true, signal, deadline: Date.now() + 60_000, workspaceTrusted: true };
}

interface Reader {
  read(args: { path: string; offset?: number; limit?: number; column?: number }): Promise<ToolResult>;
  root: string;
}

function reader(files: TreeSpec, opts: { tokens?: number; fs?: WorkspaceFs; options?: ReadFileOptions } = {}): Reader {
  const ws = makeWorkspace(files, 'read');
  const fs = opts.fs ?? new NodeWorkspaceFs();
  const deps: FsToolDeps = { guard: makeGuard([ws.root]), fs, reviewer: new AutoApplyReviewer(fs), contextTokens: () => opts.tokens };
  const tool = createReadFileTool(deps, opts.options);
  return { read: (args) => tool.execute(args, ctx()), root: ws.root };
}

/** A WorkspaceFs without readRange (like vscode.workspace.fs): read_file reads whole files. */
function wholeFileFs(): WorkspaceFs {
  const b = new NodeWorkspaceFs();
  return {
    readFile: (a, s) => b.readFile(a, s), writeFile: (a, d) => b.writeFile(a, d), stat: (a) => b.stat(a),
    readDirectory: (a) => b.readDirectory(a), delete: (a) => b.delete(a), rename: (a, c) => b.rename(a, c),
  };
}

/** Range reads that honour `into`: every chunk lands in the caller's one buffer, as the proposal allows. */
function reusingFs(): WorkspaceFs & RangeReadable {
  const b = new NodeWorkspaceFs();
  return Object.assign(wholeFileFs(), {
    async readRange(abs: string, start: number, end: number, into?: Uint8Array): Promise<Uint8Array> {
      const bytes = await b.readRange(abs, start, end);
      if (!into) return bytes;
      into.fill(0x21);
      into.set(bytes);
      return into.subarray(0, bytes.length);
    },
  });
}

/** The text of the numbered lines of a result, without prefixes and notices. */
function body(r: ToolResult): string[] {
  return r.forLLM.split('\n').filter((l) => /^ *\d+\t/.test(l)).map((l) => l.replace(/^ *\d+\t/, ''));
}

const lines = (count: number, width = 10): string => Array.from({ length: count }, (_, i) => `L${i + 1}`.padEnd(width, '.')).join('\n') + '\n';

describe('read_file', () => {
  after(removeTempDirs);

  describe('lines and paging', () => {
    it('numbers lines from 1 with a tab, like cat -n, and adds no notice for a whole file', async () => {
      const r = await reader({ 'a.txt': 'alpha\nbeta\ngamma\n' }).read({ path: 'a.txt' });
      assert.equal(r.isError, false);
      assert.equal(r.forLLM, '1\talpha\n2\tbeta\n3\tgamma\n');
      assert.equal(r.details?.totalLines, 3);
    });

    it('counts a last line without a line feed, and pads numbers to the widest', async () => {
      const r = await reader({ 'a.txt': lines(12, 3).slice(0, -1) }).read({ path: 'a.txt', offset: 8 });
      assert.match(r.forLLM, /^ 8\tL8\.\n 9\tL9\.\n10\tL10\n11\tL11\n12\tL12\n\[Showing lines 8-12 of 12: end of file\.\]$/);
    });

    it('honours offset and limit and names the exact next offset', async () => {
      const r = await reader({ 'a.txt': lines(10) }).read({ path: 'a.txt', offset: 3, limit: 2 });
      assert.deepEqual(body(r), ['L3........', 'L4........']);
      assert.match(r.forLLM, /\[Showing lines 3-4 of 10\. Use offset=5 to continue\.\]$/);
      assert.equal(r.details?.nextOffset, 5);
    });

    it('answers an offset past the end with a notice, not an error', async () => {
      const r = await reader({ 'a.txt': 'x\ny\nz\n' }).read({ path: 'a.txt', offset: 4 });
      assert.equal(r.isError, false);
      assert.match(r.forLLM, /offset=4 is past the end of a\.txt: the file has 3 lines/);
      assert.equal(r.details?.pastEnd, true);
    });

    it('reads an empty file (and a BOM-only file) as empty, not as an error', async () => {
      const rd = reader({ 'e.txt': '', 'bom.txt': '\uFEFF' });
      for (const p of ['e.txt', 'bom.txt']) {
        const r = await rd.read({ path: p });
        assert.equal(r.isError, false);
        assert.match(r.forLLM, /is empty \(0 lines\)/);
      }
    });

    it('stops a page at 2,000 lines when the window is unknown and says where to go on', async () => {
      const r = await reader({ 'many.txt': 'x\n'.repeat(5000) }).read({ path: 'many.txt' });
      assert.equal(body(r).length, 2000);
      assert.match(r.forLLM, /\[Showing lines 1-2,000 of 5,000 \(2,000 lines a call\)\. Use offset=2001 to continue\.\]$/);
    });

    it('caps a page at 50 KB on a line boundary, and the named offsets page through the file exactly', async () => {
      const text = lines(3000, 100);
      const rd = reader({ 'big.txt': text });
      const seen: string[] = [];
      let offset = 1;
      for (let guard = 0; guard < 20; guard++) {
        const r = await rd.read({ path: 'big.txt', offset });
        assert.ok(r.forLLM.length <= 50 * 1024, `page of ${r.forLLM.length} chars`);
        seen.push(...body(r));
        const next = r.details?.nextOffset as number | undefined;
        if (next === undefined) break;
        assert.equal(next, offset + body(r).length);
        assert.match(r.forLLM, new RegExp(`\\[Output capped at 50 KB: showing lines ${offset.toLocaleString('en-US')}-[\\d,]+ of 3,000\\. Use offset=${next} to continue\\.\\]$`));
        offset = next;
      }
      assert.deepEqual(seen, text.slice(0, -1).split('\n'));
    });

    it('adapts the page to the context window: 8k tokens get 50 KB, 200k tokens get 160 KB', async () => {
      const files = { 'big.txt': lines(6000, 100) };
      const small = await reader(files, { tokens: 8_000 }).read({ path: 'big.txt' });
      const large = await reader(files, { tokens: 200_000 }).read({ path: 'big.txt' });
      assert.equal(small.details?.budgetBytes, 50 * 1024);
      assert.equal(large.details?.budgetBytes, 160_000);
      assert.equal(large.details?.budgetLines, 8000);
      assert.ok(small.forLLM.length <= 50 * 1024 && large.forLLM.length <= 160_000);
      assert.ok(body(large).length > 3 * body(small).length, `${body(large).length} vs ${body(small).length} lines`);
      const huge = await reader(files, { tokens: 10_000_000 }).read({ path: 'big.txt' });
      assert.equal(huge.details?.budgetBytes, 8 * 50 * 1024, 'at most 8 pages');
    });

    it('keeps a page under the pipeline result cap when told it', async () => {
      const r = await reader({ 'big.txt': lines(6000, 100) }, { tokens: 200_000, options: { maxResultChars: 60_000 } }).read({ path: 'big.txt' });
      assert.ok(r.forLLM.length <= 60_000);
      assert.equal(r.details?.truncated, 'bytes');
    });

    it('applies the byte cap to an explicit limit too', async () => {
      const r = await reader({ 'big.txt': lines(3000, 100) }).read({ path: 'big.txt', limit: 3000 });
      assert.equal(r.details?.truncated, 'bytes');
      assert.ok(r.forLLM.length <= 50 * 1024);
    });
  });

  describe('oversized lines', () => {
    it('slices a 1 MB line without a newline, says which characters are shown, and column pages through it exactly', async () => {
      const line = Array.from({ length: 1 << 20 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
      const rd = reader({ 'min.js': line });
      const first = await rd.read({ path: 'min.js' });
      assert.equal(first.isError, false);
      assert.ok(first.forLLM.length <= 50 * 1024);
      const m = /\[Line 1 is 1,048,576 characters long; showing characters 1-([\d,]+)\. Use offset=1 column=(\d+) for the next part of this line; it is the last line of the file\.\]$/.exec(first.forLLM);
      assert.ok(m, first.forLLM.slice(-300));
      let got = body(first)[0];
      assert.equal(Number(m[2]), got.length + 1);
      let column = Number(m[2]);
      for (let guard = 0; guard < 40 && column; guard++) {
        const r = await rd.read({ path: 'min.js', column });
        got += body(r)[0];
        const next = /column=(\d+)/.exec(r.forLLM);
        column = next ? Number(next[1]) : 0;
      }
      assert.equal(got, line);
    });

    it('stops before an oversized line that follows shorter ones, then slices it and points past it', async () => {
      const rd = reader({ 'f.txt': `short\n${'y'.repeat(200_000)}\nend\n` });
      const r1 = await rd.read({ path: 'f.txt' });
      assert.deepEqual(body(r1), ['short']);
      assert.match(r1.forLLM, /Use offset=2 to continue/);
      const r2 = await rd.read({ path: 'f.txt', offset: 2 });
      assert.match(r2.forLLM, /\[Line 2 is 200,000 characters long; showing characters 1-[\d,]+\. Use offset=2 column=\d+ for the next part of this line, or offset=3 to continue after it \(the file has 3 lines\)\.\]$/);
    });

    it('never cuts a multi-byte character when slicing (accents, CJK, emoji)', async () => {
      const unit = 'é漢😀a';
      const line = unit.repeat(60_000);
      const rd = reader({ 'u.txt': line + '\n' });
      let got = '';
      let column = 1;
      for (let guard = 0; guard < 40 && column; guard++) {
        const r = await rd.read({ path: 'u.txt', column });
        const part = body(r)[0];
        assert.ok(!part.includes('\uFFFD'), 'no replacement characters');
        got += part;
        const next = /column=(\d+)/.exec(r.forLLM);
        column = next ? Number(next[1]) : 0;
      }
      assert.equal(got, line);
    });

    it('answers a column past the end of the line with a notice', async () => {
      const r = await reader({ 'a.txt': 'abc\ndef\n' }).read({ path: 'a.txt', column: 10 });
      assert.equal(r.isError, false);
      assert.match(r.forLLM, /Line 1 has only 3 characters; column=10 is past its end\. Use offset=2/);
    });
  });

  describe('encodings and content', () => {
    it('strips the BOM and shows CRLF as ordinary lines', async () => {
      const r = await reader({ 'w.txt': '\uFEFFfirst\r\nsecond\r\n\r\nlast' }).read({ path: 'w.txt' });
      assert.equal(r.forLLM, '1\tfirst\n2\tsecond\n3\t\n4\tlast\n');
      assert.equal(r.details?.bom, true);
      assert.equal(r.details?.crlf, true);
    });

    it('keeps unicode intact (NFC and NFD, RTL, emoji, a lone CR inside a line)', async () => {
      const text = 'café\ncafe\u0301\nשלום\n👩‍👩‍👧 family\na\rb\n';
      const r = await reader({ 'u.txt': text }).read({ path: 'u.txt' });
      assert.deepEqual(body(r), ['café', 'cafe\u0301', 'שלום', '👩‍👩‍👧 family', 'a\rb']);
    });

    it('decodes UTF-16 files that carry a BOM', async () => {
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\r\nwörld\n', 'utf16le')]);
      const be = Buffer.from(le);
      be.swap16();
      const rd = reader({ 'le.txt': le, 'be.txt': be });
      assert.deepEqual(body(await rd.read({ path: 'le.txt' })), ['hello', 'wörld']);
      assert.deepEqual(body(await rd.read({ path: 'be.txt' })), ['hello', 'wörld']);
    });

    it('detects binary content by its bytes and names the right tool, whatever the extension', async () => {
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.alloc(64, 7)]);
      const noNul = Buffer.from(Array.from({ length: 4096 }, (_, i) => 0x80 + ((i * 37) % 0x7f)));
      const rd = reader({ 'logo.ts': png, 'blob.txt': noNul });
      const a = await rd.read({ path: 'logo.ts' });
      assert.equal(a.isError, true);
      assert.match(a.forLLM, /logo\.ts is a binary file \(76 bytes; it contains NUL bytes\).*PNG image.*image or media tool/);
      const b = await rd.read({ path: 'blob.txt' });
      assert.equal(b.isError, true);
      assert.match(b.forLLM, /are not UTF-8 text.*xxd/);
    });

    it('does not call text binary: Latin-1 accents, ANSI colours, form feeds, a NUL after the first 8 KB', async () => {
      const latin1 = Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e, a plain sentence of ordinary text\n'.repeat(20), 'latin1');
      const ansi = '\x1b[31mred\x1b[0m\n\fpage two\n';
      const lateNul = Buffer.concat([Buffer.from('t'.repeat(9000) + '\n'), Buffer.from([0])]);
      const rd = reader({ 'l1.txt': latin1, 'log.txt': ansi, 'late.txt': lateNul });
      for (const p of ['l1.txt', 'log.txt', 'late.txt']) assert.equal((await rd.read({ path: p })).isError, false, p);
    });
  });

  describe('paths', () => {
    it('reads a .gitignored file when it is named', async () => {
      const r = await reader({ '.gitignore': 'secret.log\n', 'secret.log': 'kept\n' }).read({ path: 'secret.log' });
      assert.equal(r.forLLM, '1\tkept\n');
    });

    it('refuses denied paths and paths outside the workspace with the guard message', async () => {
      const rd = reader({ '.git/config': '[core]\n', 'a.txt': 'a\n' });
      const denied = await rd.read({ path: '.git/config' });
      assert.equal(denied.isError, true);
      assert.equal(denied.details?.code, 'denied');
      const outside = await rd.read({ path: '../../etc/passwd' });
      assert.equal(outside.isError, true);
      assert.match(outside.forLLM, /workspaceOnly|allowPaths/);
    });

    it('points a directory to list_files and a missing file to glob', async () => {
      const rd = reader({ 'src/a.ts': 'x\n' });
      assert.match((await rd.read({ path: 'src' })).forLLM, /is a directory.*list_files/);
      const missing = await rd.read({ path: 'src/nope.ts' });
      assert.equal(missing.isError, true);
      assert.match(missing.forLLM, /not found|does not exist/i);
    });
  });

  describe('range reads (large files)', () => {
    const big = (): string => {
      // Multi-byte characters on every line so chunk boundaries (64 KB) fall inside characters.
      const out: string[] = [];
      for (let i = 1; i <= 40_000; i++) out.push(`${i} ${'ü漢'.repeat(i % 17)}${i % 5 === 0 ? '\r' : ''}`);
      return out.join('\n') + '\n';
    };

    it('gives the same windows through range reads (fresh or reused buffers) as reading the whole file', async () => {
      const text = big();
      assert.ok(Buffer.byteLength(text) > 1024 * 1024);
      const whole = reader({ 'big.txt': text }, { fs: wholeFileFs() });
      const streamed = reader({ 'big.txt': text });
      const reused = reader({ 'big.txt': text }, { fs: reusingFs() });
      for (const args of [{ offset: 1 }, { offset: 19_990, limit: 200 }, { offset: 39_950 }, { offset: 40_001 }, { offset: 12_345, limit: 1 }, { offset: 30_000, column: 3 }]) {
        const a = await whole.read({ path: 'big.txt', ...args });
        for (const other of [streamed, reused]) {
          const b = await other.read({ path: 'big.txt', ...args });
          assert.equal(b.forLLM, a.forLLM, JSON.stringify(args));
          assert.equal(b.details?.totalLines, 40_000);
        }
      }
      const mid = await streamed.read({ path: 'big.txt', offset: 20_000, limit: 2 });
      assert.deepEqual(body(mid), [`20000 ${'ü漢'.repeat(20_000 % 17)}`, `20001 ${'ü漢'.repeat(20_001 % 17)}`]);
    });

    it('slices a 3 MB multi-byte line across chunk boundaries the same way streamed and whole', async () => {
      const line = 'aé漢😀'.repeat(300_000);
      const files = { 'one.txt': `head\n${line}\ntail\n` };
      const whole = reader(files, { fs: wholeFileFs() });
      const reused = reader(files, { fs: reusingFs() });
      // Columns on character boundaries (each 'aé漢😀' is 5 UTF-16 units, the emoji 2 of them).
      for (const column of [1, 262_101, 1_000_002, 1_499_991]) {
        const a = await whole.read({ path: 'one.txt', offset: 2, column });
        const b = await reused.read({ path: 'one.txt', offset: 2, column });
        assert.ok(b.forLLM === a.forLLM, `column ${column}: streamed and whole differ`);
        const part = body(b)[0];
        assert.ok(part.length >= Math.min(20_000, line.length - column + 1) && !part.includes('\uFFFD'), `column ${column}: ${part.length} chars`);
        assert.ok(part === line.slice(column - 1, column - 1 + part.length), `column ${column}: wrong characters`);
      }
    });

    it('counts a million empty lines in linear time (complexity guard)', async () => {
      const rd = reader({ 'nl.txt': '\n'.repeat(1_000_000) });
      // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
      const r = await rd.read({ path: 'nl.txt', offset: 999_999 });
      assert.equal(r.forLLM, ' 999999\t\n1000000\t\n[Showing lines 999,999-1,000,000 of 1,000,000: end of file.]');
    });

    it('stops when the call is cancelled', async () => {
      const ws = makeWorkspace({ 'big.txt': big() }, 'read');
      const fs = new NodeWorkspaceFs();
      const tool = createReadFileTool({ guard: makeGuard([ws.root]), fs, reviewer: new AutoApplyReviewer(fs) });
      const ac = new AbortController();
      ac.abort(new Error('user cancelled'));
      await assert.rejects(tool.execute({ path: 'big.txt' }, ctx(ac.signal)), /cancelled|aborted/);
    });
  });
});
