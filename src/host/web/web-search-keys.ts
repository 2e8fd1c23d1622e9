// Web search providers' keys live in SecretStorage (`pincer.web.searchKey.<provider>`), never in
// settings. A key in use is registered with the scrubber, so no result or log line can carry it.
import * as vscode from 'vscode';
import type { SearchProviderId } from '../../core/web/web-config';

type KeyedProvider = Exclude<SearchProviderId, 'duckduckgo'>;
const PROVIDERS: readonly { id: KeyedProvider; label: string }[] = [
  { id: 'exa', label: 'Exa' }, { id: 'tavily', label: 'Tavily' }, { id: 'brave', label: 'Brave Search' },
];
const secretName = (p: SearchProviderId) => `pincer.web.searchKey.${p}`;

export interface WebSearchKeys {
  key(provider: SearchProviderId): Promise<string | undefined>;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function createWebSearchKeys(secrets: vscode.SecretStorage, scrubber: { register(v: string): void }): WebSearchKeys {
  return {
    async key(provider) {
      if (provider === 'duckduckgo') return undefined;
      const v = (await secrets.get(secretName(provider))) || undefined;
      if (v) scrubber.register(v);
      return v;
    },
    commands: {
      /** Pincer: Set Web Search Key… — pick the provider, type the key (hidden); empty removes it. */
      'pincer.web.setSearchKey': async (pre?: { provider: KeyedProvider; key: string }) => {
        const provider = pre?.provider ?? (await vscode.window.showQuickPick(PROVIDERS.map((p) => ({ label: p.label, id: p.id })), { title: 'Set Web Search Key: which provider?' }))?.id;
        if (!provider) return false;
        const label = PROVIDERS.find((p) => p.id === provider)?.label ?? provider;
        const key = pre?.key ?? await vscode.window.showInputBox({ title: `${label} API key`, password: true, ignoreFocusOut: true, prompt: 'Kept in VS Code\'s secret storage, never in settings; scrubbed from every result. Empty removes it.' });
        if (key === undefined) return false;
        if (key) {
          scrubber.register(key);
          await secrets.store(secretName(provider), key);
        } else {
          await secrets.delete(secretName(provider));
        }
        return true;
      },
    },
  };
}
