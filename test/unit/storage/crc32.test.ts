import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { crc32, crc32Table } from '../../../src/core/storage/crc32';

describe('storage: crc32', () => {
  it('gives the standard CRC-32 check value, native and table alike', () => {
    const check = Buffer.from('123456789', 'latin1');
    assert.equal(crc32(check), 0xcbf43926);
    assert.equal(crc32Table(check), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
    assert.equal(crc32Table(Buffer.alloc(0)), 0);
  });

  it('the native and table forms agree on every range of random bytes', () => {
    const buf = randomBytes(70_000);
    for (const [start, end] of [[0, buf.length], [0, 4], [3, 4], [17, 65_553], [buf.length, buf.length], [1, buf.length - 1]]) {
      assert.equal(crc32(buf, start, end), crc32Table(buf, start, end), `range ${start}..${end}`);
    }
    // A range is the same as the bytes it covers on their own.
    assert.equal(crc32(buf, 100, 200), crc32Table(Buffer.from(buf.subarray(100, 200))));
  });
});
