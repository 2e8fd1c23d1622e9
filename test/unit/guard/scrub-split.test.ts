// A long text scrubbed on two threads (scrub-split.ts, scrub-chunks.ts) must be the very string one
// pass makes: a chunk's scan stops at its end only where a scan started fresh there makes the rest.
// Checked at every line break of the unit corpora, at cuts spread over the seeded secrets corpus,
// for chunks shared out between two walks in any order, and end to end through the worker
// (registered values, two-byte text, a PEM block across an aimed cut, a late worker, no worker at
// all). bench/scrub-identical.mjs runs the same comparison on every bench corpus.
import * as assert from 'node:assert/strict';
import { runCombined, runFrom, type Combined } from '../../../src/core/guard/scrub-combine';
import { chunkBounds, ChunkWalk, cutNear, joinChunks, type ChunkResult } from '../../../src/core/guard/scrub-chunks';
import { setSplitWorkerPath, splitBackoff, splitCounts, splitPatience, SPLIT_MIN, stopSplitWorker, whenSplitReady } from '../../../src/core/guard/scrub-split';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { buildCorpus } from '../../support/secrets/corpus';
import { CLEAN_CASES } from './scrub-corpus-clean';
import { SECRET_CASES } from './scrub-corpus-secrets';

const P = '[REDACTED]';

/** The lanes Scrubber.scrub walks (a private static method: the test needs exactly those). */
function patternsOf(s: Scrubber, text: string): readonly Combined[] {
  return (Scrubber as unknown as { patterns(s: Scrubber, t: string): readonly Combined[] }).patterns(s, text);
}

/** The scan stopped at `cut` (where it could) joined to a fresh scan from there; whether it stopped. */
function cutAt(patterns: readonly Combined[], text: string, cut: number): { out: string; stopped: boolean } {
  const head = runFrom(patterns, text, P, 0, cut);
  if (!head.stopped) return { out: head.output?.toString() ?? text, stopped: false };
  const tail = runFrom(patterns, text, P, cut).output?.toString() ?? text.slice(cut);
  return { out: (head.output?.toString() ?? text.slice(0, cut)) + tail, stopped: true };
}

function lineBreaks(text: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) at.push(i + 1);
  return at;
}

/** A PEM private key block (the shape the rules redact across lines). */
function pem(seed: number): string {
  const body = Array.from({ length: 12 }, (_v, i) => `MIIEv${'QIBADANBgkqhkiG9w0BAQEFAASC'.repeat(2)}${String(seed * 100 + i).padStart(6, '0')}`);
  return ['-----BEGIN PRIVATE KEY-----', ...body, '-----END PRIVATE KEY-----'].join('\n');
}

describe('Scrubbing a long text on two threads', function () {
  this.timeout(120_000);
  const scrubber = new Scrubber();

  after(() => stopSplitWorker());

  it('makes the one-pass output at every line break of the unit corpora', () => {
    let stopped = 0;
    let cuts = 0;
    for (const c of [...SECRET_CASES, ...CLEAN_CASES]) {
      const patterns = patternsOf(scrubber, c.text);
      const expected = runCombined(patterns, c.text, P);
      for (const cut of lineBreaks(c.text)) {
        const r = cutAt(patterns, c.text, cut);
        assert.equal(r.out, expected, `${c.name}, cut at ${cut}`);
        cuts += 1;
        if (r.stopped) stopped += 1;
      }
    }
    assert.ok(cuts > 200, `${cuts} cuts`);
    // Most cuts stop there; those that do not are the ones a match spans (PEM blocks, multi-line values).
    assert.ok(stopped > cuts * 0.8 && stopped < cuts, `${stopped} of ${cuts} stopped`);
  });

  it('makes the one-pass output at cuts spread over the seeded secrets corpus', () => {
    const corpus = buildCorpus({ seed: 20261127, cleanBytes: 300_000 });
    const text = [...corpus.lines, ...corpus.pems.map((p) => p.text)].join('\n');
    const patterns = patternsOf(scrubber, text);
    const expected = runCombined(patterns, text, P);
    assert.ok(expected.split(P).length > 2000, 'the corpus is dense with secrets');
    const breaks = lineBreaks(text);
    let stopped = 0;
    for (let k = 1; k <= 16; k++) {
      const cut = breaks[Math.floor((breaks.length * k) / 17)];
      const r = cutAt(patterns, text, cut);
      assert.equal(r.out, expected, `cut at ${cut}`);
      if (r.stopped) stopped += 1;
    }
    assert.ok(stopped >= 12, `${stopped} of 16 stopped`);
  });

  it('goes on past a cut inside a PEM block, and the output is the same', () => {
    const text = `key file:\n${pem(1)}\nafter the key\n`;
    const inside = text.indexOf('\n', text.indexOf('BEGIN')) + 1;
    const patterns = patternsOf(scrubber, text);
    const r = cutAt(patterns, text, inside);
    assert.equal(r.stopped, false);
    assert.equal(r.out, runCombined(patterns, text, P));
    assert.ok(!r.out.includes('QIBADANBgkqhkiG9w0BAQEFAASC'));
  });

  it('does not cut where no line break precedes the cut', () => {
    const text = 'password=Zq8Wx2Ec4Rv6Tb8Yn1 and more text on the same line';
    const patterns = patternsOf(scrubber, text);
    const r = runFrom(patterns, text, P, 0, 20);
    assert.equal(r.stopped, false);
    assert.equal(r.output?.toString(), runCombined(patterns, text, P));
  });

  it('makes the one-pass output from chunks shared out between two walks, each in rising order', () => {
    const corpus = buildCorpus({ seed: 20261128, cleanBytes: 200_000 });
    const text = [...corpus.lines, ...corpus.pems.map((p) => p.text)].join('\n');
    const patterns = patternsOf(scrubber, text);
    const expected = runCombined(patterns, text, P);
    const bounds = chunkBounds(text, 4096);
    assert.ok(bounds.length > 40, `${bounds.length - 1} chunks`);
    let seed = 7;
    // Which walk takes each chunk: alternating, in runs, all to one, and seeded at random.
    const plans: ((k: number) => number)[] = [
      (k) => k % 2, (k) => Math.floor(k / 5) % 2, () => 0,
      () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 1,
    ];
    for (const plan of plans) {
      const walks = [new ChunkWalk(patterns, text, P), new ChunkWalk(patterns, text, P)];
      const over = [false, false];
      const results: ChunkResult[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const w = plan(k);
        // A walk whose scan went on to the end claims no more; the other takes the chunk (its output is dropped).
        const walk = over[w] ? 1 - w : w;
        if (over[walk]) break;
        const r = walks[walk].scan(bounds[k], bounds[k + 1]);
        results[k] = { output: r.output, stopped: r.stopped };
        if (!r.stopped) over[walk] = true;
      }
      assert.equal(joinChunks(text, bounds, results), expected);
    }
  });

  describe('through the worker', () => {
    const block = [...SECRET_CASES, ...CLEAN_CASES].map((c) => c.text).join('\n\n');
    const long = (extra: string) => {
      const parts: string[] = [];
      for (let n = 0, i = 0; n < SPLIT_MIN * 1.2; i++) {
        const part = i % 7 === 3 ? `${block}\n${extra}\n` : `${block}\n`;
        parts.push(part);
        n += part.length;
      }
      return parts.join('');
    };

    // These tests want each long text split: a busy test machine must not pause splitting.
    const backoff = splitBackoff.texts;
    before(async () => {
      splitBackoff.texts = 0;
      assert.equal(await whenSplitReady(), true, 'the worker started and compiled the rules');
    });
    after(() => {
      splitBackoff.texts = backoff;
    });

    /**
     * `s.scrub(text)` on two threads with the worker answering at least one chunk: this thread does
     * any chunk the worker did not claim, so on a busy machine a try can pass without it; tries again
     * (each output checked against one pass) until the worker took part. Chunks the worker claimed
     * are waited for, however slow the machine.
     */
    const scrubOnTwoThreads = (s: Scrubber, text: string): string => {
      const expected = s.scrubFrom(text, 0).output?.toString() ?? text;
      const patience = { ...splitPatience };
      Object.assign(splitPatience, { factor: 0, minMs: 60_000 });
      try {
        for (let tries = 0; tries < 20; tries++) {
          const before = splitCounts.split;
          const out = s.scrub(text);
          assert.equal(out, expected);
          if (splitCounts.split === before + 1) return out;
        }
      } finally {
        Object.assign(splitPatience, patience);
      }
      assert.fail(`the worker answered no chunk in 20 long texts: ${JSON.stringify(splitCounts)}`);
    };

    it('gives the one-pass string, with registered values, the worker taking part', () => {
      const s = new Scrubber();
      s.register('hunter2-correct-horse-battery');
      const text = long('echo hunter2-correct-horse-battery # the registered value, and again hunter2-correct-horse-battery');
      const out = scrubOnTwoThreads(s, text);
      assert.ok(!out.includes('hunter2-correct-horse-battery'));
    });

    it('gives the one-pass string on two-byte text', () => {
      const text = long('  ✔ handles the “wide” text — token=Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk');
      assert.ok(scrubOnTwoThreads(scrubber, text).includes('— token=[REDACTED]'));
    });

    it('hands the worker every code unit (lone surrogates too) through a buffer kept between texts', () => {
      const odd = '\ud800 a lone high surrogate, a lone low \udc00, a pair \ud83d\ude00 — token=Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk \ud800';
      const text = long(odd);
      // Longer (the buffer grows), then the first again (shorter than what the buffer last held).
      for (const t of [text, `${text}${text}`, text]) {
        const out = scrubOnTwoThreads(scrubber, t);
        assert.ok(out.includes('\ud800 a lone high') && !out.includes('Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk'));
      }
    });

    it('gives the one-pass string when a PEM block lies across an aimed cut', () => {
      // No blank line after the block, so the line break found at the aim is inside it.
      const key = pem(2);
      const tail = 'filler line with nothing secret in it\n'.repeat(Math.ceil((SPLIT_MIN * 2) / 38));
      const text = `${block.repeat(Math.ceil(SPLIT_MIN / block.length)).slice(0, SPLIT_MIN)}\n${key}\n${tail}`;
      const bounds = chunkBounds(text);
      const keyStart = SPLIT_MIN + 1;
      const keyEnd = keyStart + key.length;
      // Aimed inside the block: the cut there is moved past it.
      assert.ok(cutNear(text, keyStart + 100) > keyEnd, 'the cut is moved past the block');
      assert.ok(!bounds.some((b) => b > keyStart && b <= keyEnd), 'no chunk ends inside the block');
      const out = scrubOnTwoThreads(scrubber, text);
      assert.equal(out, scrubber.scrubFrom(text, 0).output?.toString());
      assert.ok(!out.includes('QIBADANBgkqhkiG9w0BAQEFAASC'));
    });

    it('does the rest itself when the worker is late, and drops the late answer', async () => {
      const text = long('password=Zq8Wx2Ec4Rv6Tb8Yn1Um3Ik5');
      const expected = scrubber.scrubFrom(text, 0).output?.toString();
      const counts = { ...splitCounts };
      const patience = { ...splitPatience };
      Object.assign(splitPatience, { factor: 0, minMs: 0 });
      try {
        assert.equal(scrubber.scrub(text), expected);
      } finally {
        Object.assign(splitPatience, patience);
      }
      // Its chunks not waited for, unless answered already: each text is counted once.
      const sum = (c: typeof splitCounts) => c.split + c.late + c.alone;
      assert.equal(sum(splitCounts), sum(counts) + 1, JSON.stringify(splitCounts));
      // Its late answers are taken and dropped; the next long text is scrubbed on two threads again.
      assert.equal(await whenSplitReady(), true);
      scrubOnTwoThreads(scrubber, text);
    });

    it('keeps giving the one-pass string while the worker is late text after text, then splits again', async () => {
      const text = long('password=Zq8Wx2Ec4Rv6Tb8Yn1Um3Ik5');
      const expected = scrubber.scrubFrom(text, 0).output?.toString();
      assert.equal(await whenSplitReady(), true);
      const counts = { ...splitCounts };
      const patience = { ...splitPatience };
      // No patience: the worker's chunks not answered yet are scanned here, while it may still be
      // on the last text's; and a split found not faster than one thread pauses the next two.
      Object.assign(splitPatience, { factor: 0, minMs: 0 });
      splitBackoff.texts = 2;
      try {
        for (let i = 0; i < 5; i++) assert.equal(scrubber.scrub(text), expected);
      } finally {
        Object.assign(splitPatience, patience);
        splitBackoff.texts = 0;
      }
      const sum = (c: typeof splitCounts) => c.split + c.late + c.alone + c.paused;
      assert.equal(sum(splitCounts), sum(counts) + 5, JSON.stringify(splitCounts));
      assert.equal(await whenSplitReady(), true);
      scrubOnTwoThreads(scrubber, text);
    });

    it('scrubs on one thread when the worker cannot start', () => {
      stopSplitWorker();
      const old = setSplitWorkerPath('/nonexistent/scrub-worker.js');
      try {
        const text = long('token=Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk');
        const counts = { ...splitCounts };
        assert.equal(scrubber.scrub(text), scrubber.scrubFrom(text, 0).output?.toString());
        assert.equal(scrubber.scrub(text), scrubber.scrubFrom(text, 0).output?.toString());
        assert.deepEqual(splitCounts, counts);
      } finally {
        setSplitWorkerPath(old);
      }
    });
  });
});
