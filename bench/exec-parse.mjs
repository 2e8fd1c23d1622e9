// Shell parse alone (parseCommand: normalise + tree-sitter parse + walk), µs per ~200-char command,
// median over batches after warm-up. The judge's bench (exec-policy-decision) adds policy on top;
// this isolates the parser, whose cost the issue says to watch. Reference: tree-sitter's parse alone.
// Needs the compiled output (`npx tsc -p .`; PINCER_OUT names another output folder than out/).
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, process.env.PINCER_OUT ?? 'out');
const { parseCommand } = require(path.join(OUT, 'src/core/exec/command-parse.js'));
const { bashParser } = require(path.join(OUT, 'src/core/exec/command-grammar.js'));

const COMMANDS = [
  'git log --oneline -n 20 | grep -v "WIP" && npm run test -- --grep "parser" ; for f in src/*.ts; do wc -l "$f"; done; echo $(date +%s) > /tmp/x.txt 2>&1; cat <<< "hello world" | tr a-z A-Z',
  'find . -name "*.ts" -not -path "./node_modules/*" -exec grep -l "TODO" {} + | xargs -r wc -l | sort -n | tail -5 && env NODE_ENV=test timeout 60 npx mocha --reporter dot "out/test/**/*.test.js"',
  "docker build -t app:dev --build-arg NODE_VERSION=20 . && docker run --rm -v \"$PWD\":/src -w /src app:dev sh -c 'npm ci && npm test' 2>&1 | tee build.log; test ${PIPESTATUS[0]} -eq 0",
];
const BATCH = 200;
const BATCHES = 25;

const t0 = performance.now();
await parseCommand('true');
const firstLoadMs = performance.now() - t0;
const parser = await bashParser();

/** Median µs per command over the batches, wall-clock and CPU time (on a busy machine the CPU time waits less for a core). */
async function measure(fn) {
  for (let i = 0; i < 2000; i++) await fn(COMMANDS[i % COMMANDS.length]); // warm-up
  const samples = [];
  const cpuSamples = [];
  for (let b = 0; b < BATCHES; b++) {
    const cpu0 = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) await fn(COMMANDS[i % COMMANDS.length]);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / BATCH);
    const cpu = process.cpuUsage(cpu0);
    cpuSamples.push((cpu.user + cpu.system) / BATCH);
  }
  return { wall: median(samples), cpu: Math.round(10 * median(cpuSamples)) / 10 };
}

const loadBefore = os.loadavg();
const { wall: full, cpu: fullCpu } = await measure((c) => parseCommand(c));
const { wall: treeOnly, cpu: treeCpu } = await measure(async (c) => parser.parse(c).delete());
const avgLen = Math.round(COMMANDS.reduce((n, c) => n + c.length, 0) / COMMANDS.length);
record({
  name: 'exec-parse', unit: 'us', value: full, reference: 'tree-sitter parse alone', referenceValue: treeOnly,
  goal: '≤ 100 µs median for parse + judge (this is parse alone)', pass: full <= 100, runs: BATCHES * BATCH,
  statistic: `median of ${BATCHES} batches of ${BATCH}`, corpus: `${COMMANDS.length} commands, ~${avgLen} chars`,
  extra: { firstLoadMs: Math.round(firstLoadMs), cpuUsPerParse: fullCpu, cpuUsTreeSitterOnly: treeCpu }, loadBefore,
});
