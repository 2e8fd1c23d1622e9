// Byte layout of pincer.journal: a fixed header naming the snapshot it continues from, then
// records framed as [len][crc of len][crc of payload][JSON payload], so a reader can tell a record
// still being written (or torn by a crash) from one damaged in the middle of the file.
import { crc32 } from './crc32';
import type { SqlValue, StatementSpec } from './types';

export const HEADER_LEN = 40;
export const RECORD_OVERHEAD = 12;
const MAGIC = Buffer.from('PNCRJNL1', 'latin1');
/** A record larger than this is a damaged length field, not a real transaction. */
const MAX_RECORD = 512 * 1024 * 1024;
const PAYLOAD_PREFIX = Buffer.from('{"seq":', 'latin1');

export interface JournalHeader {
  /** Identifies one linear history; a recovery starts a new one so no process mixes the two. */
  epoch: string;
  /** Identifies this file, so a byte offset remembered in another file is never reused here. */
  journalId: string;
  /** Sequence number of the snapshot this journal continues from. */
  base: number;
}

export interface JournalRecord {
  seq: number;
  statements: StatementSpec[];
}

export interface ScanResult {
  records: JournalRecord[];
  /** ends[i]: absolute file offset just past records[i]. */
  ends: number[];
  /** Absolute file offset just past the last intact record. */
  validEnd: number;
  /** incomplete: the bytes after validEnd may be a record still being written, or torn by a crash. */
  tail: 'clean' | 'incomplete' | 'corrupt';
  problem?: string;
}

export function encodeHeader(h: JournalHeader): Buffer {
  const b = Buffer.alloc(HEADER_LEN);
  MAGIC.copy(b, 0);
  Buffer.from(h.epoch, 'hex').copy(b, 8, 0, 8);
  Buffer.from(h.journalId, 'hex').copy(b, 16, 0, 8);
  b.writeDoubleLE(h.base, 24);
  b.writeUInt32LE(crc32(b, 0, 36), 36);
  return b;
}

export function decodeHeader(b: Buffer): JournalHeader | null {
  if (b.length < HEADER_LEN || !b.subarray(0, 8).equals(MAGIC)) return null;
  if (b.readUInt32LE(36) !== crc32(b, 0, 36)) return null;
  const base = b.readDoubleLE(24);
  if (!Number.isSafeInteger(base) || base < 0) return null;
  return { epoch: b.toString('hex', 8, 16), journalId: b.toString('hex', 16, 24), base };
}

type EncodedParam = string | number | null | { b: string } | { n: string };

function encodeParam(v: SqlValue): EncodedParam {
  if (v instanceof Uint8Array) return { b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (typeof v === 'number' && !Number.isFinite(v)) return { n: String(v) };
  return v;
}

function decodeParam(p: unknown): SqlValue {
  if (p === null || typeof p === 'string' || typeof p === 'number') return p;
  if (typeof p === 'object' && typeof (p as { b?: unknown }).b === 'string') {
    return new Uint8Array(Buffer.from((p as { b: string }).b, 'base64'));
  }
  if (typeof p === 'object' && typeof (p as { n?: unknown }).n === 'string') return Number((p as { n: string }).n);
  throw new Error('bad parameter in journal record');
}

export function encodeRecord(rec: JournalRecord): Buffer {
  const statements = rec.statements.map((s) => (s.params ? { sql: s.sql, params: s.params.map(encodeParam) } : { sql: s.sql }));
  const payload = Buffer.from(JSON.stringify({ seq: rec.seq, statements }), 'utf8');
  const out = Buffer.allocUnsafe(RECORD_OVERHEAD + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(out, 0, 4), 4);
  out.writeUInt32LE(crc32(payload), 8);
  payload.copy(out, RECORD_OVERHEAD);
  return out;
}

function decodePayload(payload: Buffer): JournalRecord | null {
  let v: unknown;
  try {
    v = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const o = v as { seq?: unknown; statements?: unknown };
  if (!o || typeof o !== 'object' || !Number.isSafeInteger(o.seq) || (o.seq as number) < 1 || !Array.isArray(o.statements)) return null;
  try {
    const statements = o.statements.map((s: { sql?: unknown; params?: unknown }) => {
      if (!s || typeof s.sql !== 'string') throw new Error('bad statement');
      if (s.params === undefined) return { sql: s.sql };
      if (!Array.isArray(s.params)) throw new Error('bad params');
      return { sql: s.sql, params: s.params.map(decodeParam) };
    });
    return { seq: o.seq as number, statements };
  } catch {
    return null;
  }
}

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

type Frame = { kind: 'ok'; rec: JournalRecord; next: number } | { kind: 'incomplete' | 'corrupt'; problem: string };

/** Reads one framed record at pos; never throws. */
function readFrame(buf: Buffer, pos: number): Frame {
  if (buf.length - pos < RECORD_OVERHEAD) return { kind: 'incomplete', problem: 'partial record header' };
  const len = buf.readUInt32LE(pos);
  if (buf.readUInt32LE(pos + 4) !== crc32(buf, pos, pos + 4) || len > MAX_RECORD) {
    // Space the file system extended but never filled (a crash mid-write) reads back as zeros.
    if (allZero(buf, pos)) return { kind: 'incomplete', problem: 'zero-filled tail' };
    return { kind: 'corrupt', problem: 'damaged record length' };
  }
  const end = pos + RECORD_OVERHEAD + len;
  if (end > buf.length) return { kind: 'incomplete', problem: 'partial record' };
  if (buf.readUInt32LE(pos + 8) !== crc32(buf, pos + RECORD_OVERHEAD, end)) {
    // A record whose bytes end exactly at end of file may simply not have reached the disk yet.
    return end === buf.length ? { kind: 'incomplete', problem: 'torn record' } : { kind: 'corrupt', problem: 'record checksum mismatch' };
  }
  const rec = decodePayload(buf.subarray(pos + RECORD_OVERHEAD, end));
  return rec ? { kind: 'ok', rec, next: end } : { kind: 'corrupt', problem: 'unreadable record payload' };
}

/**
 * Scans records in buf (which holds the file from absolute offset bufOffset) starting at absolute
 * offset `from`, expecting consecutive sequence numbers starting at expectedSeq.
 */
export function scanRecords(buf: Buffer, bufOffset: number, from: number, expectedSeq: number): ScanResult {
  const records: JournalRecord[] = [];
  const ends: number[] = [];
  let pos = from - bufOffset;
  let seq = expectedSeq;
  while (pos < buf.length) {
    const f = readFrame(buf, pos);
    if (f.kind !== 'ok') return { records, ends, validEnd: bufOffset + pos, tail: f.kind, problem: f.problem };
    if (f.rec.seq !== seq) {
      return { records, ends, validEnd: bufOffset + pos, tail: 'corrupt', problem: `record ${f.rec.seq} where ${seq} was expected` };
    }
    records.push(f.rec);
    ends.push(bufOffset + f.next);
    seq++;
    pos = f.next;
  }
  return { records, ends, validEnd: bufOffset + pos, tail: 'clean' };
}

/** Best effort after damage: finds intact records anywhere after `from`, in increasing seq order. */
export function salvageRecords(buf: Buffer, bufOffset: number, from: number, afterSeq: number): JournalRecord[] {
  const out: JournalRecord[] = [];
  let last = afterSeq;
  let pos = from - bufOffset;
  while (pos + RECORD_OVERHEAD < buf.length) {
    const at = buf.indexOf(PAYLOAD_PREFIX, pos + RECORD_OVERHEAD);
    if (at < 0) break;
    const f = readFrame(buf, at - RECORD_OVERHEAD);
    if (f.kind === 'ok' && f.rec.seq > last) {
      out.push(f.rec);
      last = f.rec.seq;
      pos = f.next;
    } else {
      pos = at - RECORD_OVERHEAD + 1;
    }
  }
  return out;
}
