// The worker thread that scrubs chunks of a long text beside the calling thread (scrub-split.ts starts
// it). It holds its own copy of the compiled rules, built as soon as it starts, and a Scrubber per
// set of registered values (the caller's, sent with each job). It claims chunks until none is left
// (scrub-chunks.ts) and answers each; after posting each answer it bumps a shared counter, which the
// caller, blocked in Atomics.wait, may be waiting on.
import vm from 'node:vm';
import { workerData } from 'node:worker_threads';
import { Scrubber } from './scrubber';
import { claimable, claimChunk, endClaims } from './scrub-chunks';
import { SIGNAL_ANSWERS, SIGNAL_CLAIM, SIGNAL_READY, type SplitJob, type SplitReply, type SplitWorkerData } from './scrub-split';

const { port, signal } = workerData as SplitWorkerData;
const words = new Int32Array(signal);

let current: { key: string; scrubber: Scrubber } | undefined;

/**
 * The job's text, made straight from the shared buffer (Node copies the code units into memory of
 * its own for a string this long: the string does not alias the buffer). What makes it slow is
 * fresh memory: a 20 MB string made where no freed block of that size is at hand costs page
 * faults, about 10 ms of CPU on the 10 MB bench text (20-45 ms on a busy machine), against about
 * 2.5 ms in memory that held the last job's string (releaseText frees that one).
 */
function textOf(job: SplitJob): string {
  return Buffer.from(job.buffer, 0, job.length * 2).toString('utf16le');
}

/**
 * Frees the last job's string once the job is over, while this thread is idle: it is garbage then,
 * but V8 collects it only at its next full collection, often jobs later, so the next job's string
 * is made in fresh memory (textOf). vm.measureMemory with eager execution starts that collection
 * now (the measurement itself is not used). It runs after the answers are posted, off the
 * caller's wait; a job that arrives meanwhile waits for it (a few ms). The last regex search's
 * subject, a slice of the text that holds all of it, stays reachable as RegExp.input until the next
 * search: one on an empty string lets it go.
 */
const EMPTY = /(?:)/;
function releaseText(): void {
  EMPTY.exec('');
  try {
    vm.measureMemory({ execution: 'eager' }).catch(() => undefined);
  } catch {
    // Not offered here (an embedder's Node may leave it out): the string is freed later, at V8's own pace.
  }
}

function scrubberFor(placeholder: string, values: readonly string[]): Scrubber {
  const key = [placeholder, ...values].join('\u0000');
  if (current?.key !== key) {
    const scrubber = new Scrubber({ placeholder });
    for (const v of values) scrubber.register(v);
    current = { key, scrubber };
  }
  return current.scrubber;
}

/**
 * Readies the rules before the first job: V8 compiles a pattern's code apart for texts of one byte
 * a character and of two (a text with any character past U+00FF), so both kinds are scanned; and
 * the chunk walk runs a few rounds over lines with matches, so that its code is optimized. Timed
 * on the 10 MB bench text (two bytes a character), after a blank one-byte text only: this thread's
 * chunks of its first job took 25-61 ms each (2.2 ms once warm, as on the calling thread), 2.6-4.5
 * ms in its second and third; after this: 5.2, then 2.6, then 2.2. It costs about 90 ms more here
 * before the worker is ready, in the background.
 */
function warmUp(): void {
  const lines = ['export const token = process.env.API_TOKEN ?? "";', 'password=Zq8Wx2Ec4Rv6Tb8Yn1Um3Ik5 user=admin',
    '2024-05-14T12:30:07.123Z INFO [worker-3] processed id=5f2c1e9a in 42ms status=200', 'secret_key: "q7Lm2Xw9Pz4Rt6Yv8Bn1Kd3Hf5Gj0Sa"',
    '{"id":"65a1f0c2e4b0","attributes":{"name":"item 7","count":31},"links":{"self":"https://api.example.com/v1/item/9f8e7d6c"}}',
    'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0', '  \u2714 handles an empty value (32ms)'];
  const scrubber = new Scrubber();
  for (const wide of [false, true]) {
    const sample = Array.from({ length: 400 }, (_v, i) => `${lines[i % lines.length]} ${i}`).join('\n').replaceAll('\u2714', wide ? '\u2714' : 'v');
    for (let round = 0; round < 4; round++) {
      const walk = Scrubber.walk(scrubber, sample);
      for (let at = 0, next = 0; at < sample.length; at = next) {
        next = sample.indexOf('\n', at + 4096) + 1 || sample.length;
        walk.scan(at, next);
      }
    }
  }
}

warmUp();
Atomics.store(words, SIGNAL_READY, 1);
Atomics.notify(words, SIGNAL_READY);

function answer(reply: SplitReply): void {
  port.postMessage(reply);
  Atomics.add(words, SIGNAL_ANSWERS, 1);
  Atomics.notify(words, SIGNAL_ANSWERS);
}

port.on('message', (job: SplitJob) => {
  const count = job.bounds.length - 1;
  try {
    // A job whose chunks are all claimed (the caller did them while this thread was busy) is not copied.
    if (claimable(words, SIGNAL_CLAIM, job.id, count)) {
      const text = textOf(job);
      const walk = Scrubber.walk(scrubberFor(job.placeholder, job.values), text);
      for (let k = claimChunk(words, SIGNAL_CLAIM, job.id, count); k >= 0; k = claimChunk(words, SIGNAL_CLAIM, job.id, count)) {
        const { output, stopped } = walk.scan(job.bounds[k], job.bounds[k + 1]);
        answer({ id: job.id, chunk: k, pieces: output?.pieces(), stopped });
        if (!stopped) {
          endClaims(words, SIGNAL_CLAIM, job.id, count);
          break;
        }
      }
    }
    answer({ id: job.id, done: true });
    setImmediate(releaseText);
  } catch (e) {
    // The chunks this thread claimed and did not answer are scanned by the caller.
    answer({ id: job.id, error: (e as Error).message });
  }
});
