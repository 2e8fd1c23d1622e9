// How the children of one window hang together: each child's tree ends at a top-level session (a
// person's chat), whose budget all of its children, grandchildren and so on share.
import type { SubagentRecord } from './types';

type BySession = ReadonlyMap<string, SubagentRecord>;

function topOf(bySession: BySession, parentSessionKey: string): string {
  let key = parentSessionKey;
  // Bounded: a stored cycle (a damaged database) must not hang the window.
  for (let guard = 0; guard < 64; guard++) {
    const parent = bySession.get(key);
    if (!parent) return key;
    key = parent.parentSessionKey;
  }
  return key;
}

const index = (records: readonly SubagentRecord[]): BySession => new Map(records.map((r) => [r.sessionKey, r]));

/** The top-level session a child's tree hangs from (a session that is no child's is its own top). */
export function rootOf(records: readonly SubagentRecord[], parentSessionKey: string): string {
  return topOf(index(records), parentSessionKey);
}

/**
 * Tokens (input + output) spent by every child under the top-level session `root`. Linear in the
 * records: it runs on every usage report of every child, and a long-lived window keeps hundreds.
 */
export function treeTokens(records: readonly SubagentRecord[], root: string): number {
  const bySession = index(records);
  let sum = 0;
  for (const r of records) if (topOf(bySession, r.parentSessionKey) === root) sum += r.usage.input + r.usage.output;
  return sum;
}
