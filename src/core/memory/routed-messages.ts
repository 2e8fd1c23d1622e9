// What the model (or person) is told about Pincer's routed files: where a file lives, why a write
// is refused and what to do instead. Kept apart from the routing logic so the wording is in one place.
import type { AgentDefinition } from '../agents/types';
import { formatBytes } from '../fs/read-budget';
import type { Route } from './routed-paths';

/** The command a person uses to change shared context files. */
export const OPEN_CONTEXT_COMMAND = 'Pincer: Open Context File…';

export type Level = 'user' | 'agent' | 'definition';

export function agentLabel(agent: AgentDefinition): string {
  return `${agent.type} agent "${agent.id}"`;
}

/** "(your copy)", "(the agent's shared copy)", … for the level a file was found or written at. */
export function levelPhrase(level: Level, kind: Route['kind']): string {
  if (kind === 'memory') return level === 'user' ? 'your notes for this user' : 'the agent\'s shared memory, used for every user';
  if (level === 'user') return 'your copy for this user';
  if (level === 'agent') return 'the agent\'s shared copy';
  return 'the instructions in the agent\'s definition; no copy is stored yet';
}

/** The note the interceptors add to a result about a routed file. */
export function whereNote(route: Route, agent: AgentDefinition, level: Level | undefined): string {
  const store = route.kind === 'memory' ? 'Pincer\'s memory store' : 'Pincer\'s context-file store';
  const which = level ? ` (${levelPhrase(level, route.kind)})` : '';
  return `${route.path} is kept in ${store} for agent "${agent.id}"${which}, not on disk.`;
}

export function readOnlyShared(name: string, agent: AgentDefinition): string {
  return `${name} of agent "${agent.id}" is read-only for you: "${agent.id}" is a predefined agent, so its ${name} is shared by all of its users ` +
    `and only a person can change it, with the command "${OPEN_CONTEXT_COMMAND}". You can write USER.md (what you know about this user) ` +
    'or your memory (MEMORY.md, memory/*.md).';
}

export function readOnlyAgentLevel(route: Route, agent: AgentDefinition): string {
  const what = route.kind === 'memory' ? `the agent's shared memory (${route.path})` : `the agent-level ${route.path}`;
  return `You cannot change ${what} of agent "${agent.id}": it is shared by every user and only a person can change it, ` +
    `with the command "${OPEN_CONTEXT_COMMAND}". Writing ${route.path} without a level changes the copy for this user.`;
}

export function noUserLevel(name: string, agent: AgentDefinition): string {
  return `${name} of predefined agent "${agent.id}" has no per-user copy: it is shared by all users (only USER.md is per user). Change it at the agent level.`;
}

export function noUser(route: Route): string {
  return `${route.path} is kept per user, but no user is set: set pincer.user (or sign in to the OS with a user name) and try again.`;
}

export function memoryFolder(): string {
  return 'memory is a folder of memory documents, not a file: give a document path such as memory/notes.md.';
}

export function notRouted(path: string): string {
  return `${JSON.stringify(path)} is not one of Pincer's routed files (the context files at the workspace root, MEMORY.md, memory.md and memory/**); it lives on disk.`;
}

export function tooLarge(path: string, bytes: number, max: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${path} would be ${n(bytes)} bytes; a context file may be at most ${n(max)} bytes (${formatBytes(max)}) ` +
    '(it goes into every prompt). Keep the essentials here and move details to memory documents (memory/<topic>.md).';
}

export function missing(route: Route, agent: AgentDefinition, finished: boolean): string {
  if (route.kind === 'memory') {
    return `${route.path} does not exist in the memory of agent "${agent.id}" (neither this user's notes nor the agent's shared memory; memory is kept in Pincer's store, not on disk). ` +
      'Use list_files with path "memory" to see the documents, memory_search to search them, or write_file to create it.';
  }
  const name = route.path;
  if (finished) return `BOOTSTRAP.md is gone for this user: first-run setup was finished (an empty BOOTSTRAP.md deletes it). There is nothing to do for it.`;
  const shared = agent.type === 'predefined' && name !== 'USER.md';
  const how = shared
    ? `It is shared by all users of this predefined agent, so only a person can create it, with the command "${OPEN_CONTEXT_COMMAND}".`
    : `Create it with write_file (path "${name}"); it will be kept for this user.`;
  return `${name} does not exist yet for ${agentLabel(agent)} (context files are kept in Pincer's store, not on disk). ${how}`;
}

export function onDiskToo(route: Route, isDir: boolean): string {
  const what = isDir ? 'A folder named memory' : `A file named ${route.path}`;
  const fix = route.kind === 'context'
    ? `; to work on the disk file instead, remove "${route.path}" from the setting pincer.contextFiles.routed`
    : '; the file tools cannot reach it while memory is routed (open it in the editor)';
  return `${what} also exists on disk at the workspace root; it is not what you read or write here${fix}.`;
}
