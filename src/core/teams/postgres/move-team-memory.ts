// The team's memory in Move Team to Server… and Move Team Back to This Workspace: the agent-level
// memory documents and context files of the team's agents (lead and members), the part a team
// shares. Each person's own level stays where it is. While a team is on the server its memory there
// is the team's memory (every agent-level write went there), so wherever both sides hold a
// document or file at the same place with different content, the server's wins: moving to the
// server keeps the server's (and names it), moving back writes the server's here. Both are
// idempotent: what is already the same is counted and not written again. Verified by counts and a
// checksum of what the other side holds afterwards. Vectors are not copied: the server's are
// computed by its next reindex, the workspace's by its own.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { ContextStore } from '../../memory/context-store';
import { MemoryStore } from '../../memory/memory-store';
import { prepareDocument } from '../../memory/memory-store-prepare';
import type { Database } from '../../storage/database';
import { writeDocument } from './pg-memory-write';

export interface MemoryRows {
  documents: { agent_id: string; path: string; content: string; updated_at: number }[];
  contextFiles: { agent_id: string; name: string; content: string; updated_at: number }[];
}

export interface MemoryMoveOutcome {
  documents: number;
  contextFiles: number;
  /** Written by this move. */
  written: number;
  /** Already the same on the other side. */
  same: number;
  /** agent:path of what the server held differently and kept (moving to the server only). */
  kept: string[];
  checksum: string;
}

/** sha256 of the documents and files, by agent and path or name (what both sides must agree on). */
export function memoryChecksum(m: MemoryRows): string {
  const docs = m.documents.map((d) => [d.agent_id, d.path, d.content]).sort((a, b) => (`${a[0]}\0${a[1]}` < `${b[0]}\0${b[1]}` ? -1 : 1));
  const files = m.contextFiles.map((f) => [f.agent_id, f.name, f.content]).sort((a, b) => (`${a[0]}\0${a[1]}` < `${b[0]}\0${b[1]}` ? -1 : 1));
  return createHash('sha256').update(JSON.stringify({ docs, files })).digest('hex');
}

export async function readWorkspaceMemory(db: Database, agents: readonly string[]): Promise<MemoryRows> {
  const ids = JSON.stringify(agents);
  const [documents, contextFiles] = await Promise.all([
    db.query<MemoryRows['documents'][number]>("SELECT agent_id, path, content, updated_at FROM memory_documents WHERE user_id = '' AND agent_id IN (SELECT value FROM json_each(?))", [ids]),
    db.query<MemoryRows['contextFiles'][number]>('SELECT agent_id, name, content, updated_at FROM agent_context_files WHERE agent_id IN (SELECT value FROM json_each(?))', [ids]),
  ]);
  return { documents, contextFiles };
}

export async function readServerMemory(c: PoolClient, teamId: string, agents: readonly string[]): Promise<MemoryRows> {
  const documents = (await c.query<MemoryRows['documents'][number]>(
    "SELECT agent_id, path, content, updated_at FROM memory_documents WHERE team_id = $1 AND user_id = '' AND agent_id = ANY($2)", [teamId, agents])).rows;
  const contextFiles = (await c.query<MemoryRows['contextFiles'][number]>(
    'SELECT agent_id, name, content, updated_at FROM agent_context_files WHERE team_id = $1 AND agent_id = ANY($2)', [teamId, agents])).rows;
  return { documents, contextFiles };
}

const key = (agent: string, place: string) => `${agent}:${place}`;
const index = (m: MemoryRows) => ({
  docs: new Map(m.documents.map((d) => [key(d.agent_id, d.path), d])),
  files: new Map(m.contextFiles.map((f) => [key(f.agent_id, f.name), f])),
});

/** What the other side should hold afterwards for these rows (their keys), for the checksum. */
function subset(m: MemoryRows, of: MemoryRows): MemoryRows {
  const want = index(of);
  return { documents: m.documents.filter((d) => want.docs.has(key(d.agent_id, d.path))), contextFiles: m.contextFiles.filter((f) => want.files.has(key(f.agent_id, f.name))) };
}

function check(teamId: string, expected: MemoryRows, got: MemoryRows, where: string): string {
  const sum = memoryChecksum(expected);
  if (got.documents.length !== expected.documents.length || got.contextFiles.length !== expected.contextFiles.length || memoryChecksum(got) !== sum) {
    throw new Error(`Moving team ${teamId}: the memory ${where} does not match (${got.documents.length} documents and ${got.contextFiles.length} context files for ${expected.documents.length} and ${expected.contextFiles.length}); nothing was copied.`);
  }
  return sum;
}

/**
 * Writes the rows the server lacks; counts those it holds alike; names (and leaves) those it holds
 * differently. Returns the rows the server holds as the workspace does afterwards.
 */
async function copyAbsent<R extends { agent_id: string; content: string }>(
  rows: R[], there: Map<string, R>, place: (r: R) => string, out: MemoryMoveOutcome, write: (r: R) => Promise<unknown>,
): Promise<R[]> {
  const moved: R[] = [];
  for (const r of rows) {
    const on = there.get(key(r.agent_id, place(r)));
    if (on && on.content !== r.content) {
      out.kept.push(key(r.agent_id, place(r)));
      continue;
    }
    moved.push(r);
    if (on) out.same++;
    else {
      await write(r);
      out.written++;
    }
  }
  return moved;
}

/** Copies the agents' shared memory from the workspace into the server's transaction `c` (see the top of this file). */
export async function copyMemoryToServer(c: PoolClient, source: Database, teamId: string, agents: readonly string[]): Promise<MemoryMoveOutcome> {
  const here = await readWorkspaceMemory(source, agents);
  const there = index(await readServerMemory(c, teamId, agents));
  const out: MemoryMoveOutcome = { documents: here.documents.length, contextFiles: here.contextFiles.length, written: 0, same: 0, kept: [], checksum: '' };
  const moved: MemoryRows = {
    documents: await copyAbsent(here.documents, there.docs, (d) => d.path, out,
      (d) => writeDocument(c, teamId, { agentId: d.agent_id, userId: '' }, prepareDocument(d.path, d.content), Number(d.updated_at))),
    contextFiles: await copyAbsent(here.contextFiles, there.files, (f) => f.name, out,
      (f) => c.query('INSERT INTO agent_context_files(team_id, agent_id, name, content, updated_at) VALUES ($1, $2, $3, $4, $5)', [teamId, f.agent_id, f.name, f.content, Number(f.updated_at)])),
  };
  out.checksum = check(teamId, moved, subset(await readServerMemory(c, teamId, agents), moved), 'on the server');
  return out;
}

/** Writes the server's shared memory of the agents (read in transaction `c`) into the workspace (see the top of this file). */
export async function copyMemoryToWorkspace(c: PoolClient, target: Database, teamId: string, agents: readonly string[]): Promise<MemoryMoveOutcome> {
  const server = await readServerMemory(c, teamId, agents);
  const here = index(await readWorkspaceMemory(target, agents));
  const out: MemoryMoveOutcome = { documents: server.documents.length, contextFiles: server.contextFiles.length, written: 0, same: 0, kept: [], checksum: '' };
  const memory = new MemoryStore(target);
  const files = new ContextStore(target);
  for (const d of server.documents) {
    if (here.docs.get(key(d.agent_id, d.path))?.content === d.content) out.same++;
    else {
      await memory.write({ agentId: d.agent_id, userId: '' }, d.path, d.content);
      out.written++;
    }
  }
  for (const f of server.contextFiles) {
    if (here.files.get(key(f.agent_id, f.name))?.content === f.content) out.same++;
    else {
      await files.put({ agentId: f.agent_id, userId: '' }, f.name, f.content);
      out.written++;
    }
  }
  out.checksum = check(teamId, server, subset(await readWorkspaceMemory(target, agents), server), 'in the workspace');
  return out;
}
