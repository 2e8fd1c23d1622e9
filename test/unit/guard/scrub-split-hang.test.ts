// A scrub worker that hangs — never becomes ready, or takes a chunk of a job and never answers — is
// given up (terminated when stuck in a job), and long texts are then scrubbed on the calling thread
// alone, with the one-pass output. The hung workers are real threads blocked for good (Atomics.wait on a word nobody
// notifies), started from small scripts written for the test that speak the worker's side of
// scrub-split.ts (its signal words and the claim of scrub-chunks.ts). And the worker starts in a
// process run with options a worker refuses.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  setSplitWorkerPath, SIGNAL_CLAIM, SIGNAL_READY, splitBackoff, splitCounts, splitPatience, SPLIT_MIN, stopSplitWorker, whenSplitReady,
} from '../../../src/core/guard/scrub-split';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { CLEAN_CASES } from './scrub-corpus-clean';
import { SECRET_CASES } from './scrub-corpus-secrets';

const HANG = 'const never = new Int32Array(new SharedArrayBuffer(4));\nAtomics.wait(never, 0, 0);';

/** A worker script that hangs at start (`start`), or once it has claimed a chunk of its first job (`job`). */
function hangingWorker(dir: string, when: 'start' | 'job'): string {
  const file = path.join(dir, `hang-at-${when}.js`);
  const body = when === 'start' ? HANG : `const { claimChunk } = require(${JSON.stringify(require.resolve('../../../src/core/guard/scrub-chunks'))});
const words = new Int32Array(workerData.signal);
Atomics.store(words, ${SIGNAL_READY}, 1);
Atomics.notify(words, ${SIGNAL_READY});
workerData.port.on('message', (job) => {
  claimChunk(words, ${SIGNAL_CLAIM}, job.id, job.bounds.length - 1);
  ${HANG}
});`;
  fs.writeFileSync(file, `const { workerData } = require('node:worker_threads');\n${body}\n`);
  return file;
}

describe('Scrubbing a long text when the worker hangs', function () {
  this.timeout(60_000);
  const scrubber = new Scrubber();
  const block = [...SECRET_CASES, ...CLEAN_CASES].map((c) => c.text).join('\n\n');
  const text = block.repeat(Math.ceil((SPLIT_MIN * 1.5) / block.length));
  const expected = scrubber.scrubFrom(text, 0).output?.toString();
  let dir = '';
  let workerPath = '';
  const patience = { ...splitPatience };
  const backoff = splitBackoff.texts;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-scrub-hang-'));
    // Every long text goes to the worker: a busy test machine must not pause splitting.
    splitBackoff.texts = 0;
  });
  beforeEach(() => {
    stopSplitWorker();
  });
  afterEach(() => {
    Object.assign(splitPatience, patience);
    if (workerPath) setSplitWorkerPath(workerPath);
    stopSplitWorker();
  });
  after(() => {
    splitBackoff.texts = backoff;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives up on a worker that never becomes ready, and scrubs alone from then on', async () => {
    workerPath = setSplitWorkerPath(hangingWorker(dir, 'start'));
    splitPatience.hungMs = 200;
    const abandoned = splitCounts.abandoned;
    // Starts the worker; the text is scrubbed here while it would compile its rules.
    assert.equal(scrubber.scrub(text), expected);
    // Waits for it to become ready until it is taken for hung (not terminated: it may be compiling).
    assert.equal(await whenSplitReady(), false);
    assert.equal(splitCounts.abandoned, abandoned + 1);
    const counts = { ...splitCounts };
    assert.equal(scrubber.scrub(text), expected);
    // No worker is started again: the text was scrubbed on this thread alone, not split.
    assert.deepEqual(splitCounts, counts);
    assert.equal(await whenSplitReady(), false);
  });

  it('ends a worker that never answers a job it took a chunk of, and the outputs stay the one-pass string', async () => {
    workerPath = setSplitWorkerPath(hangingWorker(dir, 'job'));
    assert.equal(await whenSplitReady(), true, 'the hanging worker says it is ready');
    // A chunk the worker claimed is not waited for: this thread scans it too.
    Object.assign(splitPatience, { factor: 0, minMs: 0 });
    const abandoned = splitCounts.abandoned;
    assert.equal(scrubber.scrub(text), expected);
    assert.equal(splitCounts.abandoned, abandoned, 'one unanswered job within its time is not a hang');
    // The job is still unanswered; past hungMs, the next long text ends the worker and is scrubbed alone.
    splitPatience.hungMs = 0;
    assert.equal(scrubber.scrub(text), expected);
    assert.equal(splitCounts.abandoned, abandoned + 1);
    // Resolves once the terminated thread has ended.
    assert.equal(await whenSplitReady(), false);
    const counts = { ...splitCounts };
    assert.equal(scrubber.scrub(text), expected);
    assert.deepEqual(splitCounts, counts);
  });

  it('goes back to two threads once a working worker is set again', async () => {
    workerPath = setSplitWorkerPath(hangingWorker(dir, 'start'));
    splitPatience.hungMs = 0;
    assert.equal(await whenSplitReady(), false);
    setSplitWorkerPath(workerPath);
    splitPatience.hungMs = patience.hungMs;
    assert.equal(await whenSplitReady(), true, 'the real worker started and compiled the rules');
    const before = splitCounts.split + splitCounts.late + splitCounts.alone;
    assert.equal(scrubber.scrub(text), expected);
    assert.equal(splitCounts.split + splitCounts.late + splitCounts.alone, before + 1, 'the text went to the split');
  });
});

describe('Starting the scrub worker', function () {
  this.timeout(60_000);

  it('starts it in a process run with a V8 flag a worker refuses (--expose-gc), and splits there', () => {
    const module = JSON.stringify(require.resolve('../../../src/core/guard/scrub-split'));
    const scrubber = JSON.stringify(require.resolve('../../../src/core/guard/scrubber'));
    const script = `const split = require(${module});
const { Scrubber } = require(${scrubber});
const text = 'token=Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk and a line of output\\n'.repeat(split.SPLIT_MIN / 40);
split.whenSplitReady().then((ready) => {
  const s = new Scrubber();
  Object.assign(split.splitPatience, { factor: 0, minMs: 60000 });
  let same = true;
  for (let i = 0; i < 20 && split.splitCounts.split === 0; i++) same &&= s.scrub(text) === s.scrubFrom(text, 0).output.toString();
  process.stdout.write(JSON.stringify({ ready, same, split: split.splitCounts.split }));
  split.stopSplitWorker();
});`;
    const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { ready: true, same: true, split: 1 });
  });
});
