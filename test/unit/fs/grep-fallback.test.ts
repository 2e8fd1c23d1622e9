// The grep tool without ripgrep: the walk through WorkspaceFs and the regex in a worker thread. It
// must give the same answers as the ripgrep engine, and a catastrophic pattern must neither freeze
// this thread nor run forever.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { locateRipgrep } from '../../../src/core/fs/ripgrep-locate';
import { createGrepTool, type GrepToolOptions } from '../../../src/core/fs/tools/grep';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, type TreeSpec } from '../../support/fs-fixtures';

const RG = fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : locateRipgrep([]);

function ctxWith(signal = new AbortController().signal, deadline = Date.now() + 60_000): ToolContext {
  return { sessionKey: 's', agentId: 'a', channel: 'test', subagentDepth: 0, isOwner: true, workspaceTrusted: true, signal, deadline };
}

const DENY = ['**/.git/**', '**/.env'];

function tools(files: TreeSpec, opts: GrepToolOptions = {}) {
  const ws = makeWorkspace(files, 'grepfb');
  const wfs = new NodeWorkspaceFs();
  const guard = makeGuard([ws.root], { denyPaths: DENY });
  const deps = { guard, fs: wfs, reviewer: new AutoApplyReviewer(wfs) };
  const worker = createGrepTool(deps, { ...opts, rgPath: undefined });
  const rg = createGrepTool(deps, { rgPath: RG, denyPaths: DENY });
  const run = (t: typeof worker, args: Record<string, unknown>, ctx = ctxWith()): Promise<ToolResult> => t.execute(t.parameters.parse(args), ctx);
  return { ws, worker: (a: Record<string, unknown>, ctx?: ToolContext) => run(worker, a, ctx), rg: (a: Record<string, unknown>) => run(rg, a) };
}

const TREE: TreeSpec = {
  '.gitignore': 'dist/\n*.log\n!keep.log\n',
  'dist/bundle.js': 'const value = 1;\n',
  'debug.log': 'value in a log\n',
  'keep.log': 'value kept\n',
  '.env': 'value=secret\n',
  '.git/HEAD': 'value\n',
  '.github/ci.yml': 'run: value\n',
  'src/app.ts': 'import { value } from "./v";\n\nexport const Value = value + 1;\nconsole.log(Value);\n',
  'src/v.ts': '// the value\nexport const value = 41;\n',
  'src/nested/.gitignore': 'gen.ts\n',
  'src/nested/gen.ts': 'value generated\n',
  'src/nested/real.ts': 'a\nb\nvalue\nc\nd\ne\nf\nvalue\n',
  'img.png': Buffer.concat([Buffer.from('value'), Buffer.from([0, 0, 1, 2])]),
  'crlf.txt': 'one value\r\ntwo\r\n',
  'bom.txt': '\uFEFFvalue first\n',
  'unicode.txt': 'größe value ünïcödé\n',
};

describe('grep tool (worker fallback)', () => {
  after(removeTempDirs);

  it('gives the same answers as the ripgrep engine', async () => {
    assert.ok(RG, 'parity needs a ripgrep');
    const t = tools(TREE);
    const queries: Record<string, unknown>[] = [
      { pattern: 'value' },
      { pattern: 'VALUE', ignoreCase: true },
      { pattern: 'value\\s*[+=]' },
      { pattern: 'value + 1', literal: true },
      { pattern: 'value', glob: '*.ts' },
      { pattern: 'value', glob: 'src/**' },
      { pattern: 'value', glob: '!*.ts' },
      { pattern: 'value', context: 2 },
      { pattern: 'value', before: 1, after: 3, path: 'src' },
      { pattern: 'value', includeIgnored: true },
      { pattern: 'value', limit: 3 },
      { pattern: 'value', path: 'src/nested/real.ts' },
      { pattern: 'value', path: 'dist' },
      { pattern: '^value' },
      { pattern: 'größe' },
      { pattern: 'no such thing' },
    ];
    for (const q of queries) {
      const [a, b] = [await t.rg(q), await t.worker(q)];
      assert.equal(a.details?.engine, 'ripgrep');
      assert.equal(b.details?.engine, 'worker');
      assert.equal(b.forLLM, a.forLLM, JSON.stringify(q));
    }
  });

  it('hides denied files and .git, skips binary and ignored files', async () => {
    const t = tools(TREE);
    const r = await t.worker({ pattern: 'value', includeIgnored: true });
    const body = r.forLLM.split('\n').slice(1).join('\n');
    assert.ok(!/\.env|\.git\/|img\.png/.test(body), r.forLLM);
    assert.match(body, /dist\/bundle\.js/);
    const d = await t.worker({ pattern: 'value' });
    assert.ok(!/dist\/|debug\.log|gen\.ts/.test(d.forLLM), d.forLLM);
    assert.match(d.forLLM, /keep\.log/);
  });

  it('does not follow symlinks, in or out of the workspace (as rg)', async () => {
    const outside = tempDir('outside');
    fs.writeFileSync(`${outside}/secret.txt`, 'value outside\n');
    const t = tools({ 'in.txt': 'value inside\n' });
    link(outside, t.ws.path('out'));
    link('in.txt', t.ws.path('alias.txt'));
    const [w, r] = [await t.worker({ pattern: 'value', includeIgnored: true }), await t.rg({ pattern: 'value', includeIgnored: true })];
    assert.equal(w.details?.files, 1, w.forLLM);
    assert.equal(w.forLLM, r.forLLM);
  });

  it('answers an invalid regex with the engine\'s complaint and literal: true', async () => {
    const t = tools(TREE);
    const r = await t.worker({ pattern: 'a(b' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /not a valid regular expression: .*Unterminated group/);
    assert.match(r.forLLM, /literal: true/);
  });

  it('a catastrophic pattern: this thread stays responsive and the call ends with a clear message', async function () {
    this.timeout(15_000);
    // 40 word characters and a mismatch: V8 backtracks through ~3^20 ways to split them.
    // The budget leaves room for a cold, loaded machine (CI right after npm ci): a benign file must
    // never trip it, while the catastrophic one runs for minutes.
    const t = tools({ 'a.txt': 'fine line\n', 'b.txt': `${'a'.repeat(40)}!\n` }, { regexTimeoutMs: 2500 });
    // Run on this thread, the regex would block it: no timer could fire before the call returned.
    let searching = true;
    let ticksWhileSearching = 0;
    const ticker = setInterval(() => searching && ticksWhileSearching++, 20);
    const r = await t.worker({ pattern: '^(\\w+\\s?)*$' });
    searching = false;
    clearInterval(ticker);
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /The pattern took too long: .* on "b\.txt" .*Simplify the pattern .*or use literal: true/);
    assert.equal(r.details?.regexTimeout, true);
    assert.ok(ticksWhileSearching > 0, 'timers ran on this thread while the search went on');
  });

  it('the same pattern on short lines is fine (no false alarm)', async () => {
    const t = tools({ 'a.txt': 'word word\nmore words here\n' }, { regexTimeoutMs: 2500 });
    const r = await t.worker({ pattern: '^(\\w+\\s?)*$' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(r.details?.matches, 2);
  });

  it('cancellation stops a stuck worker at once', async () => {
    // The regex budget (60 s) outlasts the test's timeout: only the cancel can end this call.
    const t = tools({ 'b.txt': `${'a'.repeat(44)}!\n` }, { regexTimeoutMs: 60_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await t.worker({ pattern: '^(\\w+\\s?)*$' }, ctxWith(ac.signal));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /cancelled/);
  });

  it('the call\'s deadline ends a stuck search with a notice, not a hang', async () => {
    const t = tools({ 'a.txt': 'value\n', 'b.txt': `${'value '.repeat(8)}${'a'.repeat(44)}!\n` }, { regexTimeoutMs: 60_000 });
    // The regex budget (60 s) outlasts the test's timeout: only the deadline can end this call.
    const r = await t.worker({ pattern: '^(value\\s?)(\\w+\\s?)*$' }, ctxWith(undefined, Date.now() + 1500));
    assert.equal(r.details?.truncated, 'deadline');
    assert.match(r.forLLM, /ran out of time/);
  });
});
