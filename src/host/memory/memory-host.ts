// Memory and context files in a window: the stores open with the workspace database on first use;
// the memory tools and the file tools' interceptors are registered at once and wait for them. The
// embeddings endpoint comes from settings, its key from SecretStorage; without one, search is
// keyword-only and says so once.
import * as os from 'os';
import * as vscode from 'vscode';
import type { EmbeddingProvider } from '../../core/memory/embeddings';
import { ContextStore } from '../../core/memory/context-store';
import { MemoryStore } from '../../core/memory/memory-store';
import { RoutedFiles } from '../../core/memory/routed-files';
import { RevisionStore } from '../../core/memory/revision-store';
import type { PincerRuntime } from '../../core/runtime';
import type { StorageHost } from '../storage-host';
import { chatStack } from '../chat/chat-lazy';
import { AgentsHost } from './agents-host';
import { MemoryFileSystem } from './memory-fs-provider';

export const EMBEDDINGS_KEY_SECRET = 'pincer.memory.embeddings.apiKey';

export interface MemoryServices {
  memory: MemoryStore;
  context: ContextStore;
  routed: RoutedFiles;
  revisions: RevisionStore;
}

export class MemoryHost implements vscode.Disposable {
  readonly agents: AgentsHost;
  readonly fs: MemoryFileSystem;
  private opening?: Promise<MemoryServices | undefined>;
  private apiKey: string | undefined;
  private keyLoaded?: Promise<void>;
  private provider?: { key: string; value: EmbeddingProvider };
  private readonly disposables: vscode.Disposable[] = [];

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
    const configured = this.rt.currentConfig.memory.user;
    if (configured) return configured;
    try {
      return os.userInfo().username || 'user';
    } catch {
      return 'user';
    }
  }

  services(): Promise<MemoryServices | undefined> {
    this.opening ??= (async () => {
      const [db] = await Promise.all([this.storage.database(), this.agents.ready(), this.keyLoaded ??= this.loadKey()]);
      if (!db) return undefined;
      const memory = new MemoryStore(db, { embeddings: () => this.embeddings() });
      const context = new ContextStore(db);
      const revisions = new RevisionStore(db);
      const routed = new RoutedFiles({
        context, memory, agents: this.agents.registry, revisions,
        routedNames: () => this.rt.currentConfig.memory.routedContextFiles,
      });
      return { memory, context, routed, revisions };
    })();
    return this.opening;
  }

  async memoryStore(): Promise<MemoryStore | undefined> {
    return (await this.services())?.memory;
  }

  async routed(): Promise<RoutedFiles | undefined> {
    return (await this.services())?.routed;
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
