import * as assert from 'node:assert/strict';
import {
  decodeHeader,
  encodeHeader,
  encodeRecord,
  HEADER_LEN,
  salvageRecords,
  scanRecords,
  type JournalRecord,
} from '../../../src/core/storage/journal-format';

const header = { epoch: '0123456789abcdef', journalId: 'fedcba9876543210', base: 41 };

function journal(records: JournalRecord[]): Buffer {
  return Buffer.concat([encodeHeader(header), ...records.map(encodeRecord)]);
}

function rec(seq: number, body = `row ${seq}`): JournalRecord {
  return { seq, statements: [{ sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [seq, body] }] };
}

describe('storage journal format', () => {
  it('round-trips the header and rejects a damaged one', () => {
    const h = encodeHeader(header);
    assert.equal(h.length, HEADER_LEN);
    assert.deepEqual(decodeHeader(h), header);
    const flipped = Buffer.from(h);
    flipped[26] ^= 1;
    assert.equal(decodeHeader(flipped), null);
    assert.equal(decodeHeader(h.subarray(0, 20)), null);
    assert.equal(decodeHeader(Buffer.alloc(HEADER_LEN)), null);
  });

  it('round-trips every parameter type, including blobs and non-finite numbers', () => {
    const blob = new Uint8Array([0, 1, 254, 255]);
    const r: JournalRecord = { seq: 42, statements: [{ sql: 'X', params: ['t', 1.5, -3, null, blob, Infinity, -Infinity] }, { sql: 'Y' }] };
    const scan = scanRecords(journal([r]), 0, HEADER_LEN, 42);
    assert.equal(scan.tail, 'clean');
    assert.equal(scan.records.length, 1);
    const params = scan.records[0].statements[0].params!;
    assert.deepEqual(params.slice(0, 4), ['t', 1.5, -3, null]);
    assert.deepEqual(Array.from(params[4] as Uint8Array), [0, 1, 254, 255]);
    assert.equal(params[5], Infinity);
    assert.equal(params[6], -Infinity);
    assert.deepEqual(scan.records[0].statements[1], { sql: 'Y' });
  });

  it('reads consecutive records and reports where each ends', () => {
    const buf = journal([rec(42), rec(43), rec(44)]);
    const scan = scanRecords(buf, 0, HEADER_LEN, 42);
    assert.deepEqual(scan.records.map((r) => r.seq), [42, 43, 44]);
    assert.equal(scan.validEnd, buf.length);
    assert.equal(scan.ends[2], buf.length);
    const resumed = scanRecords(buf.subarray(scan.ends[0]), scan.ends[0], scan.ends[0], 43);
    assert.deepEqual(resumed.records.map((r) => r.seq), [43, 44]);
  });

  it('treats a partial last record as incomplete, not as damage', () => {
    const full = journal([rec(42), rec(43)]);
    const cut = full.subarray(0, full.length - 5);
    const scan = scanRecords(cut, 0, HEADER_LEN, 42);
    assert.equal(scan.tail, 'incomplete');
    assert.deepEqual(scan.records.map((r) => r.seq), [42]);
    const headerOnly = full.subarray(0, scan.validEnd + 7);
    assert.equal(scanRecords(headerOnly, 0, HEADER_LEN, 42).tail, 'incomplete');
  });

  it('treats a zero-filled tail and a bad checksum at the very end as incomplete', () => {
    const zeros = Buffer.concat([journal([rec(42)]), Buffer.alloc(300)]);
    assert.equal(scanRecords(zeros, 0, HEADER_LEN, 42).tail, 'incomplete');
    const last = journal([rec(42), rec(43)]);
    last[last.length - 3] ^= 0xff;
    const scan = scanRecords(last, 0, HEADER_LEN, 42);
    assert.equal(scan.tail, 'incomplete');
    assert.equal(scan.records.length, 1);
  });

  it('reports damage in the middle, a broken length, or a sequence gap as corrupt', () => {
    const buf = journal([rec(42), rec(43), rec(44)]);
    const ends = scanRecords(buf, 0, HEADER_LEN, 42).ends;
    const middle = Buffer.from(buf);
    middle[ends[0] + 20] ^= 0x55;
    const m = scanRecords(middle, 0, HEADER_LEN, 42);
    assert.equal(m.tail, 'corrupt');
    assert.equal(m.validEnd, ends[0]);
    const badLen = Buffer.from(buf);
    badLen[ends[0]] ^= 0x01;
    assert.equal(scanRecords(badLen, 0, HEADER_LEN, 42).tail, 'corrupt');
    const gap = journal([rec(42), rec(44)]);
    assert.equal(scanRecords(gap, 0, HEADER_LEN, 42).tail, 'corrupt');
  });

  it('salvages intact records after a damaged one', () => {
    const buf = journal([rec(42), rec(43), rec(44), rec(45)]);
    const ends = scanRecords(buf, 0, HEADER_LEN, 42).ends;
    buf[ends[0] + 30] ^= 0x55;
    const scan = scanRecords(buf, 0, HEADER_LEN, 42);
    const rest = salvageRecords(buf, 0, scan.validEnd, 42);
    assert.deepEqual(rest.map((r) => r.seq), [44, 45]);
  });

  // Quickly: the test's timeout is the bound (a scan that backtracked over the garbage would take minutes).
  it('salvages nothing from random garbage, quickly', () => {
    const junk = Buffer.alloc(2_000_000);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 2654435761) >>> 24;
    assert.deepEqual(salvageRecords(junk, 0, 0, 0), []);
    assert.equal(scanRecords(junk, 0, 0, 1).tail, 'corrupt');
  });
});
