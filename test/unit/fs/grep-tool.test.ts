// The grep tool on ripgrep (/usr/bin/rg, or whatever locateRipgrep finds), in real temp workspaces
// with the real PathGuard and NodeWorkspaceFs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { locateRipgrep } from '../../../src/core/fs/ripgrep-locate';
import { createGrepTool, type GrepToolOptions } from '../../../src/core/fs/tools/grep';
import type { PathGuardConfig } from '../../../src/core/fs/types';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, type TreeSpec } from '../../support/fs-fixtures';

const RG = fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : locateRipgrep([]);

function ctxWith(signal = new AbortController().signal, deadline = Date.now() + 60_000): ToolContext {
  return { sessionKey: 's', agentId: 'a', channel: 'test', subagentDepth: 0, isOwner: true, workspaceTrusted: true, signal, deadline };
}

function setup(files: TreeSpec, guardOver: Partial<PathGuardConfig> = {}, opts: GrepToolOptions = {}) {
  const ws = makeWorkspace(files, 'grep');
  const wfs = new NodeWorkspaceFs();
  const guard = makeGuard([ws.root], guardOver);
  const tool = createGrepTool({ guard, fs: wfs, reviewer: new AutoApplyReviewer(wfs) }, { rgPath: RG, denyPaths: guardOver.denyPaths, ...opts });
  const run = (args: Record<string, unknown>, ctx = ctxWith()): Promise<ToolResult> => tool.execute(tool.parameters.parse(args), ctx);
  return { ws, run, tool };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const BASIC: TreeSpec = {
  'src/app.ts': 'import { a } from "./a";\nconst Value = a(1);\nconsole.log(value);\n',
  'src/a.ts': 'export function a(x: number) {\n  return x + 1; // a(x)\n}\n',
  'README.md': '# Demo\nvalue and Value\n',
};

describe('grep tool (ripgrep)', () => {
  after(removeTempDirs);

  it('has a ripgrep to test with', () => {
    assert.ok(RG, 'no rg found: install ripgrep or check /usr/bin/rg');
  });

  it('finds regex matches, grouped by file with line numbers', async () => {
    const { run } = setup(BASIC);
    const r = await run({ pattern: '\\ba\\(' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(r.details?.engine, 'ripgrep');
    assert.match(r.forLLM, /^3 matches in 2 files/);
    assert.match(r.forLLM, /\nsrc\/a\.ts\n1: export function a\(x: number\) \{\n2: {3}return x \+ 1; \/\/ a\(x\)\n/);
    assert.match(r.forLLM, /\nsrc\/app\.ts\n2: const Value = a\(1\);/);
  });

  it('literal: true searches for the text as written; as a regex the same text means something else', async () => {
    const { run } = setup({ 'x.txt': 'a+b\naab\n(a+b)\n' });
    const lit = await run({ pattern: 'a+b', literal: true });
    assert.equal(lit.details?.matches, 2);
    assert.match(lit.forLLM, /1: a\+b\n3: \(a\+b\)/);
    const rx = await run({ pattern: 'a+b' });
    assert.equal(rx.details?.matches, 1);
    assert.match(rx.forLLM, /x\.txt\n2: aab$/);
  });

  it('is case-sensitive unless ignoreCase', async () => {
    const { run } = setup(BASIC);
    const cs = await run({ pattern: 'value' });
    assert.equal(cs.details?.matches, 2);
    const ci = await run({ pattern: 'value', ignoreCase: true });
    assert.equal(ci.details?.matches, 3);
  });

  it('filters files by a name glob, a path glob and an exclusion', async () => {
    const { run } = setup({ ...BASIC, 'test/a.test.ts': 'value\n', 'lib/x.js': 'value\n' });
    const ts = await run({ pattern: 'value', glob: '*.ts' });
    assert.deepEqual([ts.details?.files, /README/.test(ts.forLLM), /x\.js/.test(ts.forLLM)], [2, false, false]);
    const pathGlob = await run({ pattern: 'value', glob: 'test/**' });
    assert.equal(pathGlob.details?.files, 1);
    assert.match(pathGlob.forLLM, /test\/a\.test\.ts/);
    const notTs = await run({ pattern: 'value', ignoreCase: true, glob: '!*.ts' });
    assert.ok(!/\.ts\n/.test(notTs.forLLM), notTs.forLLM);
    assert.match(notTs.forLLM, /README\.md/);
  });

  it('shows context lines with - and separates groups with --', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => (i === 4 || i === 14 ? `hit ${i + 1}` : `line ${i + 1}`));
    const { run } = setup({ 'f.txt': lines.join('\n') + '\n' });
    const r = await run({ pattern: 'hit', context: 2 });
    assert.match(r.forLLM, /f\.txt\n3- line 3\n4- line 4\n5: hit 5\n6- line 6\n7- line 7\n--\n13- line 13\n14- line 14\n15: hit 15\n16- line 16\n17- line 17/);
    const ba = await run({ pattern: 'hit', before: 1, after: 0 });
    assert.match(ba.forLLM, /4- line 4\n5: hit 5\n--\n14- line 14\n15: hit 15$/m);
  });

  it('stops at 100 matches by default with a notice naming limit, and returns every match when raised', async () => {
    const { run } = setup({ 'many.txt': Array.from({ length: 250 }, (_, i) => `match ${i + 1}`).join('\n') + '\n' });
    const r = await run({ pattern: 'match' });
    assert.equal(r.details?.matches, 100);
    assert.equal(r.details?.truncated, 'limit');
    assert.match(r.forLLM, /^100 matches \(more exist\)/);
    assert.match(r.forLLM, /\[Stopped at 100 matches \(limit: 100\); there are more\. Raise limit/);
    assert.match(r.forLLM, /100: match 100\n\n\[Stopped/);
    const all = await run({ pattern: 'match', limit: 1000 });
    assert.equal(all.details?.matches, 250);
    assert.equal(all.details?.truncated, undefined);
    assert.ok(!/Stopped at/.test(all.forLLM));
  });

  it('keeps the after-context of the last match shown, not the before-context of the next', async () => {
    const { run } = setup({ 'f.txt': 'm1\nc\nc\nc\nc\nm2\nc\n' });
    const r = await run({ pattern: '^m', limit: 1, context: 1 });
    assert.match(r.forLLM, /f\.txt\n1: m1\n2- c\n\n\[Stopped at 1 matches/);
  });

  it('stops at maxBytes with a notice naming maxBytes', async () => {
    const { run } = setup({ 'wide.txt': Array.from({ length: 130 }, (_, i) => `${i} ${'x'.repeat(480)}`).join('\n') + '\n' });
    const r = await run({ pattern: 'x', limit: 1000 });
    assert.equal(r.details?.truncated, 'bytes');
    assert.ok(Buffer.byteLength(r.forLLM) < 51_000, `${Buffer.byteLength(r.forLLM)} bytes`);
    assert.match(r.forLLM, /\[Output stopped at 50000 bytes \(maxBytes\) after \d+ matches/);
    const more = await run({ pattern: 'x', limit: 1000, maxBytes: 100_000 });
    assert.equal(more.details?.matches, 130);
  });

  it('cuts a 10,000-character line to a 500-character window around the match', async () => {
    const long = `${'a'.repeat(9_000)}NEEDLE${'b'.repeat(994)}`;
    const { run } = setup({ 'min.js': `${long}\nshort NEEDLE\n` });
    const r = await run({ pattern: 'NEEDLE' });
    const line = r.forLLM.split('\n').find((l) => l.startsWith('1: '));
    assert.ok(line);
    const shown = line.slice(3);
    assert.ok(shown.length <= 500, `${shown.length} chars`);
    assert.ok(shown.includes('NEEDLE') && shown.startsWith('…') && shown.endsWith('…'));
    assert.match(r.forLLM, /2: short NEEDLE/);
    assert.match(r.forLLM, /1 line longer than 500 characters was cut .*maxLineChars.*read_file \(e\.g\. path "min\.js", offset 1, limit 1: 10000 characters\)/);
    assert.equal(r.details?.cutLines, 1);
  });

  it('never searches or shows denied files: .env denied by a denyPaths glob, and .git', async () => {
    const files: TreeSpec = { '.env': 'TOKEN=needle\n', 'config/.env': 'needle\n', 'src/ok.ts': 'needle\n', '.git/config': 'needle\n', '.git/objects/x': 'needle\n', 'secrets/k.txt': 'needle\n' };
    const { run } = setup(files, { denyPaths: ['**/.git/**', '**/.env', 'secrets'] });
    for (const extra of [{}, { includeIgnored: true }, { glob: '.env' }, { glob: '**/.env' }, { glob: '*' }]) {
      const r = await run({ pattern: 'needle', ...extra });
      const shown = r.forLLM.split('\n').slice(1).join('\n'); // the summary line repeats the glob
      assert.ok(!/\.env|\.git|secrets/.test(shown), `${JSON.stringify(extra)}: ${r.forLLM}`);
    }
    const r = await run({ pattern: 'needle' });
    assert.equal(r.details?.files, 1);
    const named = await run({ pattern: 'needle', path: '.env' });
    assert.equal(named.isError, true);
    assert.match(named.forLLM, /denied|denyPaths/i);
  });

  it('hides denied files even when rg is not told about them (the isDenied filter)', async () => {
    const files: TreeSpec = { '.env': 'needle\n', 'src/ok.ts': 'needle\n' };
    const ws = makeWorkspace(files, 'grep');
    const wfs = new NodeWorkspaceFs();
    const guard = makeGuard([ws.root], { denyPaths: ['**/.env'] });
    const tool = createGrepTool({ guard, fs: wfs, reviewer: new AutoApplyReviewer(wfs) }, { rgPath: RG });
    const r = await tool.execute(tool.parameters.parse({ pattern: 'needle' }), ctxWith());
    assert.ok(!r.forLLM.includes('.env'), r.forLLM);
    assert.equal(r.details?.files, 1);
  });

  it('skips .gitignored files (no git repository needed) unless includeIgnored', async () => {
    const { run } = setup({ '.gitignore': 'dist/\n*.log\nsecret.js\n', 'dist/out.js': 'needle\n', 'debug.log': 'needle\n', 'secret.js': 'needle\n', 'node_modules/m/i.js': 'needle\n', 'src/a.ts': 'needle\n', '.github/ci.yml': 'needle\n' });
    const r = await run({ pattern: 'needle' });
    assert.deepEqual([r.details?.files, /src\/a\.ts/.test(r.forLLM), /\.github\/ci\.yml/.test(r.forLLM)], [3, true, true], r.forLLM);
    const js = await run({ pattern: 'needle', glob: '*.js' });
    assert.equal(js.details?.matches, 1, `a name glob must not re-include secret.js: ${js.forLLM}`);
    const pathGlob = await run({ pattern: 'needle', glob: '**/*.js' });
    assert.equal(pathGlob.details?.matches, 1, `nor a path glob: ${pathGlob.forLLM}`);
    const all = await run({ pattern: 'needle', includeIgnored: true });
    assert.equal(all.details?.files, 6, all.forLLM);
    const named = await run({ pattern: 'needle', path: 'dist' });
    assert.equal(named.details?.files, 1, 'a folder named explicitly is searched');
  });

  it('skips binary files, found or named', async () => {
    const bin = Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2, 0]), Buffer.from('needle\n')]);
    const { run } = setup({ 'img.bin': bin, 'a.txt': 'needle\n' });
    const r = await run({ pattern: 'needle' });
    assert.equal(r.details?.files, 1);
    assert.ok(!r.forLLM.includes('img.bin'));
    const named = await run({ pattern: 'needle', path: 'img.bin' });
    assert.equal(named.isError, false);
    assert.match(named.forLLM, /binary file/);
  });

  it('a named file whose first NUL comes after the part read up front is a binary file too (rg says so)', async () => {
    const late = Buffer.concat([Buffer.alloc(20_000, 0x61), Buffer.from('\nneedle\n'), Buffer.from([0]), Buffer.from('\nneedle\n')]);
    const { run } = setup({ 'late.bin': late });
    const named = await run({ pattern: 'needle', path: 'late.bin' });
    assert.equal(named.isError, false);
    assert.match(named.forLLM, /binary file/);
    assert.equal(named.details?.matches, 0);
  });

  it('searches for a pattern that starts with "-" (never read as an option)', async () => {
    const { run } = setup({ 'a.txt': 'x --force y\n-v\n' });
    const r = await run({ pattern: '--force' });
    assert.equal(r.details?.matches, 1, r.forLLM);
    const v = await run({ pattern: '-v', literal: true });
    assert.equal(v.details?.matches, 1, v.forLLM);
    const files = await run({ pattern: '--files' });
    assert.equal(files.details?.matches, 0, files.forLLM);
  });

  it('hostile arguments stay arguments: option-like globs and paths, no shell', async () => {
    const { ws, run } = setup({ '-rf/a.txt': 'needle\n', 'b.txt': 'needle; echo pwned\n' });
    const dir = await run({ pattern: 'needle', path: '-rf' });
    assert.equal(dir.details?.files, 1, dir.forLLM);
    for (const glob of ['--pre=/bin/sh', '--files', '-L']) {
      const r = await run({ pattern: 'needle', glob });
      assert.equal(r.isError, false, r.forLLM);
      assert.equal(r.details?.matches, 0, `${glob}: ${r.forLLM}`);
    }
    const shell = await run({ pattern: '$(touch pwned); `touch pwned2`', literal: true });
    assert.equal(shell.details?.matches, 0);
    assert.equal(fs.existsSync(`${ws.root}/pwned`) || fs.existsSync(`${ws.root}/pwned2`), false);
  });

  it('does not follow symlinks out of the workspace', async () => {
    const outside = tempDir('outside');
    fs.writeFileSync(`${outside}/secret.txt`, 'needle outside\n');
    const { ws, run } = setup({ 'in.txt': 'needle inside\n' });
    link(outside, ws.path('linkdir'));
    link(`${outside}/secret.txt`, ws.path('linkfile.txt'));
    const r = await run({ pattern: 'needle', includeIgnored: true });
    assert.equal(r.details?.files, 1, r.forLLM);
    assert.ok(!r.forLLM.includes('outside'), r.forLLM);
    const named = await run({ pattern: 'needle', path: 'linkdir' });
    assert.equal(named.isError, true, 'a link leading out is refused by the guard');
  });

  it('answers an invalid regex with an error naming the problem and literal: true', async () => {
    const { run } = setup(BASIC);
    const r = await run({ pattern: 'a(b' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /not a valid regular expression/);
    assert.match(r.forLLM, /unclosed group/);
    assert.match(r.forLLM, /literal: true/);
    const ok = await run({ pattern: 'a(b', literal: true });
    assert.equal(ok.isError, false);
  });

  it('says so when nothing matches, with the switches that might help', async () => {
    const { run } = setup(BASIC);
    const r = await run({ pattern: 'nothing here' });
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /^No matches for "nothing here" \(regex\) in the workspace\. \(ignoreCase: true/);
  });

  it('searches one named file and a subfolder, with paths relative to the root', async () => {
    const { run } = setup(BASIC);
    const f = await run({ pattern: 'a', path: 'src/a.ts' });
    assert.match(f.forLLM, /\nsrc\/a\.ts\n1: /);
    const d = await run({ pattern: 'Value', path: 'src' });
    assert.match(d.forLLM, /in "src":\n\nsrc\/app\.ts\n2: /);
  });

  it('refuses a path outside the workspace with the guard\'s message', async () => {
    const { run } = setup(BASIC);
    const r = await run({ pattern: 'root', path: '/etc' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /outside|workspace/i);
  });

  it('cancellation kills the rg process', async () => {
    const pids: number[] = [];
    const ac = new AbortController();
    const { run } = setup(BASIC, {}, { onSpawn: (pid) => { pids.push(pid); ac.abort(); } });
    const r = await run({ pattern: 'value' }, ctxWith(ac.signal));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /cancelled/);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]), false, 'rg is still running');
  });

  it('a bad rg path falls back to the worker, same answer', async () => {
    const { run } = setup(BASIC, {}, { rgPath: '/nonexistent/rg' });
    const r = await run({ pattern: 'Value' });
    assert.equal(r.details?.engine, 'worker');
    assert.equal(r.details?.matches, 2);
  });
});
