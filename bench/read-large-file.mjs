// read-large-file: memory while read_file returns a 200-line window from the middle of a 50 MB file.
// Each measurement runs in a fresh child process (so one run's garbage is not the next one's
// baseline): warm up on a small file, collect garbage, then sample memory every millisecond and
// at every chunk while the read runs. Two ways to read: range reads (WorkspaceFs.readRange, node
// implementation) and the whole-file readFile every WorkspaceFs has. Goal: peak growth < 2x the window.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DIR = path.join(here, '.corpus', 'read-large');
const FILE = path.join(DIR, 'large-50mb.log');
const SIZE = 50 * 1024 * 1024;
const OFFSET = 250_000;
const LIMIT = 200;
const RUNS = 5;
const MB = 1024 * 1024;

function generate() {
  if (fs.existsSync(FILE) && fs.statSync(FILE).size >= SIZE) return;
  fs.mkdirSync(DIR, { recursive: true });
  const fd = fs.openSync(FILE, 'w');
  let written = 0;
  let i = 0;
  while (written < SIZE) {
    const lines = [];
    for (let k = 0; k < 10_000; k++, i++) {
      lines.push(`2026-11-22T10:${String((i / 60000) % 60 | 0).padStart(2, '0')}:00.${String(i % 1000).padStart(3, '0')}Z INFO  [worker-${i % 32}] request ${i} handled in ${i % 97} ms path=/api/v1/items/${i}`);
    }
    const buf = Buffer.from(lines.join('\n') + '\n');
    fs.writeSync(fd, buf);
    written += buf.length;
  }
  fs.closeSync(fd);
}

async function child(mode) {
  const require = createRequire(import.meta.url);
  const { NodeWorkspaceFs } = require('../out/src/core/fs/node-fs.js');
  const { PathGuard, DEFAULT_DENY_PATHS } = require('../out/src/core/fs/path-guard.js');
  const { createReadFileTool } = require('../out/src/core/fs/tools/read-file.js');
  const root = fs.realpathSync(DIR);
  const base = new NodeWorkspaceFs();
  let sample = () => {};
  // 'whole': a WorkspaceFs without readRange (what vscode.workspace.fs offers today).
  // 'range': NodeWorkspaceFs.readRange as it is. 'live': the same, collecting garbage before each
  // sample, so it shows what the read holds rather than what V8 has not collected yet.
  // 'reuse': the same readRange; kept as a mode so earlier records stay comparable (it once
  // measured a readRange honouring `into`, which NodeWorkspaceFs now does itself).
  const wsFs = {
    readFile: (a, s) => base.readFile(a, s), stat: (a) => base.stat(a), readDirectory: (a) => base.readDirectory(a),
    writeFile: (a, d) => base.writeFile(a, d), delete: (a) => base.delete(a), rename: (a, b) => base.rename(a, b),
  };
  if (mode !== 'whole') {
    const inner = (...a) => base.readRange(...a);
    wsFs.readRange = async (...a) => {
      if (mode === 'live') globalThis.gc();
      sample();
      const r = await inner(...a);
      sample();
      return r;
    };
  }
  const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir() });
  const tool = createReadFileTool({ guard, fs: wsFs, reviewer: { review: async () => [] }, contextTokens: () => 8000 });
  const ctx = { sessionKey: 'b', agentId: 'b', channel: 'bench', peerKind: 'direct', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 600_000, workspaceTrusted: true };
  fs.writeFileSync(path.join(DIR, 'small.txt'), 'warm\nup\n'.repeat(1000));
  for (let i = 0; i < 3; i++) await tool.execute({ path: 'small.txt', offset: 10, limit: 200 }, ctx);

  const held = () => { const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed + m.external }; };
  for (let i = 0; i < 3; i++) globalThis.gc();
  const before = held();
  let peak = { ...before };
  sample = () => { const m = held(); if (m.rss > peak.rss) peak.rss = m.rss; if (m.heap > peak.heap) peak.heap = m.heap; };
  const timer = setInterval(sample, 1);
  const t0 = process.hrtime.bigint();
  const r = await tool.execute({ path: 'large-50mb.log', offset: OFFSET, limit: LIMIT }, ctx);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  sample();
  clearInterval(timer);
  if (r.isError || r.details.endLine !== OFFSET + LIMIT - 1) throw new Error(`unexpected result: ${r.forLLM.slice(0, 300)}`);
  process.stdout.write(JSON.stringify({
    ms, windowBytes: Buffer.byteLength(r.forLLM), totalLines: r.details.totalLines,
    rssGrowth: peak.rss - before.rss, heapGrowth: peak.heap - before.heap,
  }));
}

if (process.argv[2] === '--child') {
  await child(process.argv[3]);
} else {
  generate();
  const measure = (mode) => {
    const out = [];
    for (let i = 0; i < RUNS; i++) {
      const p = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', mode], { encoding: 'utf8' });
      if (p.status !== 0) { console.error(p.stderr); process.exit(1); }
      out.push(JSON.parse(p.stdout));
    }
    return out;
  };
  const range = measure('range');
  const live = measure('live');
  const reuse = measure('reuse');
  const whole = measure('whole');
  const pick = (rs, k) => median(rs.map((x) => x[k])) / MB;
  const window = range[0].windowBytes / MB;
  // The figure: heap + external (buffers) of the range read, without forced collections.
  const value = pick(range, 'heapGrowth');
  record({
    name: 'read-large-file', unit: 'MB', value, reference: 'the same read through WorkspaceFs.readFile (no readRange: whole file in memory)',
    referenceValue: pick(whole, 'heapGrowth'),
    goal: `peak memory growth < 2x the window (window ${(window * 1024).toFixed(1)} KB = ${window.toFixed(3)} MB)`, pass: value < 2 * window,
    runs: RUNS, statistic: 'median of the peak heapUsed+external growth, fresh process per run',
    corpus: `${(fs.statSync(FILE).size / MB).toFixed(1)} MB log file, ${range[0].totalLines} lines; lines ${OFFSET}-${OFFSET + LIMIT - 1}`,
    extra: {
      windowBytes: range[0].windowBytes,
      rangeHeapExternalGrowthMB: pick(range, 'heapGrowth'), rangeRssGrowthMB: pick(range, 'rssGrowth'), rangeMs: median(range.map((x) => x.ms)),
      liveHeapExternalGrowthMB: pick(live, 'heapGrowth'), liveRssGrowthMB: pick(live, 'rssGrowth'),
      proposedIntoBufferHeapExternalGrowthMB: pick(reuse, 'heapGrowth'), proposedIntoBufferRssGrowthMB: pick(reuse, 'rssGrowth'), proposedIntoBufferMs: median(reuse.map((x) => x.ms)),
      wholeHeapExternalGrowthMB: pick(whole, 'heapGrowth'), wholeRssGrowthMB: pick(whole, 'rssGrowth'), wholeMs: median(whole.map((x) => x.ms)),
    },
  });
}
