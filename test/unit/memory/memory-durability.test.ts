import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { Database } from '../../../src/core/storage/database';
import { memoryDoc } from '../../support/memory-docs';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { assertFtsConsistent } from './memory-store-fixture';

const CHILD = path.join(__dirname, '..', '..', 'support', 'memory-writer.js');
const TRIALS = 8;
const SCOPE = { agentId: 'durable', userId: '' };

/**
 * Starts a writer, SIGKILLs it `delay` ms after it has acknowledged `minAcks` writes (an event, so a
 * slow machine still gets writes to check), returns the numbers it acknowledged.
 */
function killedWriter(dir: string, start: number, minAcks: number, delay: number): Promise<{ acked: number[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify({ dir, start, snapshotThresholdBytes: 64 * 1024 })]);
    const acked: number[] = [];
    let buf = '';
    let stderr = '';
    let ready = false;
    let killScheduled = false;
    const maybeKill = () => {
      if (!ready || killScheduled || acked.length < minAcks) return;
      killScheduled = true;
      setTimeout(() => child.kill('SIGKILL'), delay);
    };
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') ready = true;
        else if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      }
      maybeKill();
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by itself: ${stderr}`));
      else resolve({ acked, stderr });
    });
  });
}

describe('memory durability', () => {
  after(removeTempDirs);

  it(`every acknowledged memory write survives SIGKILL, searchable, with the index consistent (${TRIALS} trials)`, async function () {
    this.timeout(300_000);
    const dir = tempDir('memory-kill');
    const acked: number[] = [];
    let promised = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      // Deterministic spread of kill moments: early, mid-write and mid-snapshot all happen.
      const minAcks = trial % 3;
      const delay = (trial * 137) % 400;
      promised += minAcks;
      const t = await killedWriter(dir, trial * 100_000 + 1, minAcks, delay);
      assert.doesNotMatch(t.stderr, /child failed/, `trial ${trial}`);
      acked.push(...t.acked);

      const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: MEMORY_MIGRATIONS });
      try {
        const store = new MemoryStore(db);
        await assertFtsConsistent(db);
        for (const n of t.acked) {
          const doc = memoryDoc(n);
          assert.equal((await store.read(SCOPE, doc.path))?.content, doc.content, `trial ${trial}: note ${n} lost; storage warnings: ${db.warnings.join(' | ') || 'none'}`);
          const hits = (await store.search(SCOPE, doc.word)).hits;
          assert.deepEqual(hits.map((h) => [h.path, h.heading]), [[doc.path, `Note ${n} > Part 3`]], `trial ${trial}: note ${n} not searchable`);
        }
        // Whatever state the shared document was caught in, its chunks are exactly its content's.
        const shared = await store.read(SCOPE, 'MEMORY.md');
        if (shared) {
          const again = await store.write(SCOPE, 'MEMORY.md', shared.content);
          assert.deepEqual(again.changedChunks, [], `trial ${trial}: chunks of MEMORY.md do not match its content`);
          assert.equal((await store.search(SCOPE, 'latest note', { fallback: false })).hits.length, 1, 'one version of it is indexed');
        }
        const [{ ghosts }] = await db.query<{ ghosts: number }>(
          'SELECT count(*) AS ghosts FROM memory_chunks c LEFT JOIN memory_documents d ON d.id = c.doc_id WHERE d.id IS NULL');
        assert.equal(ghosts, 0);
      } finally {
        await db.close();
      }
    }
    assert.ok(acked.length >= promised, `the writers acknowledged ${acked.length} writes, fewer than the ${promised} each kill waited for`);
  });
});
