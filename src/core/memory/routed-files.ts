// The one routing service for Pincer's own files in the workspace namespace: the context files
// (SOUL.md, USER.md, …) go to the context store, MEMORY.md / memory.md / memory/** to the memory
// store, each scoped by agent and user. The interceptors in front of the file tools and the
// pincer-memory: file system provider both go through it, so both see and enforce the same rules.
//
// Levels. 'effective' is what an agent sees for a user; 'agent' is the shared agent-level file.
// - Open agents: every context file is per user; missing at the user level, the agent-level file is
//   the template; missing there too, SOUL.md falls back to the agent definition's instructions.
// - Predefined agents: USER.md is per user (agent-level file as template); every other file is
//   agent-level only (then the definition, for SOUL.md). USER_PREDEFINED.md is one of those: the
//   spec lists it among the routed names without saying more; GoClaw seeds it at the agent level as
//   "baseline user-handling rules shared across all users", so it is shared and fixed here too. For
//   open agents it is per user like every other file.
// - Memory: per user first, then the agent's global memory (the memory store decides shadowing).
// Writes. A model writes at the user level only: open agents' files, a predefined agent's USER.md,
// memory. Shared files are read-only to the model (a person changes them: "Pincer: Open Context
// File…"). A person may write either level, except a per-user copy of a predefined shared file,
// which nothing would ever read.
// BOOTSTRAP.md. Writing it empty (or deleting it) ends first-run setup. At the user level, if an
// agent-level BOOTSTRAP.md exists, deleting the user's copy would bring the template back and
// repeat setup forever; so the user keeps an empty row that reads as "no BOOTSTRAP.md".
import type { AgentDefinition } from '../agents/types';
import { Emitter } from '../events';
import type { ContextFileRow, ContextFiles } from './context-store';
import * as msg from './routed-messages';
import { MEMORY_DIR, MEMORY_ROOT_FILES, effectiveRoutedNames, normaliseRelative, routeOf, type Route, type RoutedKind } from './routed-paths';
import { MemoryError, type MemoryDocument, type MemoryDocumentInfo, type Scope } from './types';

export { CONTEXT_FILE_NAMES, MEMORY_DIR, MEMORY_ROOT_FILES, routeOf, type RoutedKind } from './routed-paths';

/**
 * Largest context file, in UTF-8 bytes: context files go into every prompt, so keep them small.
 * Memory documents are capped by the memory store itself (memory-paths.ts), the one place for it.
 */
export const MAX_ROUTED_FILE_BYTES = 256 * 1024;

export interface ChangeEvent {
  agentId: string;
  /** '' for the agent level. */
  userId: string;
  path: string;
}

/** The part of the memory store (memory-store.ts, MemoryStore) routing uses. */
export interface MemoryDocuments {
  /** Per-user document, else the agent's global one (userId '' = global only). */
  read(scope: Scope, path: string): Promise<MemoryDocument | undefined>;
  /** The document at exactly the scope's level (no fallback); revisions need it. */
  readExact?(scope: Scope, path: string): Promise<MemoryDocument | undefined>;
  /** Writes at exactly the scope's level and indexes the document before resolving. */
  write(scope: Scope, path: string, content: string): Promise<{ chunks?: unknown }>;
  delete(scope: Scope, path: string): Promise<boolean>;
  list(scope: Scope, opts?: { prefix?: string; level?: 'all' | 'user' | 'agent' }): Promise<MemoryDocumentInfo[]>;
  /** Subscribes to the store's own change events (memory tools write too). */
  onDidChange?(listener: (e: ChangeEvent) => void): { dispose(): void };
}

export interface RoutedRead {
  content: string;
  level: 'user' | 'agent' | 'definition';
  updatedAt?: number;
}

export interface RoutedEntry {
  path: string;
  kind: RoutedKind;
  level: 'user' | 'agent' | 'definition';
  /** UTF-8 bytes (0 for a directory). */
  size: number;
  updatedAt?: number;
  directory?: boolean;
}

export interface RoutedFilesDeps {
  context: ContextFiles;
  memory: MemoryDocuments;
  agents: { resolve(id: string): AgentDefinition };
  /** pincer.contextFiles.routed (default: all seven). */
  routedNames?: () => readonly string[];
  /** Keeps what a write or delete replaces (revision-store.ts); without it nothing is kept. */
  revisions?: { keep(scope: Scope, path: string, content: string, actor: 'model' | 'person', change: 'write' | 'delete'): Promise<void> };
}

type Actor = 'model' | 'person';
type Level = 'user' | 'agent';
type Plan = { ok: true; route: Route; level: Level; agent: AgentDefinition } | { ok: false; reason: string; code: 'read-only' | 'invalid' };

const BOOTSTRAP = 'BOOTSTRAP.md';

/** Whether `name` has per-user copies for this agent. */
function perUser(agent: AgentDefinition, name: string): boolean {
  return agent.type === 'open' || name === 'USER.md';
}

/** A user's empty BOOTSTRAP.md: setup finished, the file reads as absent. */
function finished(name: string, row: ContextFileRow | undefined): boolean {
  return name === BOOTSTRAP && row !== undefined && row.userId !== '' && row.content === '';
}

/** The effective context file from the rows of both levels (the one place the fallback order lives). */
function pick(agent: AgentDefinition, name: string, userRow: ContextFileRow | undefined, agentRow: ContextFileRow | undefined): RoutedRead | undefined {
  if (userRow && perUser(agent, name)) {
    return finished(name, userRow) ? undefined : { content: userRow.content, level: 'user', updatedAt: userRow.updatedAt };
  }
  if (agentRow) return { content: agentRow.content, level: 'agent', updatedAt: agentRow.updatedAt };
  if (name === 'SOUL.md' && agent.instructions) return { content: agent.instructions, level: 'definition' };
  return undefined;
}

function chunkCount(chunks: unknown): number | undefined {
  if (Array.isArray(chunks)) return chunks.length;
  return typeof chunks === 'number' ? chunks : undefined;
}

export class RoutedFiles {
  readonly onDidChange = new Emitter<ChangeEvent>();
  private readonly relaysMemory: boolean;

  constructor(private readonly deps: RoutedFilesDeps) {
    // The memory store announces its own changes (writes from memory tools too); relay them.
    this.relaysMemory = typeof deps.memory.onDidChange === 'function';
    deps.memory.onDidChange?.((e) => this.onDidChange.fire({ agentId: e.agentId, userId: e.userId, path: e.path }));
  }

  async read(who: Scope, path: string, opts: { level?: 'effective' | 'agent' } = {}): Promise<RoutedRead | undefined> {
    const route = this.route(path);
    const agentOnly = opts.level === 'agent' || !who.userId;
    if (route.kind === 'memory') {
      if (route.path === MEMORY_DIR) return undefined;
      const doc = await this.deps.memory.read(agentOnly ? { agentId: who.agentId, userId: '' } : who, route.path);
      return doc ? { content: doc.content, level: doc.userId ? 'user' : 'agent', updatedAt: doc.updatedAt } : undefined;
    }
    const agent = this.deps.agents.resolve(who.agentId);
    const name = route.path;
    const userRow = agentOnly || !perUser(agent, name) ? undefined : await this.deps.context.get(who, name);
    const agentRow = userRow && perUser(agent, name) ? undefined : await this.deps.context.get({ agentId: who.agentId, userId: '' }, name);
    return pick(agent, name, userRow, agentRow);
  }

  async write(who: Scope, path: string, content: string, opts: { actor: Actor; level?: Level }): Promise<{ deleted?: boolean; chunks?: number; level: Level }> {
    const plan = this.expect(this.plan(who, path, opts.actor, opts.level));
    const scope = this.scopeOf(who, plan.level);
    if (plan.route.kind === 'memory') {
      await this.keepPrevious(scope, plan.route, opts.actor, 'write', content);
      const r = await this.deps.memory.write(scope, plan.route.path, content);
      if (!this.relaysMemory) this.fire(scope, plan.route.path);
      const chunks = chunkCount(r.chunks);
      return chunks === undefined ? { level: plan.level } : { chunks, level: plan.level };
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_ROUTED_FILE_BYTES) throw new MemoryError(msg.tooLarge(plan.route.path, bytes, MAX_ROUTED_FILE_BYTES), 'too-large');
    await this.keepPrevious(scope, plan.route, opts.actor, 'write', content);
    if (plan.route.path === BOOTSTRAP && content === '') {
      await this.finishBootstrap(scope);
      return { deleted: true, level: plan.level };
    }
    await this.deps.context.put(scope, plan.route.path, content);
    this.fire(scope, plan.route.path);
    return { level: plan.level };
  }

  /** Removes the file at one level (the default as for writes); false when there was nothing to remove. */
  async delete(who: Scope, path: string, opts: { actor: Actor; level?: Level }): Promise<boolean> {
    const plan = this.expect(this.plan(who, path, opts.actor, opts.level));
    const scope = this.scopeOf(who, plan.level);
    await this.keepPrevious(scope, plan.route, opts.actor, 'delete');
    if (plan.route.kind === 'memory') {
      const removed = await this.deps.memory.delete(scope, plan.route.path);
      if (removed && !this.relaysMemory) this.fire(scope, plan.route.path);
      return removed;
    }
    if (plan.route.path === BOOTSTRAP && scope.userId) {
      const before = await this.deps.context.get(scope, BOOTSTRAP);
      if (finished(BOOTSTRAP, before)) return false;
      const shared = await this.deps.context.get({ agentId: who.agentId, userId: '' }, BOOTSTRAP);
      if (!before && !shared) return false;
      await this.finishBootstrap(scope);
      return true;
    }
    const removed = await this.deps.context.delete(scope, plan.route.path);
    if (removed) this.fire(scope, plan.route.path);
    return removed;
  }

  /**
   * '' lists the routed files at the root (context files that exist at the level, MEMORY.md and
   * memory.md, and a 'memory' directory when it holds documents); 'memory' or 'memory/x' lists
   * that folder's documents and sub-folders.
   */
  async list(who: Scope, dir: string, opts: { level?: 'effective' | 'agent' } = {}): Promise<RoutedEntry[]> {
    const agentOnly = opts.level === 'agent' || !who.userId;
    const norm = ['', '.', './'].includes(dir) ? '' : normaliseRelative(dir);
    if (norm === '') return this.listRoot(who, agentOnly);
    const route = norm === undefined ? undefined : routeOf(norm);
    if (!route || route.kind !== 'memory' || MEMORY_ROOT_FILES.includes(route.path)) {
      throw new MemoryError(`${JSON.stringify(dir)} is not a folder of Pincer's routed files: list "" (the workspace root) or "memory".`, 'invalid');
    }
    const docs = await this.memoryDocs(who, agentOnly, `${route.path}/`);
    return children(docs, `${route.path}/`);
  }

  /** The agent definition routing uses for `agentId` (for messages about where a file lives). */
  agent(agentId: string): AgentDefinition {
    return this.deps.agents.resolve(agentId);
  }

  writable(who: Scope, path: string, actor: Actor, level?: Level): { ok: true } | { ok: false; reason: string } {
    const plan = this.plan(who, path, actor, level);
    return plan.ok ? { ok: true } : { ok: false, reason: plan.reason };
  }

  /** Why `path` is not there and what to do, for a read of a routed file that found nothing. */
  missingMessage(who: Scope, path: string): string {
    const route = routeOf(path, this.deps.routedNames?.());
    if (!route) return msg.notRouted(path);
    return msg.missing(route, this.deps.agents.resolve(who.agentId), false);
  }

  /** missingMessage, knowing whether the user finished BOOTSTRAP.md (one more read). */
  async missingMessageFor(who: Scope, path: string): Promise<string> {
    const route = routeOf(path, this.deps.routedNames?.());
    if (route?.path === BOOTSTRAP && who.userId) {
      const row = await this.deps.context.get(who, BOOTSTRAP);
      if (finished(BOOTSTRAP, row)) return msg.missing(route, this.deps.agents.resolve(who.agentId), true);
    }
    return this.missingMessage(who, path);
  }

  private route(path: string): Route {
    const route = routeOf(path, this.deps.routedNames?.());
    if (!route) throw new MemoryError(msg.notRouted(path), 'invalid');
    return route;
  }

  /** Which level a write or delete goes to, or why it may not happen. */
  private plan(who: Scope, path: string, actor: Actor, level: Level | undefined): Plan {
    const route = routeOf(path, this.deps.routedNames?.());
    if (!route) return { ok: false, reason: msg.notRouted(path), code: 'invalid' };
    const agent = this.deps.agents.resolve(who.agentId);
    if (route.path === MEMORY_DIR) return { ok: false, reason: msg.memoryFolder(), code: 'invalid' };
    const userLevelAllowed = route.kind === 'memory' || perUser(agent, route.path);
    const target: Level = level ?? (actor === 'model' || (userLevelAllowed && who.userId) ? 'user' : 'agent');
    if (target === 'agent') {
      if (actor === 'model') {
        const shared = route.kind === 'context' && !perUser(agent, route.path);
        return { ok: false, reason: shared ? msg.readOnlyShared(route.path, agent) : msg.readOnlyAgentLevel(route, agent), code: 'read-only' };
      }
      return { ok: true, route, level: 'agent', agent };
    }
    if (!userLevelAllowed) {
      return actor === 'model'
        ? { ok: false, reason: msg.readOnlyShared(route.path, agent), code: 'read-only' }
        : { ok: false, reason: msg.noUserLevel(route.path, agent), code: 'invalid' };
    }
    if (!who.userId) return { ok: false, reason: msg.noUser(route), code: 'invalid' };
    return { ok: true, route, level: 'user', agent };
  }

  private expect(plan: Plan): Extract<Plan, { ok: true }> {
    if (!plan.ok) throw new MemoryError(plan.reason, plan.code);
    return plan;
  }

  private scopeOf(who: Scope, level: Level): Scope {
    return { agentId: who.agentId, userId: level === 'user' ? who.userId : '' };
  }

  private async finishBootstrap(scope: Scope): Promise<void> {
    const shared = scope.userId ? await this.deps.context.get({ agentId: scope.agentId, userId: '' }, BOOTSTRAP) : undefined;
    if (shared) await this.deps.context.put(scope, BOOTSTRAP, '');
    else await this.deps.context.delete(scope, BOOTSTRAP);
    this.fire(scope, BOOTSTRAP);
  }

  /** Keeps the content a write or delete at exactly `scope` is about to replace, unless unchanged. */
  private async keepPrevious(scope: Scope, route: Route, actor: Actor, change: 'write' | 'delete', next?: string): Promise<void> {
    const keeper = this.deps.revisions;
    if (!keeper) return;
    const current = route.kind === 'memory'
      ? (await this.deps.memory.readExact?.(scope, route.path))?.content
      : (await this.deps.context.get(scope, route.path))?.content;
    if (current === undefined || current === next || (current === '' && route.path === BOOTSTRAP)) return;
    await keeper.keep(scope, route.path, current, actor, change);
  }

  private fire(scope: Scope, path: string): void {
    this.onDidChange.fire({ agentId: scope.agentId, userId: scope.userId, path });
  }

  private memoryDocs(who: Scope, agentOnly: boolean, prefix?: string): Promise<MemoryDocumentInfo[]> {
    const scope = agentOnly ? { agentId: who.agentId, userId: '' } : who;
    return this.deps.memory.list(scope, { ...(prefix ? { prefix } : {}), level: agentOnly ? 'agent' : 'all' });
  }

  private async listRoot(who: Scope, agentOnly: boolean): Promise<RoutedEntry[]> {
    const agent = this.deps.agents.resolve(who.agentId);
    const [userRows, agentRows, docs] = await Promise.all([
      agentOnly ? Promise.resolve([]) : this.deps.context.list(who),
      this.deps.context.list({ agentId: who.agentId, userId: '' }),
      this.memoryDocs(who, agentOnly),
    ]);
    const entries: RoutedEntry[] = [];
    for (const name of effectiveRoutedNames(this.deps.routedNames?.())) {
      const r = pick(agent, name, userRows.find((x) => x.name === name), agentRows.find((x) => x.name === name));
      if (r) entries.push({ path: name, kind: 'context', level: r.level, size: Buffer.byteLength(r.content, 'utf8'), ...(r.updatedAt !== undefined ? { updatedAt: r.updatedAt } : {}) });
    }
    return [...entries, ...children(docs.filter((d) => MEMORY_ROOT_FILES.includes(d.path) || d.path.startsWith(`${MEMORY_DIR}/`)), '')];
  }
}

/** The files and sub-folders directly inside `prefix` ('' = the root, else 'memory/…/'). */
function children(docs: readonly MemoryDocumentInfo[], prefix: string): RoutedEntry[] {
  const files: RoutedEntry[] = [];
  const dirs = new Map<string, RoutedEntry>();
  for (const d of docs) {
    if (!d.path.startsWith(prefix)) continue;
    const rest = d.path.slice(prefix.length);
    const level = d.userId ? 'user' : 'agent';
    const slash = rest.indexOf('/');
    if (slash < 0) {
      if (rest) files.push({ path: d.path, kind: 'memory', level, size: d.size, updatedAt: d.updatedAt });
      continue;
    }
    const dirPath = prefix + rest.slice(0, slash);
    const seen = dirs.get(dirPath);
    if (!seen) dirs.set(dirPath, { path: dirPath, kind: 'memory', level, size: 0, updatedAt: d.updatedAt, directory: true });
    else {
      if (level === 'user') seen.level = 'user';
      seen.updatedAt = Math.max(seen.updatedAt ?? 0, d.updatedAt);
    }
  }
  return [...[...dirs.values()].sort((a, b) => (a.path < b.path ? -1 : 1)), ...files.sort((a, b) => (a.path < b.path ? -1 : 1))];
}
