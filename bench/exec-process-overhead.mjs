// exec-process-overhead: what the process executor (execa, own process group, exact environment,
// per-stream decoding, waiting for exit and the pipes) adds to starting a program, against a bare
// child_process.spawn of the same program awaiting its exit, interleaved in the same run.
// Goal: the executor's median within 1.3x the bare spawn's.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { median, percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const { createProcessExecutor } = require('../out/src/core/exec/run/process-executor.js');

const N = 200;
const WARMUP = 20;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const cwd = os.tmpdir();
const executor = createProcessExecutor();

// Both sides read stdout and stderr (spawn's default pipes) and wait for the exit.
const bare = () => new Promise((resolve, reject) => spawn('true', { cwd, env }).once('exit', resolve).once('error', reject));
async function viaExecutor() {
  const outcome = await executor.start({ target: { argv: ['true'] }, cwd, env }, () => undefined).done;
  if (outcome.exitCode !== 0) throw new Error(`true failed: ${JSON.stringify(outcome)}`);
}

async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

for (let i = 0; i < WARMUP; i++) { await bare(); await viaExecutor(); }
const b = [], e = [];
// Interleaved, so a noisy neighbour slows both sides alike.
for (let i = 0; i < N; i++) { b.push(await time(bare)); e.push(await time(viaExecutor)); }

const value = median(e);
const referenceValue = median(b);
record({
  name: 'exec-process-overhead', unit: 'ms', value, reference: "child_process.spawn('true') awaiting exit", referenceValue,
  goal: 'ratio <= 1.3', pass: value / referenceValue <= 1.3, runs: N, statistic: 'median',
  corpus: `${N} sequential spawns of \`true\` each (after ${WARMUP} warm-up), interleaved; executor: { argv: ['true'] } awaiting done`,
  extra: { executorP90: percentile(e, 90), bareP90: percentile(b, 90) },
});
