// Running rg and reading its output: the record parser, the line splitter, and the process kept on a
// leash (stopped by the consumer, by cancellation, by the deadline; always gone afterwards).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { denyPathsToRgGlobs, ripgrepArgs } from '../../../src/core/fs/ripgrep-args';
import { LineSplitter, RgRecordParser, type RgEvent } from '../../../src/core/fs/ripgrep-output';
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

describe('ripgrep output records', () => {
  after(removeTempDirs);

  const parse = (lines: string[]): RgEvent[] => {
    const evs: RgEvent[] = [];
    const p = new RgRecordParser((ev) => (evs.push(ev), true));
    for (const l of lines) p.line(l);
    p.end();
    return evs;
  };

  it('reads matches (with the byte offset of the first match) and context lines, a file beginning and ending where the path changes', () => {
    assert.deepEqual(parse(['a/b.ts\u00007:8:héllo x', 'a/b.ts\u00008-ctx', 'c\u00001:1:x']), [
      { type: 'begin', path: 'a/b.ts' },
      { type: 'match', path: 'a/b.ts', line: 7, text: 'héllo x', atByte: 7 },
      { type: 'context', path: 'a/b.ts', line: 8, text: 'ctx' },
      { type: 'end', path: 'a/b.ts' },
      { type: 'begin', path: 'c' },
      { type: 'match', path: 'c', line: 1, text: 'x', atByte: 0 },
      { type: 'end', path: 'c' },
    ]);
  });

  it('joins a path that holds newlines (even blank lines) and keeps text that holds NUL for the binary check', () => {
    assert.deepEqual(parse(['./we', '', 'ird\u00002:1:x\u0000y']).slice(0, 2), [
      { type: 'begin', path: './we\n\nird' },
      { type: 'match', path: './we\n\nird', line: 2, text: 'x\u0000y', atByte: 0 },
    ]);
  });

  it('reads rg\'s binary notices for what they are, and a file named like one as a path', () => {
    const notice = (p: string, what: string) => `${p}: ${what} (found "\\0" byte around offset 300016)`;
    // After a match: the lines shown so far stay, the notice is dropped.
    assert.deepEqual(parse(['./b.bin\u00001:1:x', notice('./b.bin', 'WARNING: stopped searching binary file after match'), './c\u00001:1:x']).map((e) => e.type),
      ['begin', 'match', 'end', 'begin', 'match', 'end']);
    assert.deepEqual(parse([notice('b.bin', 'binary file matches')]), [{ type: 'binary', path: 'b.bin' }]);
    // A notice about another file than the one being printed can only be part of a path.
    const forged = notice('./other', 'WARNING: stopped searching binary file after match');
    assert.deepEqual(parse(['./b\u00001:1:x', forged, 'x\u00002:1:y'])[3], { type: 'begin', path: `${forged}\nx` });
  });

  it('gives the same events as rg --json on a real tree (UTF-8 and not, CRLF, context, a newline in a name, a binary file)', () => {
    const dir = tempDir('rgout');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'héllo x\nctx\r\nmore x\r\nlast x');
    fs.writeFileSync(path.join(dir, 'latin1.txt'), Buffer.from([0x61, 0xff, 0x78, 0x0a, 0x62, 0x0a]));
    fs.mkdirSync(path.join(dir, 'we\nird'));
    fs.writeFileSync(path.join(dir, 'we\nird', 'f.txt'), 'one\nx two\n');
    fs.writeFileSync(path.join(dir, 'late.bin'), Buffer.concat([Buffer.from('x first\n'), Buffer.alloc(300_000, 0x61), Buffer.from('\nx\n\u0000\nx\n')]));
    const args = ripgrepArgs({ query: { ...Q, before: 1, after: 1 }, target: '.', denyGlobs: [] });
    const plain = parse(execFileSync(RG, args, { cwd: dir, encoding: 'utf8' }).split('\n').slice(0, -1));
    const fromJson: RgEvent[] = [];
    const jsonArgs = ['--json', ...args.filter((a) => !['--with-filename', '--null', '--line-number', '--column', '--no-heading', '--no-context-separator', '--color=never'].includes(a))];
    const text = (d: { text?: string; bytes?: string }) => d.text ?? Buffer.from(d.bytes as string, 'base64').toString('utf8');
    for (const l of execFileSync(RG, jsonArgs, { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean)) {
      const m = JSON.parse(l) as { type: string; data: { path: { text?: string; bytes?: string }; lines: { text?: string; bytes?: string }; line_number: number; submatches: { start: number }[] } };
      const p = m.data.path && text(m.data.path);
      const noEol = (t: string) => t.replace(/\r?\n$/, '');
      if (m.type === 'begin' || m.type === 'end') fromJson.push({ type: m.type, path: p });
      if (m.type === 'match') fromJson.push({ type: 'match', path: p, line: m.data.line_number, text: noEol(text(m.data.lines)), atByte: m.data.submatches[0].start });
      if (m.type === 'context') fromJson.push({ type: 'context', path: p, line: m.data.line_number, text: noEol(text(m.data.lines)) });
    }
    // The plain printer keeps a line's \r (the JSON one ends the text after it): grep strips both.
    const stripCr = (evs: RgEvent[]) => evs.map((e) => ('text' in e ? { ...e, text: e.text.replace(/\r$/, '') } : e));
    assert.ok(fromJson.length >= 14, JSON.stringify(fromJson));
    assert.deepEqual(stripCr(plain), stripCr(fromJson));
  });

  it('splits lines across chunks and stops when told', () => {
    const seen: string[] = [];
    const s = new LineSplitter();
    s.push('ab', (l) => (seen.push(l), true));
    s.push('c\nd', (l) => (seen.push(l), true));
    s.push('e\n\nf', (l) => (seen.push(l), true));
    s.flush((l) => (seen.push(l), true));
    assert.deepEqual(seen, ['abc', 'de', '', 'f']);
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
    const out = await runRipgrep({ rgPath: RG, args: ['--with-filename', '--null', '--line-number', '--column', 'x', '.'], cwd: dir, signal: new AbortController().signal, onSpawn: (p) => (pid = p), onEvent: (ev) => ev.type !== 'match' || ++events < 3 });
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
    const out = await runRipgrep({ rgPath: RG, args: ['--with-filename', '--null', '--line-number', '--column', 'x', 'pipe'], cwd: dir, signal: ac.signal, onSpawn: (p) => (pid = p), onEvent: () => true });
    assert.equal(out.end, 'cancelled');
    assert.ok(pid > 0);
    assert.equal(alive(pid), false, 'rg outlived the cancellation');
  });

  it('the deadline kills it too', async () => {
    const dir = tempDir('rgrun');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    let pid = 0;
    const out = await runRipgrep({ rgPath: RG, args: ['--with-filename', '--null', '--line-number', '--column', 'x', 'pipe'], cwd: dir, signal: new AbortController().signal, deadline: Date.now() + 150, onSpawn: (p) => (pid = p), onEvent: () => true });
    assert.equal(out.end, 'deadline');
    assert.equal(alive(pid), false);
  });

  it('reports rg\'s exit code and stderr, and a binary that cannot start', async () => {
    const dir = tempDir('rgrun');
    const bad = await runRipgrep({ rgPath: RG, args: ['--with-filename', '--null', '--line-number', '--column', '--', 'a(', '.'], cwd: dir, signal: new AbortController().signal, onEvent: () => true });
    assert.deepEqual([bad.end, bad.exitCode], ['done', 2]);
    assert.match(bad.stderr, /regex parse error/);
    const none = await runRipgrep({ rgPath: path.join(dir, 'no-rg'), args: [], cwd: dir, signal: new AbortController().signal, onEvent: () => true });
    assert.equal(none.end, 'spawn-error');
    assert.match(none.stderr, /ENOENT/);
  });
});
