// Which models the chat can use, and which one it does: VS Code's Language Model API (Copilot and
// other installed providers: the zero-setup default where present), an OpenAI-compatible endpoint and
// Anthropic (each once its key is set; a local endpoint such as Ollama needs none). Keys live in
// SecretStorage and are registered with the scrubber; the choice is remembered per machine.
import * as vscode from 'vscode';
import type { ModelInfo, ModelProvider } from '../../core/agent/model-types';
import { createAnthropicProvider } from '../../core/agent/providers/anthropic-provider';
import { createOpenAiProvider } from '../../core/agent/providers/openai-provider';
import { DEFAULT_OPENAI_BASE_URL } from '../../core/agent/provider-config';
import type { PincerRuntime } from '../../core/runtime';
import { VscodeLmProvider } from './vscode-lm-provider';

export type ProviderId = 'vscode-lm' | 'openai' | 'anthropic';
/** One listed model, or a provider that could not list its models (shown, not fatal). */
export type ListedModel = { provider: ProviderId; info: ModelInfo; error?: undefined } | { provider: ProviderId; info?: undefined; error: string };
export interface ModelChoice { provider: ProviderId; model: string }

const CHOICE_KEY = 'pincer.chat.model';
const keySecret = (p: 'openai' | 'anthropic') => `pincer.providers.${p}.apiKey`;
const LABEL: Record<ProviderId, string> = { 'vscode-lm': 'VS Code', openai: 'OpenAI-compatible', anthropic: 'Anthropic' };

export class ModelHost implements vscode.Disposable {
  private readonly keys = new Map<string, string>();
  private keysRead?: Promise<void>;
  /** The model used without a choice: found once (it may take a request per provider), forgotten on change. */
  private fallback?: Promise<{ provider: ModelProvider; model: string; info?: ModelInfo } | undefined>;
  /**
   * Each provider made once per endpoint and key, so what it learns (its model list, a server that
   * refused images) lasts beyond one turn; a changed endpoint or key makes a new one.
   */
  private readonly made = new Map<ProviderId, { signature: string; provider: ModelProvider }>();
  private readonly subs: vscode.Disposable[] = [];
  readonly onDidChange = new vscode.EventEmitter<void>();

  constructor(private readonly context: vscode.ExtensionContext, private readonly rt: PincerRuntime) {
    this.subs.push(context.secrets.onDidChange((e) => {
      if (e.key.startsWith('pincer.providers.')) void (this.keysRead = this.loadKeys()).then(() => this.changed());
    }), this.onDidChange);
  }

  /** Keys and provider settings changed: the default model is looked for again. */
  changed(): void {
    this.fallback = undefined;
    this.made.clear();
    this.onDidChange.fire();
  }

  /** The keys, read once (and registered with the scrubber); a change in SecretStorage reads them again. */
  private ensureKeys(): Promise<void> {
    return (this.keysRead ??= this.loadKeys());
  }

  private async loadKeys(): Promise<void> {
    for (const p of ['openai', 'anthropic'] as const) {
      const v = (await this.context.secrets.get(keySecret(p))) || '';
      const old = this.keys.get(p);
      if (old && old !== v) this.rt.scrubber.unregister(old);
      if (v) this.rt.scrubber.register(v);
      this.keys.set(p, v);
    }
  }

  provider(id: ProviderId): ModelProvider | undefined {
    const c = this.rt.currentConfig.chat.providers;
    const reuse = (signature: string, make: () => ModelProvider): ModelProvider => {
      const had = this.made.get(id);
      if (had?.signature === signature) return had.provider;
      const provider = make();
      this.made.set(id, { signature, provider });
      return provider;
    };
    if (id === 'vscode-lm') return typeof vscode.lm?.selectChatModels === 'function' ? reuse('', () => new VscodeLmProvider()) : undefined;
    if (id === 'openai') {
      const key = this.keys.get('openai');
      // The default endpoint needs a key; a local one (Ollama, LM Studio) usually does not.
      if (!key && c.openai.baseUrl === DEFAULT_OPENAI_BASE_URL) return undefined;
      return reuse(`${c.openai.baseUrl}\n${key ?? ''}`, () => createOpenAiProvider({ baseUrl: c.openai.baseUrl, apiKey: key || undefined }));
    }
    const key = this.keys.get('anthropic');
    return key ? reuse(`${c.anthropic.baseUrl ?? ''}\n${key}`, () => createAnthropicProvider({ apiKey: key, baseUrl: c.anthropic.baseUrl })) : undefined;
  }

  choice(): ModelChoice | undefined {
    return this.context.globalState.get<ModelChoice>(CHOICE_KEY);
  }

  async choose(choice: ModelChoice | undefined): Promise<void> {
    await this.context.globalState.update(CHOICE_KEY, choice);
    this.changed();
  }

  /** Every model of every usable provider; a provider that fails is reported, not fatal. */
  async models(signal?: AbortSignal): Promise<ListedModel[]> {
    await this.ensureKeys();
    const out: ListedModel[] = [];
    await Promise.all((['vscode-lm', 'openai', 'anthropic'] as const).map(async (id) => {
      const p = this.provider(id);
      if (!p) return;
      try {
        for (const info of await p.listModels(signal)) out.push({ provider: id, info });
      } catch (e) {
        out.push({ provider: id, error: (e as Error).message });
      }
    }));
    return out;
  }

  /**
   * The chosen model; without a choice, the first model of the first usable provider in the order
   * VS Code, OpenAI-compatible (a local server needs no setup but its URL), Anthropic.
   */
  async current(): Promise<{ provider: ModelProvider; model: string; info?: ModelInfo } | undefined> {
    await this.ensureKeys();
    const c = this.choice();
    if (c) {
      const p = this.provider(c.provider);
      if (p) return { provider: p, model: c.model };
    }
    const found = await (this.fallback ??= this.firstAvailable());
    if (!found) this.fallback = undefined; // nothing yet: look again next time (a model may have been installed)
    return found;
  }

  private async firstAvailable(): Promise<{ provider: ModelProvider; model: string; info?: ModelInfo } | undefined> {
    for (const id of ['vscode-lm', 'openai', 'anthropic'] as const) {
      const p = this.provider(id);
      const first = p && (await p.listModels().catch(() => []))[0];
      if (p && first) return { provider: p, model: first.id, info: first };
    }
    return undefined;
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
  }
}

/** Pincer: Select Model… — every model with where it comes from. */
/** The picker's line under a model: its context window and whether it reads images, where known. */
function modelDetail(info: ModelInfo): string | undefined {
  const facts = [
    info.contextTokens ? `${info.contextTokens.toLocaleString('en-US')} tokens of context` : '',
    info.imageInput === true ? 'reads images' : info.imageInput === false ? 'text only: images are described in words' : '',
  ].filter(Boolean);
  return facts.length ? facts.join(' · ') : undefined;
}

export async function selectModelCommand(host: ModelHost): Promise<ModelChoice | undefined> {
  type Item = vscode.QuickPickItem & { choice?: ModelChoice };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Select the chat model';
  qp.busy = true;
  qp.show();
  const listed = await host.models();
  const current = host.choice();
  const items: Item[] = listed.map((m) => m.info
    ? { label: m.info.id, description: m.info.source, detail: modelDetail(m.info), choice: { provider: m.provider, model: m.info.id }, picked: current?.provider === m.provider && current.model === m.info.id }
    : { label: `$(warning) ${LABEL[m.provider]}: could not list models`, detail: m.error });
  if (!items.length) items.push({ label: '$(info) No model available', detail: 'Install a language model extension (e.g. GitHub Copilot), or run "Pincer: Set Model API Key…" for OpenAI or Anthropic, or point pincer.providers.openai.baseUrl at a local server.' });
  qp.items = items;
  qp.busy = false;
  const picked = await new Promise<Item | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
  });
  qp.dispose();
  if (!picked?.choice) return undefined;
  await host.choose(picked.choice);
  return picked.choice;
}

/** Pincer: Set Model API Key… — kept in SecretStorage, scrubbed from every result. */
export async function setModelKeyCommand(context: vscode.ExtensionContext, pre?: { provider: 'openai' | 'anthropic'; key: string }): Promise<boolean> {
  const provider = pre?.provider ?? (await vscode.window.showQuickPick([{ label: 'OpenAI-compatible', id: 'openai' as const }, { label: 'Anthropic', id: 'anthropic' as const }], { title: 'Set Model API Key: which provider?' }))?.id;
  if (!provider) return false;
  const key = pre?.key ?? await vscode.window.showInputBox({ title: `${LABEL[provider]} API key`, password: true, ignoreFocusOut: true, prompt: 'Kept in VS Code\'s secret storage, never in settings; scrubbed from every result. Empty removes it.' });
  if (key === undefined) return false;
  if (key) await context.secrets.store(keySecret(provider), key);
  else await context.secrets.delete(keySecret(provider));
  return true;
}
