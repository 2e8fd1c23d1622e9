// Which agents exist: the workspace's `.pincer/agents/*.md`, the `pincer.agents` setting, the
// built-in default agent that needs no setup, and — read-only — the Copilot and Claude Code agent
// files the workspace already has (foreign-agent-file.ts). The host feeds it files and settings as they change;
// core code asks `resolve(id)`.
//
// Decisions:
// - Precedence: a workspace file wins over a settings entry with the same id, both over the
//   built-in default (so `default` itself can be redefined). Two workspace files with one id (a
//   multi-root workspace): the first given wins and the second is a problem. A Copilot or Claude
//   Code definition comes last: Pincer's own definitions (and the default) win over it.
// - `get(id)` answers only for defined agents. `resolve(id)` always answers: an unknown id is an
//   open agent of that name (a chat may name an agent nobody wrote down; its files are then simply
//   per user), but an id whose definition exists and is broken resolves as *predefined* — fail
//   closed, so a typo in `type:` never lets the model rewrite files meant to be shared and fixed.
// - `onDidChange` fires only when the effective set of definitions (or problems) changed.
import { Emitter } from '../events';
import { definesNothing } from '../setting-value';
import type { ForeignFormat } from './foreign-tools';
import { knownStaticNames } from '../policy/groups';
import { DEFAULT_AGENT_ID, type AgentDefinition } from './types';

/**
 * The agent files' readers and their schemas, required when there is a file or a setting to read: a
 * window without agents of its own does not evaluate them when the runtime loads. Literal paths, so
 * that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const readers = {
  fields: () => require('./agent-fields') as typeof import('./agent-fields'),
  pincer: () => require('./agent-file') as typeof import('./agent-file'),
  foreign: () => require('./foreign-agent-file') as typeof import('./foreign-agent-file'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export const DEFAULT_AGENT: Readonly<AgentDefinition> = Object.freeze({
  id: DEFAULT_AGENT_ID,
  name: 'Default',
  type: 'open',
  source: 'default',
  description: 'The built-in agent: every context file is kept per user.',
});

interface Layer {
  agents: Map<string, AgentDefinition>;
  failed: Map<string, string | undefined>;
  problems: string[];
}

const emptyLayer = (): Layer => ({ agents: new Map(), failed: new Map(), problems: [] });

export class AgentRegistry {
  readonly onDidChange = new Emitter<void>();
  private workspace = emptyLayer();
  private settings = emptyLayer();
  private foreign = emptyLayer();
  private fingerprint = this.computeFingerprint();

  /** Errors first, then warnings, workspace before settings; each says what to fix. */
  get problems(): string[] {
    return [...this.workspace.problems, ...this.settings.problems, ...this.foreign.problems];
  }

  get(id: string): AgentDefinition | undefined {
    const ws = this.workspace.agents.get(id);
    if (ws) return ws;
    // A broken workspace file shadows the settings entry it would have won over.
    if (this.workspace.failed.has(id)) return undefined;
    const set = this.settings.agents.get(id);
    if (set) return set;
    if (this.settings.failed.has(id)) return undefined;
    if (id === DEFAULT_AGENT_ID) return { ...DEFAULT_AGENT };
    return this.foreign.agents.get(id);
  }

  /** A defined agent, else (broken definition) a predefined stand-in, else an open agent named `id`. */
  resolve(id: string): AgentDefinition {
    const found = this.get(id);
    if (found) return found;
    const failed = this.failedSource(id);
    if (failed) {
      return {
        id, name: id, type: 'predefined', source: failed.source,
        ...(failed.file ? { file: failed.file } : {}),
        description: 'Its definition has errors (see Pincer\'s problems); treated as predefined until fixed.',
      };
    }
    return { id, name: id, type: 'open', source: 'default' };
  }

  /** Every defined agent, the default included, sorted by id. */
  all(): AgentDefinition[] {
    const ids = new Set([...this.workspace.agents.keys(), ...this.settings.agents.keys(), ...this.foreign.agents.keys()]);
    if (!this.failedSource(DEFAULT_AGENT_ID)) ids.add(DEFAULT_AGENT_ID);
    return [...ids].sort().map((id) => this.get(id)).filter((a): a is AgentDefinition => a !== undefined);
  }

  /** Replaces the workspace agents with these files (absolute path and text of each `.pincer/agents/*.md`). */
  setWorkspace(files: readonly { file: string; text: string }[]): void {
    const layer = emptyLayer();
    const warnings: string[] = [];
    for (const { file, text } of files) {
      const r = readers.pincer().parseAgentFile(file, text);
      warnings.push(...r.warnings);
      if (!r.agent) {
        layer.problems.push(...r.errors);
        const id = readers.pincer().agentIdFromFile(file);
        if (readers.fields().AGENT_ID_PATTERN.test(id) && /\.md$/i.test(file) && !layer.agents.has(id) && !layer.failed.has(id)) layer.failed.set(id, file);
        continue;
      }
      const id = r.agent.id;
      const first = layer.agents.get(id);
      if (first || layer.failed.has(id)) {
        layer.problems.push(`${file}: agent "${id}" is already defined by ${first?.file ?? layer.failed.get(id)}; this file is ignored (rename one of them).`);
        continue;
      }
      layer.agents.set(id, r.agent);
    }
    layer.problems.push(...warnings);
    this.workspace = layer;
    this.changed();
  }

  /**
   * Replaces the Copilot (`.github/agents/*.agent.md`) and Claude Code (`.claude/agents/*.md`)
   * definitions; the first file with an id wins.
   */
  setForeign(files: readonly { format: ForeignFormat; file: string; text: string }[]): void {
    const layer = emptyLayer();
    const warnings: string[] = [];
    const pincerNames = knownStaticNames();
    for (const { format, file, text } of files) {
      const r = readers.foreign().parseForeignAgentFile(format, file, text, pincerNames);
      warnings.push(...r.warnings);
      if (!r.agent) {
        layer.problems.push(...r.errors);
        const id = readers.foreign().foreignIdFromFile(file);
        if (readers.fields().AGENT_ID_PATTERN.test(id) && !layer.agents.has(id) && !layer.failed.has(id)) layer.failed.set(id, file);
        continue;
      }
      const id = r.agent.id;
      const first = layer.agents.get(id);
      if (first || layer.failed.has(id)) {
        layer.problems.push(`${file}: agent "${id}" is already defined by ${first?.file ?? layer.failed.get(id)}; this file is ignored.`);
        continue;
      }
      layer.agents.set(id, r.agent);
    }
    layer.problems.push(...warnings);
    this.foreign = layer;
    this.changed();
  }

  /** Replaces the settings agents with the value of `pincer.agents`. */
  setSettings(value: unknown): void {
    const r = definesNothing(value) ? { agents: [], failedIds: [], errors: [], warnings: [] } : readers.pincer().parseSettingsAgents(value);
    const layer = emptyLayer();
    for (const a of r.agents) layer.agents.set(a.id, a);
    for (const id of r.failedIds) layer.failed.set(id, undefined);
    layer.problems.push(...r.errors, ...r.warnings);
    this.settings = layer;
    this.changed();
  }

  /** Where the broken definition of `id` is, when there is one and no valid definition shadows it. */
  private failedSource(id: string): { source: AgentDefinition['source']; file?: string } | undefined {
    if (this.workspace.failed.has(id)) return { source: 'workspace', file: this.workspace.failed.get(id) };
    if (this.workspace.agents.has(id)) return undefined;
    if (this.settings.failed.has(id)) return { source: 'settings' };
    if (this.settings.agents.has(id) || id === DEFAULT_AGENT_ID) return undefined;
    // A broken Copilot or Claude Code file: its id resolves fail-closed too.
    if (this.foreign.failed.has(id)) return { source: this.foreign.failed.get(id)?.endsWith('.agent.md') ? 'copilot' : 'claude', file: this.foreign.failed.get(id) };
    return undefined;
  }

  private computeFingerprint(): string {
    const layer = (l: Layer) => [[...l.agents.entries()], [...l.failed.entries()], l.problems];
    return JSON.stringify([layer(this.workspace), layer(this.settings), layer(this.foreign)]);
  }

  private changed(): void {
    const next = this.computeFingerprint();
    if (next === this.fingerprint) return;
    this.fingerprint = next;
    this.onDidChange.fire();
  }
}
