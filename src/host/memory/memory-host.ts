// Memory and context files in a window: the stores open with the workspace database on first use;
// the toolset's memory tools and file-tool routing wait for them. The
// embeddings endpoint comes from settings, its key from SecretStorage; without one, search is
// keyword-only and says so once.
import * as vscode from 'vscode';
import type { EmbeddingProvider } from '../../core/memory/embeddings';
import type { MemoryServices } from '../../core/memory/memory-services';
import { memoryUserId } from '../../core/memory/memory-user';
import type { TeamMemory } from '../../core/memory/team-memory-router';
import type { PincerRuntime } from '../../core/runtime';
import type { StorageHost } from '../storage-host';
import { chatStack } from '../chat/chat-lazy';
import { AgentsHost } from './agents-host';
import { MemoryFileSystem } from './memory-fs-provider';

export const EMBEDDINGS_KEY_SECRET = 'pincer.memory.embeddings.apiKey';

export class MemoryHost implements vscode.Disposable {
  readonly agents: AgentsHost;
  readonly fs: MemoryFileSystem;
  private opening?: Promise<MemoryServices | undefined>;
  private apiKey: string | undefined;
  private keyLoaded?: Promise<void>;
  private provider?: { key: string; value: EmbeddingProvider };
  private readonly disposables: vscode.Disposable[] = [];
  private teams?: (agentId: string, embeddings: () => EmbeddingProvider | undefined) => Promise<TeamMemory | undefined>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly rt: PincerRuntime,
    private readonly storage: StorageHost,
    private readonly warn: (m: string) => void,
  ) {
    this.agents = new AgentsHost(warn);
    this.fs = new MemoryFileSystem({ routed: async () => (await this.services())?.routed, userId: () => this.userId() });
    this.disposables.push(this.agents, this.fs, context.secrets.onDidChange((e) => {
      if (e.key === EMBEDDINGS_KEY_SECRET) this.keyLoaded = this.loadKey();
    }));
  }

  /** pincer.user, else the OS user name: whose memory and per-user context files these are. */
  userId(): string {
    return memoryUserId(this.rt.currentConfig.memory.user);
  }

  /** Where a team agent's shared memory and context files live when its team is on a server (the teams host answers). */
  useTeams(find: (agentId: string, embeddings: () => EmbeddingProvider | undefined) => Promise<TeamMemory | undefined>): void {
    this.teams = find;
  }

  services(): Promise<MemoryServices | undefined> {
    this.opening ??= (async () => {
      const [db] = await Promise.all([this.storage.database(), this.agents.ready(), this.keyLoaded ??= this.loadKey()]);
      if (!db) return undefined;
      // Required when the memory first opens (a memory tool, a routed context file): a read_file of a
      // workspace file does not evaluate the stores. A literal path, so that esbuild bundles it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { openMemoryServices } = require('../../core/memory/memory-services') as typeof import('../../core/memory/memory-services');
      return openMemoryServices(db, {
        agents: this.agents.registry, embeddings: () => this.embeddings(), routedNames: () => this.rt.currentConfig.memory.routedContextFiles,
        teamMemory: async (agentId) => this.teams?.(agentId, () => this.embeddings()),
      });
    })();
    return this.opening;
  }

  /** The configured embeddings endpoint, rebuilt when its settings or key change; undefined = keyword-only. */
  embeddings(): EmbeddingProvider | undefined {
    const c = this.rt.currentConfig.memory.embeddings;
    if (!c.baseUrl || !c.model) return undefined;
    const key = JSON.stringify([c.baseUrl, c.model, c.dimensions, this.apiKey ?? '']);
    if (this.provider?.key !== key) {
      // The embeddings client is the openai SDK's, which lives in the chat bundle: loaded on the first search that needs it.
      this.provider = { key, value: chatStack(this.context).createOpenAiCompatibleEmbeddings({ baseUrl: c.baseUrl, model: c.model, dimensions: c.dimensions, apiKey: this.apiKey }) };
    }
    return this.provider.value;
  }

  async setApiKey(value: string | undefined): Promise<void> {
    if (value) await this.context.secrets.store(EMBEDDINGS_KEY_SECRET, value);
    else await this.context.secrets.delete(EMBEDDINGS_KEY_SECRET);
    this.useKey(value || undefined);
    this.keyLoaded = Promise.resolve();
  }

  private async loadKey(): Promise<void> {
    try {
      this.useKey((await this.context.secrets.get(EMBEDDINGS_KEY_SECRET)) || undefined);
    } catch (e) {
      this.warn(`the embeddings API key could not be read from secret storage (${(e as Error).message}); requests go without one.`);
    }
  }

  /** The key is registered with the scrubber, so no tool result or log line can carry it. */
  private useKey(value: string | undefined): void {
    if (this.apiKey && this.apiKey !== value) this.rt.scrubber.unregister(this.apiKey);
    this.apiKey = value;
    if (value) this.rt.scrubber.register(value);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
