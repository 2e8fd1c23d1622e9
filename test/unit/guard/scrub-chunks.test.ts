// The pieces the two threads share a long text with (scrub-chunks.ts): where chunks end, the claim
// word, and the bound on how far the rare-anchor lane can look past a position, which lets a
// chunk's search for that lane stop at the chunk (measured here from the lane's own source, so a
// rule that makes the lane look further fails this test instead of changing an output).
import * as assert from 'node:assert/strict';
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { chunkBounds, ChunkWalk, claimable, claimChunk, claimWord, cutNear, endClaims, joinChunks, type ChunkResult } from '../../../src/core/guard/scrub-chunks';
import { runCombined, type Combined } from '../../../src/core/guard/scrub-combine';
import { LANE_SOURCES } from '../../../src/core/guard/scrub-lane-sources';
import { LANE_SOURCES_REACH } from '../../../src/core/guard/scrub-lanes';
import { Scrubber } from '../../../src/core/guard/scrubber';

/**
 * The most characters a pattern consumes (len) and reads from where an attempt starts (reach):
 * lookaheads read without consuming, a lookbehind is counted as if it read forward (an over-count,
 * which is safe), a backreference as long as its group.
 */
function measure(source: string): { len: number; reach: number } {
  const memo = new Map<AST.Node, { len: number; reach: number }>();
  const seq = (els: readonly AST.Node[]): { len: number; reach: number } => {
    let len = 0;
    let reach = 0;
    for (const e of els) {
      const x = node(e);
      reach = Math.max(reach, len + x.reach);
      len += x.len;
    }
    return { len, reach: Math.max(reach, len) };
  };
  const alts = (as: readonly AST.Node[]): { len: number; reach: number } => {
    let len = 0;
    let reach = 0;
    for (const a of as) {
      const x = node(a);
      len = Math.max(len, x.len);
      reach = Math.max(reach, x.reach);
    }
    return { len, reach };
  };
  const node = (n: AST.Node): { len: number; reach: number } => {
    const known = memo.get(n);
    if (known) return known;
    let r: { len: number; reach: number };
    switch (n.type) {
      case 'Pattern': case 'Group': case 'CapturingGroup': r = alts(n.alternatives); break;
      case 'Alternative': r = seq(n.elements); break;
      case 'Character': case 'CharacterSet': case 'CharacterClass': r = { len: 1, reach: 1 }; break;
      case 'Quantifier': {
        const e = node(n.element);
        if (n.max === 0) r = { len: 0, reach: 0 };
        else if (e.len === 0) r = e;
        else r = { len: n.max * e.len, reach: n.max === 1 ? e.reach : (n.max - 1) * e.len + e.reach };
        break;
      }
      case 'Assertion':
        r = n.kind === 'lookahead' || n.kind === 'lookbehind' ? { len: 0, reach: alts(n.alternatives).reach } : { len: 0, reach: 1 };
        break;
      case 'Backreference': {
        const g = node(n.resolved as AST.CapturingGroup);
        r = { len: g.len, reach: g.len };
        break;
      }
      default: throw new Error(`not measured: ${n.type}`);
    }
    memo.set(n, r);
    return r;
  };
  return node(new RegExpParser({ ecmaVersion: 2022 }).parsePattern(source, 0, source.length, false));
}

describe('Chunks of a long text', () => {
  it('bounds how far each lane said to be bounded can look past a position', () => {
    assert.equal(LANE_SOURCES_REACH.length, LANE_SOURCES.length);
    let bounded = 0;
    LANE_SOURCES.forEach((source, i) => {
      const { reach } = measure(source);
      const declared = LANE_SOURCES_REACH[i];
      if (declared === undefined) return;
      bounded += 1;
      assert.ok(reach <= declared, `lane ${i} reads up to ${reach} characters past a position, more than the ${declared} declared`);
    });
    assert.equal(bounded, 1, 'the rare-anchor lane is bounded');
    // The measure sees an unbounded value: the main lane is not declared bounded.
    assert.equal(measure(LANE_SOURCES[0]).reach, Number.POSITIVE_INFINITY);
    assert.deepEqual(measure('ab(?=c{2,4})|x+'), { len: Number.POSITIVE_INFINITY, reach: Number.POSITIVE_INFINITY });
    assert.deepEqual(measure('(a{1,3})b(?=cd)\\1'), { len: 7, reach: 7 });
  });

  it('cuts just after line breaks, in rising order, and not inside a BEGIN … END block', () => {
    const line = 'an ordinary line of build output\n';
    const block = `-----BEGIN PRIVATE KEY-----\n${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\n'.repeat(40)}-----END PRIVATE KEY-----\n`;
    const text = `${line.repeat(300)}${block}${line.repeat(300)}`;
    const bounds = chunkBounds(text, 1000);
    assert.equal(bounds[0], 0);
    assert.equal(bounds[bounds.length - 1], text.length);
    for (let k = 1; k < bounds.length - 1; k++) {
      assert.ok(bounds[k] > bounds[k - 1]);
      assert.equal(text[bounds[k] - 1], '\n');
    }
    const begin = text.indexOf('-----BEGIN');
    const end = text.indexOf('-----END');
    assert.ok(!bounds.some((b) => b > begin && b <= end), 'no chunk ends inside the block');
    assert.ok(cutNear(text, begin + 100) > end);
    assert.equal(cutNear('no line break at all', 3), -1);
  });

  it('gives each chunk to one claimant, and none of a job that is over', () => {
    const words = new Int32Array(new SharedArrayBuffer(12));
    Atomics.store(words, 2, claimWord(5, 0));
    assert.deepEqual([claimChunk(words, 2, 5, 3), claimChunk(words, 2, 5, 3), claimChunk(words, 2, 5, 3), claimChunk(words, 2, 5, 3)], [0, 1, 2, -1]);
    // A thread still on job 5 claims nothing of job 6, and job 6 is claimed from its first chunk.
    Atomics.store(words, 2, claimWord(6, 0));
    assert.equal(claimable(words, 2, 5, 3), false);
    assert.equal(claimChunk(words, 2, 5, 3), -1);
    assert.equal(claimChunk(words, 2, 6, 3), 0);
    endClaims(words, 2, 6, 3);
    assert.equal(claimChunk(words, 2, 6, 3), -1);
    assert.equal(claimable(words, 2, 6, 3), false);
  });

  it('makes the one-pass output when the rare-anchor lane matches near and across chunk ends', () => {
    const scrubber = new Scrubber();
    const patterns = (Scrubber as unknown as { patterns(s: Scrubber, t: string): readonly Combined[] }).patterns(scrubber, ' ');
    // Rare-anchor rules (a Databricks token, a `net use` password, an Azure secret) at every offset
    // around the chunk ends, among plain lines.
    const rare = ['dapi0123456789abcdef0123456789abcdef', 'net use \\\\host\\share /user:admin Hunter2Secret9', 'client abc8Q~Zx7Vb6Nm5Lk4Jh3Gf2Ds1Aq0Wz9Xy8Tu7'];
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(i % 3 === 0 ? `x${'.'.repeat(i % 17)} ${rare[i % rare.length]} tail` : `plain line ${i} with nothing in it`);
    const text = lines.join('\n');
    const expected = runCombined(patterns, text, '[REDACTED]');
    assert.ok(expected.split('[REDACTED]').length > 100);
    for (const size of [300, 700, 1500]) {
      const bounds = chunkBounds(text, size);
      const walks = [new ChunkWalk(patterns, text, '[REDACTED]'), new ChunkWalk(patterns, text, '[REDACTED]')];
      const results: ChunkResult[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const r = walks[k % 2].scan(bounds[k], bounds[k + 1]);
        results[k] = { output: r.output, stopped: r.stopped };
        if (!r.stopped) break;
      }
      assert.equal(joinChunks(text, bounds, results), expected, `chunks of about ${size}`);
    }
  });
});
