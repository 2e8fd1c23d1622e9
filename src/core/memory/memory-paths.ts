// Which paths are memory documents. The store keeps MEMORY.md, memory.md and anything under
// memory/ (relative to the virtual workspace root, forward slashes); markdown among them is chunked
// and indexed for search, other files are kept as they are.
import { MemoryError } from './types';

/** A document larger than this is refused: memory is notes, not a place for dumps. */
export const MAX_DOCUMENT_CHARS = 2 * 1024 * 1024;

const ROOT_FILES = new Set(['MEMORY.md', 'memory.md']);

/** Checks a memory path; returns it unchanged or throws MemoryError('invalid') saying what to use. */
export function checkMemoryPath(path: string): string {
  const bad = (why: string): never => {
    throw new MemoryError(`"${path.slice(0, 200)}" is not a memory path: ${why}. Memory documents are MEMORY.md, memory.md or files under memory/ (for example memory/notes/2026-11.md).`, 'invalid');
  };
  if (typeof path !== 'string' || path === '') bad('it is empty');
  if (path.length > 512) bad('it is longer than 512 characters');
  if (path.includes('\\')) bad('use forward slashes');
  if (path.startsWith('/')) bad('it must be relative to the workspace root, without a leading "/"');
  if (/[\u0000-\u001f\u007f]/.test(path)) bad('it contains control characters');
  const parts = path.split('/');
  if (parts.some((p) => p === '..')) bad('".." is not allowed');
  if (parts.some((p) => p === '.' || p === '')) bad('it has an empty or "." segment');
  if (ROOT_FILES.has(path)) return path;
  if (parts[0] !== 'memory' || parts.length < 2) bad('it is outside memory/');
  return path;
}

export function isMemoryPath(path: string): boolean {
  try {
    checkMemoryPath(path);
    return true;
  } catch {
    return false;
  }
}

/** Markdown documents are chunked and searchable; other files under memory/ are only stored. */
export function isIndexed(path: string): boolean {
  return /\.(?:md|markdown)$/i.test(path);
}

export function checkMemoryContent(path: string, content: string): void {
  if (typeof content !== 'string') throw new MemoryError(`The content of ${path} must be text.`, 'invalid');
  if (content.length > MAX_DOCUMENT_CHARS) {
    throw new MemoryError(`${path} is ${content.length.toLocaleString('en-US')} characters; a memory document may hold at most ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')}. Split it into several files under memory/.`, 'too-large');
  }
}
