// The seeded secrets corpus (test/support/secrets): every token format in every syntax, bare where
// it has a prefix, the structural secrets and PEM keys, and the look-alikes, planted in realistic
// clean tool output. bench/scrub-accuracy.mjs runs the same corpus over >= 10 MB.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { buildCorpus, evaluate } from '../../support/secrets/corpus';

describe('Scrubber on the generated secrets corpus', function () {
  this.timeout(120_000);
  const corpus = buildCorpus({ seed: 20261126, cleanBytes: 600_000 });
  const scrubber = new Scrubber();
  const result = evaluate(corpus, (t) => scrubber.scrub(t));

  it('covers at least 150 token formats in at least 12 syntaxes', () => {
    assert.ok(corpus.formatCount >= 150, `${corpus.formatCount} formats`);
    assert.ok(corpus.syntaxCount >= 12, `${corpus.syntaxCount} syntaxes`);
    assert.ok(result.secretCount > 5000, `${result.secretCount} planted secrets`);
  });

  it('leaks none of the planted secrets', () => {
    assert.deepEqual(result.leaks.map((l) => `${l.id} in ${l.syntax}: ${l.secret}`), []);
  });

  it('leaves every look-alike unchanged', () => {
    assert.ok(corpus.lookalikes.size > 500, `${corpus.lookalikes.size} look-alikes`);
    assert.deepEqual(result.changedLookalikes, []);
  });

  it('changes at most 0.05 % of the clean lines', () => {
    const share = (result.changedClean.length + result.changedLookalikes.length) / result.cleanLineCount;
    assert.ok(share <= 0.0005, `${(share * 100).toFixed(3)} %:\n${result.changedClean.slice(0, 10).join('\n')}`);
  });

  it('is deterministic for a seed', () => {
    const again = buildCorpus({ seed: 20261126, cleanBytes: 600_000 });
    assert.deepEqual(again.lines, corpus.lines);
  });
});
