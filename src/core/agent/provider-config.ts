// Settings of the chat's models: where the OpenAI-compatible and Anthropic endpoints are, and the
// agent loop's limits. API keys are never settings (SecretStorage, "Pincer: Set Model API Key…"); the
// base URLs are user-only (a repository must not send the person's key to its own server).
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';
import type { Pricing } from './agent-usage';

export interface ChatConfig {
  providers: {
    openai: { baseUrl: string };
    anthropic: { baseUrl: string };
  };
  /** Model calls per user turn before the loop stops and says so. */
  maxIterations: number;
  /** Input + output tokens one turn may spend; 0 = no budget. */
  maxTurnTokens: number;
  /** USD per million tokens by model id, for the cost shown per turn; a model without one shows none. */
  pricing: Record<string, Pricing>;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Built when a base URL is set (most windows set none). */
const url = () => z.url({ protocol: /^https?$/ });

export function readChatConfig(get: (key: string) => unknown, warn: (message: string) => void): ChatConfig {
  return {
    providers: {
      openai: { baseUrl: readSetting(get, 'providers.openai.baseUrl', url, DEFAULT_OPENAI_BASE_URL, warn).replace(/\/+$/, '') },
      anthropic: { baseUrl: readSetting(get, 'providers.anthropic.baseUrl', url, DEFAULT_ANTHROPIC_BASE_URL, warn).replace(/\/+$/, '') },
    },
    maxIterations: readSetting(get, 'chat.maxIterations', () => z.number().int().min(1).max(500), 20, warn),
    maxTurnTokens: readSetting(get, 'chat.maxTurnTokens', () => z.number().int().min(0).max(100_000_000), 0, warn),
    pricing: readSetting(get, 'chat.pricing', () => z.record(z.string().min(1), z.object({
      inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0), cachedPerMTok: z.number().min(0).optional(),
    }).strict()), {}, warn),
  };
}
