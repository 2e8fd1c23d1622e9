// pipeline-overhead: the time Registry.execute adds to a call (resolve, policy, validation, rate
// limit, loop check, scrub of a 1 KB result, cap, timing, events) against calling the tool's own
// function directly, in the same process and run. Goal: ≤ 20 µs median.
import { createRequire } from 'node:module';
import path from 'node:path';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
// The build measured: out/ unless PINCER_OUT names another (a helper's own tsc output), as in the other benches.
const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', process.env.PINCER_OUT ?? 'out');
const { PincerRuntime } = require(path.join(OUT, 'src/core/runtime.js'));
const { readConfig } = require(path.join(OUT, 'src/core/config.js'));
const { z } = require('zod');

const PAYLOAD = 'const value = computeSomething(input); // ordinary source line of tool output\n'.repeat(13).slice(0, 1000);
const tool = {
  name: 'bench_read', group: 'fs', capability: 'read-only', description: 'bench',
  parameters: z.object({ path: z.string(), n: z.number() }).strict(),
  async execute(args) { return { forLLM: PAYLOAD + args.n, isError: false }; },
};

const settings = { 'tools.profile': 'full', 'rateLimit.burst': 1e9, 'rateLimit.perMinute': 1e9 };
const rt = new PincerRuntime({ config: readConfig((k) => settings[k]) });
rt.registry.register(tool);
const ctx = rt.context({ channel: 'bench', sessionKey: 'bench' });

const BATCH = 2000;
async function timeBatch(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) await fn(i);
  return Number(process.hrtime.bigint() - t0) / 1000 / BATCH; // µs per call
}
const direct = (i) => tool.execute({ path: 'src/a.ts', n: i }, ctx);
const piped = (i) => rt.registry.execute('bench_read', { path: 'src/a.ts', n: i }, ctx);

for (let w = 0; w < 5; w++) { await timeBatch(direct); await timeBatch(piped); }
const d = [], p = [];
for (let r = 0; r < 15; r++) { d.push(await timeBatch(direct)); p.push(await timeBatch(piped)); }
const overhead = p.map((x, i) => x - d[i]);
const value = median(overhead);
record({
  name: 'pipeline-overhead', unit: 'us', value, reference: 'direct call of the tool function', referenceValue: median(d),
  goal: '<= 20 us median added per call', pass: value <= 20, runs: overhead.length, statistic: 'median',
  corpus: `${BATCH} calls per run, 1 KB result, validation + rate limit + loop check + scrub + cap`,
  extra: { pipelineMedianUs: median(p) },
});
