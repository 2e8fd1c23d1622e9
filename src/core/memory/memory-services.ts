// Memory and context files over one workspace database: the stores and the routing service in front
// of them. The extension and the CLI open them alike; only where embeddings come from differs.
import type { AgentRegistry } from '../agents/agent-registry';
import type { Database } from '../storage/database';
import { ContextStore, type ContextFiles } from './context-store';
import type { EmbeddingProvider } from './embeddings';
import { MemoryStore, type MemoryApi } from './memory-store';
import { RevisionStore } from './revision-store';
import { RoutedFiles } from './routed-files';
import { TeamContextRouter, TeamMemoryRouter, type TeamMemoryFor } from './team-memory-router';

export interface MemoryServices {
  memory: MemoryApi;
  context: ContextFiles;
  routed: RoutedFiles;
  revisions: RevisionStore;
}

export interface MemoryServicesOptions {
  agents: AgentRegistry;
  /** The configured embeddings endpoint; undefined = keyword-only search. */
  embeddings: () => EmbeddingProvider | undefined;
  /** pincer.contextFiles.routed. */
  routedNames: () => readonly string[];
  /** A team agent's shared (agent-level) memory and context files on the team store's server; without it, all stays here. */
  teamMemory?: TeamMemoryFor;
}

export function openMemoryServices(db: Database, opts: MemoryServicesOptions): MemoryServices {
  const here = new MemoryStore(db, { embeddings: opts.embeddings });
  const memory = opts.teamMemory ? new TeamMemoryRouter(here, opts.teamMemory) : here;
  const context = opts.teamMemory ? new TeamContextRouter(new ContextStore(db), opts.teamMemory) : new ContextStore(db);
  const revisions = new RevisionStore(db);
  const routed = new RoutedFiles({ context, memory, agents: opts.agents, revisions, routedNames: opts.routedNames });
  return { memory, context, routed, revisions };
}

export { memoryUserId } from './memory-user';
