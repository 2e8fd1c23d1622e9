// Settings of memory and context files: who the user is, which root-level names are routed to
// Pincer's store, and the optional embeddings endpoint. The API key is never a setting: it lives in
// VS Code's SecretStorage (Pincer: Set Embeddings API Key…).
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';

export const ROUTED_CONTEXT_FILES = ['SOUL.md', 'IDENTITY.md', 'AGENTS.md', 'USER.md', 'USER_PREDEFINED.md', 'BOOTSTRAP.md', 'HEARTBEAT.md'] as const;

export interface EmbeddingsConfig {
  /** OpenAI-compatible base URL (`http://localhost:11434/v1` for Ollama); '' = keyword search only. */
  baseUrl: string;
  model: string;
  /** Ask the endpoint for vectors of this size (models that support it); undefined = the model's own. */
  dimensions?: number;
}

export interface MemoryConfig {
  /** pincer.user: the name memory and context files are kept under; '' = the OS user name. */
  user: string;
  /** pincer.contextFiles.routed: root-level context files kept in Pincer's store instead of on disk. */
  routedContextFiles: string[];
  embeddings: EmbeddingsConfig;
}

/** Built when pincer.user is set. */
const userName = () => z.string().max(128).regex(/^[^\u0000-\u001f/\\]*$/, 'no control characters or slashes');

export function readMemoryConfig(get: (key: string) => unknown, warn: (message: string) => void): MemoryConfig {
  const routed = readSetting(get, 'contextFiles.routed', () => z.array(z.enum(ROUTED_CONTEXT_FILES)), [...ROUTED_CONTEXT_FILES], warn);
  const baseUrl = readSetting(get, 'memory.embeddings.baseUrl', () => z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), '', warn);
  const model = readSetting(get, 'memory.embeddings.model', () => z.string().max(200), '', warn);
  const dimensions = readSetting<number | undefined>(get, 'memory.embeddings.dimensions', () => z.number().int().min(1).max(8192), undefined, warn);
  if (baseUrl && !model) warn('Setting pincer.memory.embeddings.baseUrl is set but pincer.memory.embeddings.model is empty; memory search stays keyword-only until both are set.');
  return {
    user: readSetting(get, 'user', userName, '', warn).trim(),
    routedContextFiles: [...new Set(routed)],
    embeddings: { baseUrl: model ? baseUrl : '', model: baseUrl ? model : '', ...(dimensions ? { dimensions } : {}) },
  };
}
