import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { CHECKPOINT_MIGRATIONS, CheckpointStore, MAX_CHECKPOINT_FILE_BYTES, restoreCheckpoint } from '../../../src/core/fs/checkpoint-store';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { Database } from '../../../src/core/storage/database';
import { TOOL_LOG_MIGRATIONS } from '../../../src/core/storage/tool-log-store';
import { makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';
import { STORAGE_WORKER, removeTempDirs as removeStorageDirs, tempDir as storageDir } from '../../support/storage-fixtures';

const open: Database[] = [];

async function openDb(dir = storageDir('ckpt')): Promise<Database> {
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: [...TOOL_LOG_MIGRATIONS, ...CHECKPOINT_MIGRATIONS] });
  open.push(db);
  return db;
}

function clock(start = 1_000): { now(): number } {
  let t = start;
  return { now: () => t++ };
}

const bytes = (s: string | number[]): Uint8Array => (typeof s === 'string' ? new TextEncoder().encode(s) : Uint8Array.from(s));
const reads = (b: Uint8Array | undefined) => async (): Promise<Uint8Array | undefined> => b;

describe('checkpoint store', () => {
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  after(() => {
    removeTempDirs();
    removeStorageDirs();
  });

  it('keeps only the first original a turn sees of a path, and does not even read it again', async () => {
    const store = new CheckpointStore(await openDb(), clock());
    assert.equal(await store.capture('t1', 'edit a.ts', '/w/a.ts', reads(bytes('v1'))), 'kept');
    let read = 0;
    const outcome = await store.capture('t1', 'edit a.ts', '/w/a.ts', async () => {
      read++;
      return bytes('v2');
    });
    assert.equal(outcome, 'already-kept');
    assert.equal(read, 0);
    const [cp] = await store.list();
    assert.deepEqual(await store.files(cp!.id), [{ path: '/w/a.ts', existed: true, content: bytes('v1') }]);
  });

  it('keeps one checkpoint per turn, newest first, with its files in the order they were touched', async () => {
    const store = new CheckpointStore(await openDb(), clock(5_000));
    await store.capture('t1', 'first turn', '/w/b', reads(bytes('b')));
    await store.capture('t1', 'ignored label', '/w/a', reads(undefined));
    await store.capture('t2', 'second turn', '/w/a', reads(bytes('a')));
    const list = await store.list();
    assert.deepEqual(list.map((c) => [c.turn, c.label, c.files]), [
      ['t2', 'second turn', ['/w/a']],
      ['t1', 'first turn', ['/w/b', '/w/a']],
    ]);
    assert.equal(list[1]!.createdAt, 5_000, 'the time of the turn\'s first capture');
    assert.ok(list[0]!.createdAt > 5_000);
    assert.deepEqual((await store.list(1)).map((c) => c.turn), ['t2']);
    assert.deepEqual(await store.files(list[1]!.id), [
      { path: '/w/b', existed: true, content: bytes('b') },
      { path: '/w/a', existed: false },
    ]);
    assert.deepEqual(await store.files(9_999), []);
  });

  it('stores bytes exactly: every byte value, NUL, CRLF, a BOM and an empty file', async () => {
    const all = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
    const store = new CheckpointStore(await openDb());
    await store.capture('t', 'l', '/w/all.bin', reads(all));
    await store.capture('t', 'l', '/w/crlf.txt', reads(bytes([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62, 0x0d, 0x0a])));
    await store.capture('t', 'l', '/w/empty', reads(new Uint8Array(0)));
    const files = await store.files((await store.list())[0]!.id);
    assert.deepEqual(files.map((f) => [f.path, f.existed, Buffer.from(f.content!).toString('hex')]), [
      ['/w/all.bin', true, Buffer.from(all).toString('hex')],
      ['/w/crlf.txt', true, 'efbbbf610d0a620d0a'],
      ['/w/empty', true, ''],
    ]);
  });

  it('survives a reopen and shares the database with the tool log', async () => {
    const dir = storageDir('ckpt-reopen');
    let db = await openDb(dir);
    await new CheckpointStore(db, clock()).capture('turn', 'label', '/w/x', reads(bytes('original')));
    await db.close();
    db = await openDb(dir);
    const store = new CheckpointStore(db);
    const [cp] = await store.list();
    assert.equal(cp?.label, 'label');
    assert.deepEqual(await store.files(cp.id), [{ path: '/w/x', existed: true, content: bytes('original') }]);
    assert.deepEqual(await db.query('SELECT COUNT(*) AS n FROM tool_calls'), [{ n: 0 }]);
  });

  it('prunes to the newest N with their files, explicitly and when a new checkpoint is created', async () => {
    const db = await openDb();
    const store = new CheckpointStore(db, clock(), { keep: 3 });
    for (let i = 0; i < 6; i++) {
      await store.capture(`t${i}`, `turn ${i}`, `/w/${i}`, reads(bytes(String(i))));
      await store.capture(`t${i}`, `turn ${i}`, '/w/shared', reads(bytes('s')));
    }
    assert.deepEqual((await store.list(100)).map((c) => c.turn), ['t5', 't4', 't3']);
    await store.prune(1);
    const list = await store.list(100);
    assert.deepEqual(list.map((c) => [c.turn, c.files]), [['t5', ['/w/5', '/w/shared']]]);
    assert.deepEqual(await db.query('SELECT COUNT(*) AS n FROM checkpoint_files'), [{ n: 2 }], 'no orphaned file rows');
    await store.prune(0);
    assert.deepEqual(await store.list(), []);
    await assert.rejects(store.prune(-1), /keep must be/);
  });

  it('keeps nothing for a file over the size limit', async () => {
    const store = new CheckpointStore(await openDb());
    assert.equal(await store.capture('t', 'l', '/w/big', reads(new Uint8Array(MAX_CHECKPOINT_FILE_BYTES + 1))), 'too-large');
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.capture('t', 'l', '/w/edge', reads(new Uint8Array(MAX_CHECKPOINT_FILE_BYTES))), 'kept');
    assert.equal((await store.files((await store.list())[0]!.id))[0]?.content?.byteLength, MAX_CHECKPOINT_FILE_BYTES);
  });

  it('settles concurrent captures of one path in one turn on the first row written', async () => {
    const store = new CheckpointStore(await openDb());
    // Both start before either ends; the second one's read finishes only after the first capture did.
    let firstDone!: () => void;
    const first = new Promise<void>((r) => (firstDone = r));
    const slow = async (): Promise<Uint8Array> => {
      await first;
      return bytes('changed by the first call');
    };
    await Promise.all([store.capture('t', 'a', '/w/f', reads(bytes('original'))).finally(firstDone), store.capture('t', 'b', '/w/f', slow)]);
    const list = await store.list();
    assert.equal(list.length, 1);
    assert.deepEqual(list[0]!.files, ['/w/f']);
    assert.deepEqual(await store.files(list[0]!.id), [{ path: '/w/f', existed: true, content: bytes('original') }]);
  });

  it('treats hostile turn keys, labels and paths as plain data', async () => {
    const store = new CheckpointStore(await openDb());
    const turn = "x'); DROP TABLE checkpoints; --";
    const path = "/w/it's \"quoted\"/ünïcødé %_\\*.ts";
    await store.capture(turn, 'label\'"\n\u0000', path, reads(bytes('q')));
    await store.capture('%', 'l', path, reads(bytes('other turn')));
    const list = await store.list();
    assert.deepEqual(list.map((c) => [c.turn, c.files]), [['%', [path]], [turn, [path]]]);
    assert.equal(list[1]!.label, 'label\'"\n\u0000');
    assert.deepEqual(await store.files(list[1]!.id), [{ path, existed: true, content: bytes('q') }]);
  });

  it('propagates a failing read and a closed database to the caller, storing nothing', async () => {
    const db = await openDb();
    const store = new CheckpointStore(db);
    await assert.rejects(store.capture('t', 'l', '/w/f', () => Promise.reject(new Error('EACCES'))), /EACCES/);
    assert.deepEqual(await store.list(), []);
    await db.close();
    await assert.rejects(store.capture('t', 'l', '/w/f', reads(bytes('x'))), /closed/);
  });
});

describe('restoreCheckpoint', () => {
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  after(() => {
    removeTempDirs();
    removeStorageDirs();
  });

  it('writes originals back byte for byte, deletes created files, and leaves untouched ones alone', async () => {
    const crlf = Buffer.from('\ufeffline one\r\nline two\r\n', 'utf8');
    const binary = Buffer.from([0, 255, 0x0d, 0x0a, 0x0d, 0, 0x80, 0xc3]);
    const ws = makeWorkspace({ 'crlf.txt': crlf, 'bin.dat': binary, 'same.txt': 'same', 'gone.txt': 'was here' });
    const wfs = new NodeWorkspaceFs();
    const store = new CheckpointStore(await openDb());
    for (const rel of ['crlf.txt', 'bin.dat', 'same.txt', 'gone.txt', 'new/created.ts', 'never-made.ts']) {
      const abs = ws.path(rel);
      await store.capture('t', 'l', abs, async () => (fs.existsSync(abs) ? fs.readFileSync(abs) : undefined));
    }
    fs.writeFileSync(ws.path('crlf.txt'), 'line one\nline 2\n');
    fs.writeFileSync(ws.path('bin.dat'), 'text now');
    fs.rmSync(ws.path('gone.txt'));
    fs.mkdirSync(ws.path('new'));
    fs.writeFileSync(ws.path('new/created.ts'), 'export {};\n');

    const report = await restoreCheckpoint(store, (await store.list())[0]!.id, wfs);
    assert.deepEqual(report, {
      restored: [ws.path('crlf.txt'), ws.path('bin.dat'), ws.path('gone.txt')],
      deleted: [ws.path('new/created.ts')],
      unchanged: [ws.path('same.txt'), ws.path('never-made.ts')],
      skipped: [],
    });
    assert.ok(ws.exists('crlf.txt') && Buffer.from(fs.readFileSync(ws.path('crlf.txt'))).equals(crlf));
    assert.ok(Buffer.from(fs.readFileSync(ws.path('bin.dat'))).equals(binary));
    assert.equal(ws.read('gone.txt'), 'was here');
    assert.equal(ws.exists('new/created.ts'), false);
    assert.equal(ws.exists('never-made.ts'), false);
  });

  it('does not delete a folder that now stands where the turn created a file, and restores the rest', async () => {
    const ws = makeWorkspace({ 'a.txt': 'original' });
    const store = new CheckpointStore(await openDb());
    await store.capture('t', 'l', ws.path('made'), reads(undefined));
    await store.capture('t', 'l', ws.path('a.txt'), reads(bytes('original')));
    fs.mkdirSync(ws.path('made'));
    fs.writeFileSync(ws.path('made/keep.txt'), 'precious');
    fs.writeFileSync(ws.path('a.txt'), 'changed');
    const report = await restoreCheckpoint(store, (await store.list())[0]!.id, new NodeWorkspaceFs());
    assert.deepEqual(report.skipped.map((s) => s.path), [ws.path('made')]);
    assert.match(report.skipped[0]!.reason, /directory/);
    assert.equal(ws.read('made/keep.txt'), 'precious');
    assert.deepEqual(report.restored, [ws.path('a.txt')]);
    assert.equal(ws.read('a.txt'), 'original');
  });
});
