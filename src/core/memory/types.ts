// Shapes shared by the memory store, the context-file store, the interceptors in front of the
// filesystem tools, and the pincer-memory: file system provider.

/** Whose files: an agent, and the person using it ('' = the agent's own, shared level). */
export interface Scope {
  agentId: string;
  /** The VS Code user (pincer.user, else the OS user name); '' means the agent level. */
  userId: string;
}

/** One memory document (MEMORY.md, memory.md or memory/**), as stored. */
export interface MemoryDocument {
  id: number;
  agentId: string;
  /** '' = the agent's global memory. */
  userId: string;
  /** Forward slashes, relative to the (virtual) workspace root: 'MEMORY.md', 'memory/notes/a.md'. */
  path: string;
  content: string;
  /** Epoch ms of the last write. */
  updatedAt: number;
}

export interface MemoryDocumentInfo {
  path: string;
  /** Which level it comes from after shadowing ('' = global). */
  userId: string;
  size: number;
  updatedAt: number;
  chunks: number;
}

/** A piece of a document as indexed: a heading path kept with its text. */
export interface Chunk {
  seq: number;
  /** 'Title > Section > Subsection' ('' before the first heading). */
  heading: string;
  text: string;
  /** 1-based, inclusive line range of the chunk in its document. */
  startLine: number;
  endLine: number;
}

export interface SearchFilter {
  /** Only documents whose path matches this glob (minimatch) or starts with this folder. */
  path?: string;
  /** user: only the person's own documents; agent: only the global ones; all (default): both, user shadowing global. */
  scope?: 'user' | 'agent' | 'all';
}

export interface SearchHit {
  /** Chunk id: what memory_expand takes. */
  id: number;
  path: string;
  userId: string;
  heading: string;
  startLine: number;
  endLine: number;
  /** A short excerpt around the best-matching terms. */
  abstract: string;
  /** Fused score, higher is better. */
  score: number;
  /** Why it matched: the matched terms, and the rank and raw score from each ranker. */
  why: { terms: string[]; bm25?: { rank: number; score: number }; vector?: { rank: number; similarity: number } };
}

/** Raised for a refusal the model (or person) can act on; the message says what to do. */
export class MemoryError extends Error {
  constructor(message: string, readonly code: 'not-found' | 'read-only' | 'invalid' | 'too-large' | 'unavailable') {
    super(message);
    this.name = 'MemoryError';
  }
}

/**
 * A MemoryError by shape, for code that may run in another bundle than the one that threw it (the
 * chat bundle reads context files through the runtime's stores: the class there is another copy).
 */
export function isMemoryError(e: unknown, code?: MemoryError['code']): e is MemoryError {
  return e instanceof Error && e.name === 'MemoryError' && (code === undefined || (e as MemoryError).code === code);
}
