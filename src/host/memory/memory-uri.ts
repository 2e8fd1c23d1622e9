// pincer-memory: URIs. `pincer-memory://<agent>/SOUL.md` is what that agent sees for the current
// user (the same routing as the file tools); `pincer-memory://<agent>/.agent/SOUL.md` is the agent's
// shared level, which only a person may change.
import * as vscode from 'vscode';
import { MEMORY_SCHEME } from '../ids';

export const AGENT_LEVEL_DIR = '.agent';

export interface MemoryLocation {
  agentId: string;
  level: 'effective' | 'agent';
  /** Workspace-relative path as the tools name it ('' for the root). */
  path: string;
}

export function parseMemoryUri(uri: vscode.Uri): MemoryLocation {
  if (uri.scheme !== MEMORY_SCHEME) throw vscode.FileSystemError.FileNotFound(uri);
  const agentId = uri.authority.toLowerCase();
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(agentId)) throw vscode.FileSystemError.FileNotFound(uri);
  const parts = uri.path.split('/').filter((p) => p.length > 0);
  if (parts.some((p) => p === '.' || p === '..')) throw vscode.FileSystemError.FileNotFound(uri);
  if (parts[0] === AGENT_LEVEL_DIR) return { agentId, level: 'agent', path: parts.slice(1).join('/') };
  return { agentId, level: 'effective', path: parts.join('/') };
}

export function memoryUri(agentId: string, path: string, level: 'effective' | 'agent' = 'effective'): vscode.Uri {
  const p = level === 'agent' ? `/${AGENT_LEVEL_DIR}/${path}` : `/${path}`;
  return vscode.Uri.from({ scheme: MEMORY_SCHEME, authority: agentId, path: p.replace(/\/+$/, '') || '/' });
}
