// The subagent limits as settings (pincer.subagents.*). Every limit is a hard stop the model hears
// about in words it can act on; none of them can be lifted by an agent definition or by the model.
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';

export type AskBeforeSpawn = 'never' | 'background' | 'always';

export interface SubagentConfig {
  /** Children running (or queued) at once in this window, over every parent. */
  maxConcurrent: number;
  /** Live children one parent session may have at once. */
  maxChildrenPerParent: number;
  /** Model requests per child turn. */
  maxIterations: number;
  /** Tokens (input + output) one child may spend; 0 = no budget. */
  maxTokensPerChild: number;
  /** Tokens all children under one top-level session may spend together; 0 = no budget. */
  maxTokensPerTree: number;
  /** Wall-clock limit of one child turn. */
  timeoutMs: number;
  /** A child with no model output and no tool result for this long is stalled and stopped. */
  stallMs: number;
  /** Finished children are hidden from `list` (kept in the database) after this long. */
  archiveMs: number;
  /** Retries of a model request after a transient provider error. */
  maxRetries: number;
  /** Whether a person confirms before a child starts: never, background (spawn) children, or always. */
  askBeforeSpawn: AskBeforeSpawn;
}

export const DEFAULT_SUBAGENT_CONFIG: SubagentConfig = Object.freeze({
  maxConcurrent: 8,
  maxChildrenPerParent: 5,
  maxIterations: 20,
  maxTokensPerChild: 200_000,
  maxTokensPerTree: 1_000_000,
  timeoutMs: 15 * 60_000,
  stallMs: 3 * 60_000,
  archiveMs: 60 * 60_000,
  maxRetries: 2,
  askBeforeSpawn: 'background',
});

export function readSubagentConfig(get: (key: string) => unknown, warn: (message: string) => void): SubagentConfig {
  const d = DEFAULT_SUBAGENT_CONFIG;
  const int = (key: string, min: number, max: number, fallback: number) =>
    readSetting(get, `subagents.${key}`, () => z.number().int().min(min).max(max), fallback, warn);
  return {
    maxConcurrent: int('maxConcurrent', 1, 64, d.maxConcurrent),
    maxChildrenPerParent: int('maxChildrenPerParent', 1, 64, d.maxChildrenPerParent),
    maxIterations: int('maxIterations', 1, 500, d.maxIterations),
    maxTokensPerChild: int('maxTokensPerChild', 0, 100_000_000, d.maxTokensPerChild),
    maxTokensPerTree: int('maxTokensPerTree', 0, 1_000_000_000, d.maxTokensPerTree),
    timeoutMs: int('timeoutMinutes', 1, 24 * 60, d.timeoutMs / 60_000) * 60_000,
    stallMs: int('stallMinutes', 1, 24 * 60, d.stallMs / 60_000) * 60_000,
    archiveMs: int('archiveMinutes', 1, 7 * 24 * 60, d.archiveMs / 60_000) * 60_000,
    maxRetries: d.maxRetries,
    askBeforeSpawn: readSetting(get, 'subagents.askBeforeSpawn', () => z.enum(['never', 'background', 'always']), d.askBeforeSpawn, warn),
  };
}
