// The first-run card: shown instead of a turn when a message finds no model. Each button posts a
// `setup-action`; the host does the work (VS Code's model list, the local server it probed, the key
// prompt) and confirms natively. A local server found on this machine is named on its button.
import type { LocalServerChoice } from '../../src/core/chat/chat-protocol';
import { el, icon, textButton } from './dom';
import { post } from './vscode-api';

const hostOf = (url: string) => url.replace(/^https?:\/\//i, '').replace(/\/.*$/, '');

export function setupCard(servers: readonly LocalServerChoice[]): HTMLElement {
  const local = servers[0];
  const localLabel = local ? `Connect to ${local.name} (${hostOf(local.baseUrl)})` : 'Connect to Ollama / LM Studio';
  return el('div', { class: 'prompt-card setup', role: 'group', 'aria-label': 'Choose a model' },
    el('div', { class: 'prompt-title' }, icon('sparkle'), ' Pincer needs a model to answer'),
    el('div', { class: 'prompt-reason' }, local
      ? `${local.name} answers at ${local.baseUrl} with ${local.models} model${local.models === 1 ? '' : 's'}. Your message is back in the input: send it again once a model is set.`
      : 'Use a model VS Code already has (GitHub Copilot, for example), a local server (Ollama, LM Studio), or an API key. Your message is back in the input: send it again once a model is set.'),
    el('div', { class: 'prompt-actions' },
      textButton("Use VS Code's Models", () => post({ type: 'setup-action', action: 'vscode-lm' }), { action: 'setup-vscode-lm' }),
      textButton(localLabel, () => post({ type: 'setup-action', action: 'local' }), { secondary: !local, action: 'setup-local' }),
      textButton('Set an API Key…', () => post({ type: 'setup-action', action: 'api-key' }), { secondary: true, action: 'setup-api-key' })));
}
