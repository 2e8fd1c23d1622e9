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

// The rate limit at its highest setting (the settings' maximum: a larger number is out of range and
// the default applies, which refused nearly every call here before).
const settings = { 'tools.profile': 'full', 'rateLimit.burst': 100_000, 'rateLimit.perMinute': 100_000 };
const rt = new PincerRuntime({ config: readConfig((k) => settings[k]) });
rt.registry.register(tool);
const ctx = rt.context({ channel: 'bench', sessionKey: 'bench' });

const BATCH = 2000;
// Every result is checked, on both sides alike: a call the pipeline refused (a halted run, a rate
// limit) would be timed as a refusal, not as a call.
async function timeBatch(fn) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) {
    const r = await fn(i);
    if (r.isError) throw new Error(r.forLLM);
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / BATCH; // µs per call
}
const direct = (i) => tool.execute({ path: 'src/a.ts', n: i }, ctx);
// A new turn every 50 calls, as an agent's turn makes a few calls and not thousands: loop detection
// judges each call against its turn's history, and a run of 100 reads in one turn is stopped as a
// read-only streak (before this, every call after the 100th was timed as that refusal).
let turn = 0;
let turnCtx;
const piped = (i) => {
  if (i % 50 === 0) {
    if (turnCtx) rt.loops.forget(turnCtx.turnId);
    turnCtx = rt.context({ channel: 'bench', sessionKey: 'bench', turnId: `turn${++turn}` });
  }
  return rt.registry.execute('bench_read', { path: 'src/a.ts', n: i }, turnCtx);
};

for (let w = 0; w < 5; w++) { await timeBatch(direct); await timeBatch(piped); }
// The scrubber compiles its pattern's code for one-byte texts 2 s after its first scrub and scans a
// copy held two bytes wide until then (scrubber.ts, NARROW_LATER_MS): a process that runs for longer
// than that (an editor, an agent's turn) scrubs the narrow way, so the measured rounds start after it.
await new Promise((resolve) => setTimeout(resolve, 2100));
const d = [], p = [];
for (let r = 0; r < 15; r++) { d.push(await timeBatch(direct)); p.push(await timeBatch(piped)); }
const overhead = p.map((x, i) => x - d[i]);
const value = median(overhead);
record({
  name: 'pipeline-overhead', unit: 'us', value, reference: 'direct call of the tool function', referenceValue: median(d),
  goal: '<= 20 us median added per call', pass: value <= 20, runs: overhead.length, statistic: 'median',
  corpus: `${BATCH} calls per run (a new turn every 50), 1 KB result, validation + rate limit + loop check + scrub + cap`,
  extra: { pipelineMedianUs: median(p) },
});
