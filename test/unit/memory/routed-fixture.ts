// A real routing service for the tests: a workspace database in a temp dir with the memory and
// context tables, the real MemoryStore and ContextStore, and an agent registry holding an open agent
// ("coder") and a predefined one ("support"), both with instructions.
import { AgentRegistry } from '../../../src/core/agents/agent-registry';
import { CONTEXT_MIGRATIONS } from '../../../src/core/memory/context-schema';
import { ContextStore } from '../../../src/core/memory/context-store';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { RoutedFiles } from '../../../src/core/memory/routed-files';
import { REVISION_MIGRATIONS, RevisionStore } from '../../../src/core/memory/revision-store';
import type { Scope } from '../../../src/core/memory/types';
import { Database } from '../../../src/core/storage/database';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

export interface Routed {
  db: Database;
  routed: RoutedFiles;
  context: ContextStore;
  memory: MemoryStore;
  agents: AgentRegistry;
  revisions: RevisionStore;
  /** Row counts of the two context tables and the memory documents. */
  counts(): Promise<{ agent: number; user: number; memory: number }>;
}

const open: Database[] = [];

export const alice = (agentId: string): Scope => ({ agentId, userId: 'alice' });
export const bob = (agentId: string): Scope => ({ agentId, userId: 'bob' });
export const shared = (agentId: string): Scope => ({ agentId, userId: '' });

export async function openRouted(routedNames?: () => readonly string[]): Promise<Routed> {
  const db = await Database.open({ dir: tempDir('routed'), workerPath: STORAGE_WORKER, migrations: [...MEMORY_MIGRATIONS, ...CONTEXT_MIGRATIONS, ...REVISION_MIGRATIONS] });
  open.push(db);
  let t = 1_000;
  const clock = { now: () => t++ };
  const context = new ContextStore(db, clock);
  const memory = new MemoryStore(db, { now: clock.now });
  const agents = new AgentRegistry();
  agents.setSettings({
    coder: { type: 'open', name: 'Coder', instructions: 'Coder soul from the definition.' },
    support: { type: 'predefined', name: 'Support', instructions: 'Support soul from the definition.' },
  });
  const revisions = new RevisionStore(db, clock.now);
  const routed = new RoutedFiles({ context, memory, agents, revisions, ...(routedNames ? { routedNames } : {}) });
  const count = async (sql: string) => Number((await db.query<{ n: number }>(sql))[0]!.n);
  return {
    db, routed, context, memory, agents, revisions,
    counts: async () => ({
      agent: await count('SELECT count(*) AS n FROM agent_context_files'),
      user: await count('SELECT count(*) AS n FROM user_context_files'),
      memory: await count('SELECT count(*) AS n FROM memory_documents'),
    }),
  };
}

/** For an afterEach hook. */
export async function closeRouted(): Promise<void> {
  for (const db of open.splice(0)) await db.close();
}
