// How much read_file returns in one call. The OpenClaw rule: a page is 2,000 lines or 50 KB; without
// an explicit limit, read up to 8 pages within clamp(context tokens × 4 chars × 0.2, 50 KB, 512 KB),
// so a model with a big window reads a whole file in one call and a small one is not flooded.

export const PAGE_BYTES = 50 * 1024;
export const PAGE_LINES = 2000;
export const MAX_PAGES = 8;
export const MAX_BUDGET_BYTES = 512 * 1024;
/** Room kept for the notice under the pipeline's result cap. */
const NOTICE_ROOM = 600;

export interface ReadBudget {
  maxBytes: number;
  maxLines: number;
  /** Pages the budget spans (1 when the context window is unknown). */
  pages: number;
}

/** A fifth of the context window (4 characters a token), clamped to [50 KB, 512 KB] and to 8 pages. */
export function readBudget(contextTokens: number | undefined, limit: number | undefined, maxResultChars?: number): ReadBudget {
  let bytes = PAGE_BYTES;
  if (contextTokens !== undefined && Number.isFinite(contextTokens) && contextTokens > 0) {
    bytes = Math.min(MAX_BUDGET_BYTES, Math.max(PAGE_BYTES, Math.floor(contextTokens * 4 * 0.2)));
  }
  const pages = Math.min(MAX_PAGES, Math.ceil(bytes / PAGE_BYTES));
  bytes = Math.min(bytes, pages * PAGE_BYTES);
  // Past the pipeline's own cap the result would lose its middle instead of ending on a line boundary.
  if (maxResultChars !== undefined && maxResultChars > NOTICE_ROOM * 2) bytes = Math.min(bytes, maxResultChars - NOTICE_ROOM);
  return { maxBytes: bytes, maxLines: limit ?? pages * PAGE_LINES, pages };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v >= 100 || Number.isInteger(v) ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}
