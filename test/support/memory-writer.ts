// Child process for the memory durability test: writes memory documents forever (each with a word
// of its own, plus rewrites of one shared document) and prints "ack <n>" once a write is
// acknowledged; the parent SIGKILLs it at a random moment and checks what survived.
import { MEMORY_MIGRATIONS } from '../../src/core/memory/memory-schema';
import { MemoryStore } from '../../src/core/memory/memory-store';
import { Database } from '../../src/core/storage/database';
import { memoryDoc } from './memory-docs';
import { STORAGE_WORKER } from './storage-fixtures';

interface ChildConfig {
  dir: string;
  start: number;
  snapshotThresholdBytes?: number;
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2]) as ChildConfig;
  const db = await Database.open({
    dir: cfg.dir, workerPath: STORAGE_WORKER, migrations: MEMORY_MIGRATIONS, snapshotThresholdBytes: cfg.snapshotThresholdBytes,
    onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
  });
  const store = new MemoryStore(db);
  const scope = { agentId: 'durable', userId: '' };
  process.stdout.write('ready\n');
  for (let n = cfg.start; ; n++) {
    const doc = memoryDoc(n);
    await store.write(scope, doc.path, doc.content);
    // The shared document changes every time: chunks are removed and added in the same write.
    await store.write(scope, 'MEMORY.md', `# Shared\n\n## Latest\n\nlatest note ${n}\n\n## Stable\n\nthis part never changes\n`);
    process.stdout.write(`ack ${n}\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`child failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
