// The memory tools: memory_search (find), memory_expand (read one hit whole), memory_get (read a
// document or a line range). All read-only; the scope is the calling agent and the current user,
// so a model only ever sees its own agent's memory, the user's documents shadowing the global ones.
import type { Tool, ToolContext } from '../tools/types';
import type { MemoryApi } from './memory-store';
import { createMemoryExpandTool } from './tools/memory-expand';
import { createMemoryGetTool } from './tools/memory-get';
import { createMemorySearchTool } from './tools/memory-search';
import { MemoryError, type Scope } from './types';

export interface MemoryToolDeps {
  /** The store, or a function giving it (opened on first use); undefined = memory unavailable. */
  store: MemoryApi | (() => MemoryApi | undefined | Promise<MemoryApi | undefined>);
  /** The person using the agent ('' = the agent level only). */
  userId: () => string;
}

/** What each tool needs: the store for this call and the caller's scope. */
export interface MemoryToolEnv {
  store(): Promise<MemoryApi>;
  scope(ctx: ToolContext): Scope;
}

function memoryToolEnv(deps: MemoryToolDeps): MemoryToolEnv {
  return {
    async store() {
      const s = typeof deps.store === 'function' ? await deps.store() : deps.store;
      if (!s) throw new MemoryError('Memory is not available in this window: the workspace database could not be opened (is a folder open?).', 'unavailable');
      return s;
    },
    scope: (ctx) => ({ agentId: ctx.agentId, userId: deps.userId() }),
  };
}

export function createMemoryTools(deps: MemoryToolDeps): Tool[] {
  const env = memoryToolEnv(deps);
  return [createMemorySearchTool(env), createMemoryGetTool(env), createMemoryExpandTool(env)];
}

/** Which level a document or chunk came from, in words for the model. */
export function levelLabel(userId: string, scope: Scope): string {
  if (userId === '') return scope.userId ? 'agent level, shared by every user' : 'agent level';
  return `${userId === scope.userId ? 'your own' : userId}`;
}
