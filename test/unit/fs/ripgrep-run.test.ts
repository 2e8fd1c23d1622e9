// Running rg and reading its --json stream: the parser, the line splitter, and the process kept on a
// leash (stopped by the consumer, by cancellation, by the deadline; always gone afterwards).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { denyPathsToRgGlobs, ripgrepArgs } from '../../../src/core/fs/ripgrep-args';
import { LineSplitter, parseRgLine, type RgEvent } from '../../../src/core/fs/ripgrep-json';
import { locateRipgrep } from '../../../src/core/fs/ripgrep-locate';
import { runRipgrep } from '../../../src/core/fs/ripgrep-run';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';

const RG = (fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : locateRipgrep([])) as string;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const Q = { pattern: 'x', literal: false, ignoreCase: false, before: 0, after: 0, includeIgnored: false };

describe('ripgrep --json parsing', () => {
  it('reads begin, match (with the byte offset of the first submatch), context and end; ignores the summary', () => {
    const m = parseRgLine('{"type":"match","data":{"path":{"text":"a/b.ts"},"lines":{"text":"héllo x\\n"},"line_number":7,"absolute_offset":0,"submatches":[{"match":{"text":"x"},"start":7,"end":8}]}}');
    assert.deepEqual(m, { type: 'match', path: 'a/b.ts', line: 7, text: 'héllo x\n', atByte: 7 });
    assert.deepEqual(parseRgLine('{"type":"begin","data":{"path":{"text":"a"}}}'), { type: 'begin', path: 'a' });
    assert.deepEqual(parseRgLine('{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"c\\n"},"line_number":2}}'), { type: 'context', path: 'a', line: 2, text: 'c\n' });
    assert.deepEqual(parseRgLine('{"type":"summary","data":{}}'), { type: 'other' });
    assert.equal(parseRgLine('not json'), undefined);
  });

  it('decodes text that is not UTF-8 (base64 "bytes") lossily, paths too', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x62, 0x0a]).toString('base64');
    const ev = parseRgLine(`{"type":"match","data":{"path":{"bytes":"${Buffer.from('p\xff').toString('base64')}"},"lines":{"bytes":"${bytes}"},"line_number":1,"submatches":[]}}`) as Extract<RgEvent, { type: 'match' }>;
    assert.equal(ev.text, 'a\uFFFDb\n');
    assert.equal(ev.atByte, 0);
  });

  it('splits lines across chunks and stops when told', () => {
    const seen: string[] = [];
    const s = new LineSplitter();
    s.push('ab', (l) => (seen.push(l), true));
    s.push('c\nd', (l) => (seen.push(l), true));
    s.push('e\n\nf', (l) => (seen.push(l), true));
    s.flush((l) => (seen.push(l), true));
    assert.deepEqual(seen, ['abc', 'de', 'f']);
    const few: string[] = [];
    assert.equal(new LineSplitter().push('1\n2\n3\n', (l) => (few.push(l), l !== '2')), false);
    assert.deepEqual(few, ['1', '2']);
  });

  it('a 20 MB line arriving in 64 KB chunks is joined in linear time (complexity guard)', () => {
    const s = new LineSplitter();
    const chunk = 'x'.repeat(65_536);
    let got = 0;
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    for (let i = 0; i < 320; i++) s.push(chunk, () => true);
    s.push('\n', (l) => ((got = l.length), true));
    assert.equal(got, 320 * 65_536);
  });
});

describe('ripgrep command line', () => {
  it('puts the pattern after --, and the exclusions after the model\'s glob so they win', () => {
    const a = ripgrepArgs({ query: { ...Q, pattern: '--files', glob: 'src/**' }, target: '.', denyGlobs: ['!/secrets'] });
    const dd = a.indexOf('--');
    assert.deepEqual(a.slice(dd), ['--', '--files', '.']);
    assert.ok(a.indexOf('--glob=src/**') < a.indexOf('--glob=!.git'));
    assert.ok(a.indexOf('--glob=!.git') < a.indexOf('--glob=!/secrets'));
    assert.ok(!a.some((x) => x.startsWith('--max-columns')));
  });

  it('passes a name glob as a file type (which keeps .gitignore in force) and exclusions as globs', () => {
    assert.ok(ripgrepArgs({ query: { ...Q, glob: '*.{ts,tsx}' }, target: '.', denyGlobs: [] }).includes('--type-add=pincerglob:*.{ts,tsx}'));
    assert.ok(ripgrepArgs({ query: { ...Q, glob: '!*.min.js' }, target: '.', denyGlobs: [] }).includes('--glob=!*.min.js'));
  });

  it('turns deny rules into root-anchored exclusions', () => {
    const root = path.resolve('/ws');
    assert.deepEqual(
      denyPathsToRgGlobs(['**/.git/**', '**/.env', 'secrets/', './build/**', path.resolve('/ws/.pincer'), path.resolve('/elsewhere'), '', '~/x'], root, path.resolve('/home/u')),
      ['!**/.git', '!**/.env', '!/secrets', '!/build', '!/.pincer'],
    );
    assert.deepEqual(denyPathsToRgGlobs([path.resolve('/ws/we[ir]d')], root), ['!/we\\[ir\\]d']);
  });
});

describe('runRipgrep', () => {
  after(removeTempDirs);

  it('stops and kills rg as soon as the consumer has enough', async () => {
    const dir = tempDir('rgrun');
    fs.writeFileSync(path.join(dir, 'many.txt'), 'x\n'.repeat(500_000));
    let pid = 0;
    let events = 0;
    const out = await runRipgrep({ rgPath: RG, args: ['--json', 'x', '.'], cwd: dir, signal: new AbortController().signal, onSpawn: (p) => (pid = p), onEvent: (ev) => ev.type !== 'match' || ++events < 3 });
    assert.equal(out.end, 'stopped');
    assert.equal(events, 3, 'no events after the consumer said stop');
    assert.equal(alive(pid), false);
  });

  it('cancellation kills an rg that is blocked reading (a FIFO nobody writes)', async () => {
    const dir = tempDir('rgrun');
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const ac = new AbortController();
    let pid = 0;
    setTimeout(() => ac.abort(), 150);
    // Nobody ever writes the FIFO: only the cancel can end this search.
    const out = await runRipgrep({ rgPath: RG, args: ['--json', 'x', 'pipe'], cwd: dir, signal: ac.signal, onSpawn: (p) => (pid = p), onEvent: () => true });
    assert.equal(out.end, 'cancelled');
    assert.ok(pid > 0);
    assert.equal(alive(pid), false, 'rg outlived the cancellation');
  });

  it('the deadline kills it too', async () => {
    const dir = tempDir('rgrun');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    let pid = 0;
    const out = await runRipgrep({ rgPath: RG, args: ['--json', 'x', 'pipe'], cwd: dir, signal: new AbortController().signal, deadline: Date.now() + 150, onSpawn: (p) => (pid = p), onEvent: () => true });
    assert.equal(out.end, 'deadline');
    assert.equal(alive(pid), false);
  });

  it('reports rg\'s exit code and stderr, and a binary that cannot start', async () => {
    const dir = tempDir('rgrun');
    const bad = await runRipgrep({ rgPath: RG, args: ['--json', '--', 'a(', '.'], cwd: dir, signal: new AbortController().signal, onEvent: () => true });
    assert.deepEqual([bad.end, bad.exitCode], ['done', 2]);
    assert.match(bad.stderr, /regex parse error/);
    const none = await runRipgrep({ rgPath: path.join(dir, 'no-rg'), args: [], cwd: dir, signal: new AbortController().signal, onEvent: () => true });
    assert.equal(none.end, 'spawn-error');
    assert.match(none.stderr, /ENOENT/);
  });
});
