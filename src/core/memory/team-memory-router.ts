// Memory and context files of a team's agents, when the team lives on a shared server: the agent
// level (userId '', what every person working with the team shares) goes to the team's store on
// the server; each person's own level stays in the workspace database. Agents of no team, and every
// agent while no server is set, use the workspace stores alone, unchanged.
//
// Reads that combine the levels combine the two stores as one store combines them: the person's
// document shadows the shared one at the same path (read, list, search). A search over both fuses
// the two result lists by reciprocal rank (rank-fusion.ts, as hybrid search fuses keywords and
// vectors), since the two stores' scores are not comparable.
//
// Chunk ids. Each store numbers its own chunks, so for a team's agent the ids it is shown are made
// distinct: a workspace chunk's id is 2n + 1 and a server chunk's 2n (memory_expand takes them back).
// Changes another editor makes on the server are not announced here (they are seen at the next read).
import type { ContextFileRow, ContextFiles } from './context-store';
import { Emitter, type Listener } from '../events';
import type { MemoryApi } from './memory-store';
import type {
  ListOptions, MemoryChange, MemoryChunkRecord, ReindexOptions, ReindexResult, SearchOptions, SearchResult, WriteResult,
} from './memory-store-types';
import { reciprocalRankFusion } from './rank-fusion';
import type { MemoryDocument, MemoryDocumentInfo, Scope, SearchHit } from './types';

/** A team's memory and context files on the shared server. */
export interface TeamMemory {
  memory: MemoryApi;
  context: ContextFiles;
}

/** The team memory of the team `agentId` leads or belongs to, when that team lives on a server; else undefined. */
export type TeamMemoryFor = (agentId: string) => Promise<TeamMemory | undefined>;

const shared = (scope: Scope): Scope => ({ agentId: scope.agentId, userId: '' });
const local = (id: number) => id * 2 + 1;
const remote = (id: number) => id * 2;
const byPath = (a: { path: string; userId: string }, b: { path: string; userId: string }) =>
  (a.path < b.path ? -1 : a.path > b.path ? 1 : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

export class TeamMemoryRouter implements MemoryApi {
  private readonly changes = new Emitter<MemoryChange>();
  private readonly seen = new Set<MemoryApi>();

  constructor(private readonly workspace: MemoryApi, private readonly teamFor: TeamMemoryFor) {
    workspace.onDidChange((c) => this.changes.fire(c));
  }

  private async team(scope: Scope): Promise<MemoryApi | undefined> {
    const t = await this.teamFor(scope.agentId);
    if (t && !this.seen.has(t.memory)) {
      this.seen.add(t.memory);
      // Its own writes and deletes, as the workspace store's are (another editor's are not heard).
      t.memory.onDidChange((c) => this.changes.fire(c));
    }
    return t?.memory;
  }

  /** The store that holds exactly the scope's level. */
  private async at(scope: Scope): Promise<MemoryApi> {
    return (scope.userId === '' ? await this.team(scope) : undefined) ?? this.workspace;
  }

  onDidChange(listener: Listener<MemoryChange>): { dispose(): void } {
    return this.changes.on(listener);
  }

  get embeddingsEnabled(): boolean {
    return this.workspace.embeddingsEnabled;
  }

  get lastEmbeddingError(): string | undefined {
    return this.workspace.lastEmbeddingError ?? [...this.seen].map((s) => s.lastEmbeddingError).find(Boolean);
  }

  async read(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    const team = await this.team(scope);
    if (!team) return this.workspace.read(scope, path);
    if (scope.userId === '') return team.read(scope, path);
    return (await this.workspace.readExact(scope, path)) ?? team.readExact(shared(scope), path);
  }

  async readExact(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    return (await this.at(scope)).readExact(scope, path);
  }

  async write(scope: Scope, path: string, content: string): Promise<WriteResult> {
    const [r] = await this.writeMany(scope, [{ path, content }]);
    return r!;
  }

  async writeMany(scope: Scope, docs: readonly { path: string; content: string }[]): Promise<WriteResult[]> {
    return (await this.at(scope)).writeMany(scope, docs);
  }

  async delete(scope: Scope, path: string): Promise<boolean> {
    return (await this.at(scope)).delete(scope, path);
  }

  async list(scope: Scope, opts: ListOptions = {}): Promise<MemoryDocumentInfo[]> {
    const team = await this.team(scope);
    const level = opts.level ?? 'all';
    if (!team) return this.workspace.list(scope, opts);
    if (scope.userId === '' || level === 'agent') return team.list(shared(scope), { ...opts, level: 'agent' });
    const mine = await this.workspace.list(scope, { ...opts, level: 'user' });
    if (level === 'user') return mine;
    const own = new Set(mine.map((d) => d.path));
    const theirs = (await team.list(shared(scope), { ...opts, level: 'agent' })).filter((d) => !own.has(d.path));
    return [...mine, ...theirs].sort(byPath);
  }

  async chunk(id: number, scope?: Scope): Promise<MemoryChunkRecord | undefined> {
    const team = scope ? await this.team(scope) : undefined;
    if (!team) return this.workspace.chunk(id, scope);
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const c = id % 2 === 1 ? await this.workspace.chunk((id - 1) / 2, scope) : await team.chunk(id / 2, scope && shared(scope));
    return c && { ...c, id };
  }

  async search(scope: Scope, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
    const team = await this.team(scope);
    if (!team) return this.workspace.search(scope, query, opts);
    const level = opts.scope ?? 'all';
    const renumber = (r: SearchResult, to: (id: number) => number): SearchResult => ({ ...r, hits: r.hits.map((h) => ({ ...h, id: to(h.id) })) });
    if (scope.userId === '' || level === 'agent') return renumber(await team.search(shared(scope), query, { ...opts, scope: 'agent' }), remote);
    const mineP = this.workspace.search(scope, query, { ...opts, scope: 'user' });
    if (level === 'user') return renumber(await mineP, local);
    const [mine, theirs, own] = await Promise.all([mineP, team.search(shared(scope), query, { ...opts, scope: 'agent' }), this.workspace.list(scope, { level: 'user' })]);
    const shadowed = new Set(own.map((d) => d.path));
    const hits = new Map<number, SearchHit>();
    for (const h of mine.hits) hits.set(local(h.id), { ...h, id: local(h.id) });
    for (const h of theirs.hits) if (!shadowed.has(h.path)) hits.set(remote(h.id), { ...h, id: remote(h.id) });
    const fused = reciprocalRankFusion([
      { source: 'workspace', hits: mine.hits.map((h) => ({ id: local(h.id), score: h.score })) },
      { source: 'team', hits: theirs.hits.filter((h) => !shadowed.has(h.path)).map((h) => ({ id: remote(h.id), score: h.score })) },
    ]).slice(0, opts.limit ?? 8);
    const note = [...new Set([mine.note, theirs.note].filter(Boolean))].join(' ');
    return {
      hits: fused.map((f) => hits.get(f.id)!),
      mode: mine.mode === 'hybrid' || theirs.mode === 'hybrid' ? 'hybrid' : 'bm25',
      terms: mine.terms,
      ...(note ? { note } : {}),
    };
  }

  ftsSettled(): Promise<void> {
    return this.workspace.ftsSettled();
  }

  async embeddingsSettled(): Promise<void> {
    await Promise.all([this.workspace, ...this.seen].map((s) => s.embeddingsSettled()));
  }

  /** The workspace's memory, and for an agent of a team on a server its shared level there too. */
  async reindex(target: Scope | 'all', opts: ReindexOptions = {}): Promise<ReindexResult> {
    const here = await this.workspace.reindex(target, opts);
    const team = target === 'all' ? undefined : await this.team(target);
    if (!team || here.cancelled) return here;
    const there = await team.reindex(shared(target as Scope), opts);
    return {
      documents: here.documents + there.documents, chunks: here.chunks + there.chunks, changedChunks: here.changedChunks + there.changedChunks,
      embedded: here.embedded + there.embedded, cancelled: there.cancelled,
    };
  }
}

/** Context files: a team agent's agent-level files on the server, every person's own in the workspace. */
export class TeamContextRouter implements ContextFiles {
  constructor(private readonly workspace: ContextFiles, private readonly teamFor: TeamMemoryFor) {}

  private async at(scope: Scope): Promise<ContextFiles> {
    return (scope.userId === '' ? (await this.teamFor(scope.agentId))?.context : undefined) ?? this.workspace;
  }

  async get(scope: Scope, name: string): Promise<ContextFileRow | undefined> {
    return (await this.at(scope)).get(scope, name);
  }

  async put(scope: Scope, name: string, content: string): Promise<ContextFileRow> {
    return (await this.at(scope)).put(scope, name, content);
  }

  async delete(scope: Scope, name: string): Promise<boolean> {
    return (await this.at(scope)).delete(scope, name);
  }

  async list(scope: Scope): Promise<ContextFileRow[]> {
    return (await this.at(scope)).list(scope);
  }
}
