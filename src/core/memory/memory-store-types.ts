// Shapes of MemoryStore's API beyond the shared ones in types.ts.
import type { EmbeddingProvider } from './embeddings';
import type { Level } from './memory-scope-sql';
import type { Chunk, MemoryDocument, SearchFilter, SearchHit } from './types';

export type { Level } from './memory-scope-sql';

export interface MemoryChange {
  agentId: string;
  /** '' = the agent's global memory. */
  userId: string;
  path: string;
  kind: 'write' | 'delete';
}

export interface MemoryStoreOptions {
  /** Epoch ms for updated_at (tests pass a clock). */
  now?: () => number;
  /** The current embeddings provider, asked at every use (settings may change); undefined = keyword search only. */
  embeddings?: () => EmbeddingProvider | undefined;
  onDidChange?: (change: MemoryChange) => void;
}

/** A chunk as stored: its id is what memory_expand takes. */
export interface StoredChunk extends Chunk {
  id: number;
}

export interface WriteResult {
  document: MemoryDocument;
  /** Every chunk of the document now, in order. */
  chunks: StoredChunk[];
  /** The chunks this write created (new or changed text); the rest kept their ids and vectors. */
  changedChunks: StoredChunk[];
}

export interface ListOptions {
  /** Only paths starting with this string ('memory/notes/'). */
  prefix?: string;
  /** all (default): both levels, the user's document shadowing the global one; user; agent. */
  level?: Level;
}

export interface SearchOptions extends SearchFilter {
  /** Default 8, at most 200. */
  limit?: number;
  /**
   * When all the words find fewer than `limit` chunks, also rank chunks holding only some of them
   * (after the ones holding all). Default true; false keeps the result to all-words matches.
   */
  fallback?: boolean;
  signal?: AbortSignal;
}

export interface SearchResult {
  hits: SearchHit[];
  mode: 'bm25' | 'hybrid';
  /** Said once per search, not per hit: why vectors were not used, or that terms were dropped. */
  note?: string;
  /** The words searched for (folded); [] when the query had none. */
  terms: string[];
}

/** One chunk with where it lives, as memory_expand shows it. */
export interface MemoryChunkRecord extends StoredChunk {
  agentId: string;
  userId: string;
  path: string;
}

export interface ReindexOptions {
  signal?: AbortSignal;
  /** Documents done so far and in all. */
  onProgress?: (done: number, total: number) => void;
}

export interface ReindexResult {
  documents: number;
  /** Chunks of the documents visited. */
  chunks: number;
  /** Chunks created because the chunking changed (0 when the index was up to date). */
  changedChunks: number;
  /** Chunks that got a vector. */
  embedded: number;
  /** The signal stopped it between documents; the counts say how far it got. */
  cancelled: boolean;
}
