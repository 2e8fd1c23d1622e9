// The chat's first-run actions, also reachable from the palette and the walkthrough: use a model
// VS Code already offers (Copilot or another language model extension), connect a local
// OpenAI-compatible server found on localhost (written to the USER settings only after the person
// confirms: a base URL decides where prompts and keys go), or set an API key.
import * as vscode from 'vscode';
import { LOCAL_SERVERS, probeLocalServers, type LocalServer } from '../../core/agent/local-model-probe';
import type { ModelHost } from './model-host';

const BASE_URL_SETTING = 'pincer.providers.openai.baseUrl';

export interface ConnectLocalOptions {
  /** Addresses to probe instead of Ollama's and LM Studio's (tests pass a loopback server). */
  servers?: { name: string; baseUrl: string }[];
  /** Skip the confirmation (tests; the palette always asks). */
  confirmed?: boolean;
}

async function setBaseUrl(models: ModelHost, server: Pick<LocalServer, 'name' | 'baseUrl'> & { models?: string[] }, confirmed: boolean): Promise<string | undefined> {
  if (!confirmed) {
    const set = 'Set in User Settings';
    const ok = await vscode.window.showInformationMessage(
      `Use ${server.name} at ${server.baseUrl} for the chat?`,
      { modal: true, detail: `This sets ${BASE_URL_SETTING} to ${server.baseUrl} in your user settings. The chat's OpenAI-compatible provider then talks to that server.` },
      set);
    if (ok !== set) return undefined;
  }
  await vscode.workspace.getConfiguration().update(BASE_URL_SETTING, server.baseUrl, vscode.ConfigurationTarget.Global);
  const first = server.models?.[0];
  if (first) await models.choose({ provider: 'openai', model: first });
  void vscode.window.showInformationMessage(first
    ? `Pincer: the chat now uses ${first} from ${server.name}.`
    : `Pincer: ${server.name} is connected but lists no models yet; pull or load one, then pick it in the chat.`);
  return server.baseUrl;
}

/** Pincer: Connect to Ollama / LM Studio — the base URL it set, or undefined. */
export async function connectLocalModelCommand(models: ModelHost, o: ConnectLocalOptions = {}): Promise<string | undefined> {
  const servers = o.servers ?? LOCAL_SERVERS;
  const found = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Pincer: looking for a local model server' },
    () => probeLocalServers(servers));
  if (found.length) {
    const server = found.length === 1 ? found[0] : (await vscode.window.showQuickPick(
      found.map((s) => ({ label: s.name, description: s.baseUrl, detail: `${s.models.length} models`, server: s })), { title: 'Connect the chat to' }))?.server;
    return server && setBaseUrl(models, server, o.confirmed === true);
  }
  const where = servers.map((s) => s.baseUrl).join(' or ');
  const enter = 'Enter URL…';
  const pick = await vscode.window.showWarningMessage(`Pincer: no local model server answered at ${where}. Start Ollama or LM Studio's server and try again, or enter its URL.`, enter, 'Try Again');
  if (pick === 'Try Again') return connectLocalModelCommand(models, o);
  if (pick !== enter) return undefined;
  const url = await vscode.window.showInputBox({
    title: 'OpenAI-compatible base URL', placeHolder: 'http://localhost:11434/v1',
    validateInput: (v) => (/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(v.trim()) ? undefined : 'An http:// or https:// URL, usually ending in /v1'),
  });
  return url ? setBaseUrl(models, { name: 'that server', baseUrl: url.trim() }, false) : undefined;
}

/** Use VS Code's models: the first language model VS Code offers, or the extensions that provide one. */
export async function useVscodeModelsCommand(models: ModelHost): Promise<string | undefined> {
  const lm = typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels() : [];
  if (lm.length) {
    await models.choose({ provider: 'vscode-lm', model: lm[0].id });
    void vscode.window.showInformationMessage(`Pincer: the chat now uses ${lm[0].name} (${lm[0].vendor}). Pick another in the chat's model list.`);
    return lm[0].id;
  }
  const open = 'Show Extensions';
  const pick = await vscode.window.showInformationMessage('Pincer: VS Code offers no language model yet. Install one (GitHub Copilot Chat, for example), then come back.', open);
  if (pick === open) await vscode.commands.executeCommand('workbench.extensions.search', 'GitHub Copilot Chat');
  return undefined;
}
