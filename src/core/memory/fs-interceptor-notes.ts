// The lines the interceptors add to file-tool results about Pincer's routed files: what a write did
// and where it went, and the section list_files adds to the workspace root's listing.
import type { AgentDefinition } from '../agents/types';
import { formatBytes } from '../fs/read-budget';
import type { RoutedEntry } from './routed-files';
import { levelPhrase } from './routed-messages';
import type { Route } from './routed-paths';
import type { WriteOutcome } from './routed-fs-deps';

export function writeNote(route: Route, agent: AgentDefinition, outcome: WriteOutcome): string {
  const store = route.kind === 'memory' ? 'Pincer\'s memory store' : 'Pincer\'s context-file store';
  if (outcome.deleted && route.path === 'BOOTSTRAP.md') {
    return `BOOTSTRAP.md is deleted for this user (an empty BOOTSTRAP.md means first-run setup is done); it is kept in ${store} for agent "${agent.id}", not on disk.`;
  }
  if (outcome.deleted) return `${route.path} was deleted from ${store} for agent "${agent.id}" (${levelPhrase(outcome.level, route.kind)}); nothing on disk changed.`;
  const indexed = route.kind === 'memory'
    ? ` It was indexed for memory_search${outcome.chunks !== undefined ? ` (${outcome.chunks} chunk${outcome.chunks === 1 ? '' : 's'})` : ''}.`
    : '';
  return `${route.path} is saved in ${store} for agent "${agent.id}" (${levelPhrase(outcome.level, route.kind)}), not on disk.${indexed}`;
}

function entryLine(e: RoutedEntry, onDisk: ReadonlySet<string>): string {
  const where = levelPhrase(e.level, e.kind);
  if (e.directory) return `${e.path}/\t(memory documents; list_files with path "${e.path}" shows them)`;
  const shadow = onDisk.has(e.path) ? '; the disk file listed above is not the one the file tools use' : '';
  return `${e.path}\t${formatBytes(e.size)}\t(${where}${shadow})`;
}

/** The section list_files adds to the root listing. */
export function rootSection(entries: readonly RoutedEntry[], agent: AgentDefinition, onDisk: ReadonlySet<string>): string {
  const lines = entries.map((e) => entryLine(e, onDisk));
  return `[Also at the root, kept in Pincer's store for agent "${agent.id}" (not on disk; read and change them with the file tools as usual):\n${lines.join('\n')}]`;
}
