import * as assert from 'assert';
import { formatCount } from '../../src/core/format-count';

describe('formatCount', () => {
  it('groups thousands like en-US, without loading the locale data', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, -1_234_567, 50_000, 1234.5, 2 ** 40]) {
      assert.strictEqual(formatCount(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
    }
  });

  it('leaves what is not a plain finite number readable', () => {
    assert.strictEqual(formatCount(Number.NaN), 'NaN');
    assert.strictEqual(formatCount(Infinity), 'Infinity');
    assert.strictEqual(formatCount(1e21), '1e+21');
  });
});
