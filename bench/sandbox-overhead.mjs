// exec-sandbox-overhead: what one sandboxed command costs with Pincer's bubblewrap executor (its own
// proxy started and stopped per run, the socat relay, the process limit) against
// @anthropic-ai/sandbox-runtime doing the same (wrapWithSandbox, then running the wrapped line), and
// against no sandbox at all, interleaved in one run. sandbox-runtime is not a dependency: point
// PINCER_BENCH_ASRT_DIR at a folder where it is installed (`npm install @anthropic-ai/sandbox-runtime`)
// to include it; without it the reference is the unsandboxed process executor.
// Goal: Pincer's sandboxed `true` no slower than sandbox-runtime's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const { createProcessExecutor } = require('../out/src/core/exec/run/process-executor.js');
const { createSandboxExecutor } = require('../out/src/core/exec/run/sandbox-executor.js');

const N = Number(process.env.PINCER_BENCH_ROUNDS ?? 30);
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-sbx-'));
const plain = createProcessExecutor();
const proxied = createSandboxExecutor({ writable: [ws], network: 'proxy' });
const offline = createSandboxExecutor({ writable: [ws], network: 'none' });

async function viaExecutor(ex) {
  const o = await ex.start({ target: { shell: 'true' }, cwd: ws, env }, () => undefined).done;
  if (o.exitCode !== 0) throw new Error(`true failed: ${JSON.stringify(o)}`);
}

let asrt;
if (process.env.PINCER_BENCH_ASRT_DIR) {
  const entry = path.join(process.env.PINCER_BENCH_ASRT_DIR, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'index.js');
  const { SandboxManager } = await import(pathToFileURL(entry).href);
  const t = performance.now();
  await SandboxManager.initialize({ network: { allowedDomains: ['registry.npmjs.org'], deniedDomains: [] }, filesystem: { denyRead: ['~/.ssh'], allowWrite: [ws], denyWrite: [] } });
  asrt = { manager: SandboxManager, initMs: performance.now() - t };
}
async function viaAsrt() {
  const line = await asrt.manager.wrapWithSandbox('true');
  const code = await new Promise((resolve, reject) => spawn('/bin/bash', ['-c', line], { cwd: ws, env: process.env, stdio: 'ignore' }).once('exit', resolve).once('error', reject));
  if (code !== 0) throw new Error(`sandbox-runtime: true failed (${code})`);
}

async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const loadBefore = os.loadavg();
for (let i = 0; i < 3; i++) { await viaExecutor(proxied); if (asrt) await viaAsrt(); }
const runs = { plain: [], offline: [], proxied: [], asrt: [] };
for (let i = 0; i < N; i++) {
  runs.plain.push(await time(() => viaExecutor(plain)));
  runs.offline.push(await time(() => viaExecutor(offline)));
  runs.proxied.push(await time(() => viaExecutor(proxied)));
  if (asrt) runs.asrt.push(await time(viaAsrt));
}
if (asrt) await asrt.manager.reset();
fs.rmSync(ws, { recursive: true, force: true });

const value = median(runs.proxied);
const referenceValue = asrt ? median(runs.asrt) : median(runs.plain);
record({
  name: 'exec-sandbox-overhead', unit: 'ms', value,
  reference: asrt ? '@anthropic-ai/sandbox-runtime wrapWithSandbox + bash -c (proxy and seccomp on)' : 'the process executor, unsandboxed',
  referenceValue, goal: asrt ? 'ratio <= 1.0' : 'recorded (no sandbox-runtime to compare)', pass: asrt ? value <= referenceValue : true,
  runs: N, statistic: 'median', loadBefore,
  corpus: `${N} sequential runs of \`true\` per variant, interleaved; Pincer's with its network proxy and process limit`,
  extra: {
    unsandboxedMs: median(runs.plain), sandboxNoNetworkMs: median(runs.offline), sandboxWithProxyMs: value,
    ...(asrt ? { sandboxRuntimeMs: median(runs.asrt), sandboxRuntimeInitMs: asrt.initMs } : {}),
    euid: process.geteuid?.(),
  },
});
