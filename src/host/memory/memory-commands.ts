// Commands over memory and context files: search with previews, open a context file, reindex with
// progress and cancel, set the embeddings key. Export and import live in memory-transfer.ts.
// Each command also takes its inputs as arguments (tests and keybindings call them without UI).
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/memory/types';
import type { MemoryHost } from './memory-host';
import { memoryUri } from './memory-uri';

const KEYWORD_ONLY_SAID = 'pincer.memory.keywordOnlyNoticeShown';

export async function pickAgent(host: MemoryHost, agent?: string): Promise<string | undefined> {
  await host.agents.ready();
  const all = host.agents.registry.all();
  if (agent) return agent;
  if (all.length <= 1) return all[0]?.id ?? 'default';
  const pick = await vscode.window.showQuickPick(all.map((a) => ({ label: a.name, description: `${a.id} · ${a.type}`, detail: a.description, id: a.id })), { title: 'Pincer: which agent?' });
  return pick?.id;
}

async function storeOrSay(host: MemoryHost) {
  const s = await host.services();
  if (!s) void vscode.window.showErrorMessage('Pincer: the memory store could not be opened; see the Pincer Tool Log for why.');
  return s;
}

function sayKeywordOnlyOnce(host: MemoryHost, context: vscode.ExtensionContext): void {
  if (host.embeddings() || context.globalState.get(KEYWORD_ONLY_SAID)) return;
  void context.globalState.update(KEYWORD_ONLY_SAID, true);
  void vscode.window.showInformationMessage(
    'Pincer: memory search is keyword-only (BM25). Set an embeddings endpoint (Ollama, LM Studio, OpenAI…) for semantic search.', 'Open Settings',
  ).then((p) => p && vscode.commands.executeCommand('workbench.action.openSettings', 'pincer.memory.embeddings'));
}

async function openHit(agentId: string, hit: SearchHit): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(memoryUri(agentId, hit.path));
  const line = Math.max(0, hit.startLine - 1);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0), preview: true });
}

type HitItem = vscode.QuickPickItem & { hit: SearchHit };

export async function searchMemoryCommand(host: MemoryHost, context: vscode.ExtensionContext, query?: string, opts: { open?: boolean; agent?: string; limit?: number } = {}): Promise<SearchHit[] | undefined> {
  const agentId = await pickAgent(host, opts.agent);
  const s = agentId && (await storeOrSay(host));
  if (!agentId || !s) return undefined;
  const scope = { agentId, userId: host.userId() };
  sayKeywordOnlyOnce(host, context);
  if (query !== undefined && opts.open === false) return (await s.memory.search(scope, query, { limit: opts.limit ?? 20 })).hits;

  const qp = vscode.window.createQuickPick<HitItem>();
  qp.title = `Pincer: Search Memory (${agentId})`;
  qp.placeholder = 'Words to look for in memory';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let generation = 0;
  let timer: NodeJS.Timeout | undefined;
  const run = (value: string) => {
    const mine = ++generation;
    if (!value.trim()) {
      qp.items = [];
      return;
    }
    qp.busy = true;
    void s.memory.search(scope, value, { limit: opts.limit ?? 30 }).then((r) => {
      if (mine !== generation) return;
      qp.items = r.hits.map((hit) => ({
        hit, label: `$(note) ${hit.path}:${hit.startLine}`, description: `${hit.heading}${hit.heading ? ' · ' : ''}${hit.score.toFixed(3)}`, detail: hit.abstract,
        // Results are already ranked by the store; the quick pick must not re-filter them by label.
        alwaysShow: true,
      }));
      if (r.note) qp.placeholder = r.note;
    }, (e: unknown) => {
      if (mine === generation) qp.placeholder = `Search failed: ${(e as Error).message}`;
    }).finally(() => {
      if (mine === generation) qp.busy = false;
    });
  };
  return new Promise((resolve) => {
    qp.onDidChangeValue((v) => {
      clearTimeout(timer);
      timer = setTimeout(() => run(v), 120);
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      qp.hide();
      if (item) void openHit(agentId, item.hit);
      resolve(item ? [item.hit] : []);
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      qp.dispose();
      resolve([]);
    });
    if (query) {
      qp.value = query;
      run(query);
    }
    qp.show();
  });
}

export async function openContextFileCommand(host: MemoryHost, name?: string, opts: { agent?: string; level?: 'effective' | 'agent'; show?: boolean } = {}): Promise<string | undefined> {
  const agentId = await pickAgent(host, opts.agent);
  const s = agentId && (await storeOrSay(host));
  if (!agentId || !s) return undefined;
  const who = { agentId, userId: host.userId() };
  let level = opts.level ?? 'effective';
  if (!name) {
    // Names taken out of routing live on disk: the explorer opens those, not this command.
    const names = host.rt.currentConfig.memory.routedContextFiles;
    const items: (vscode.QuickPickItem & { path: string; level: 'effective' | 'agent' })[] = [];
    for (const path of [...names, 'MEMORY.md']) {
      const mine = await s.routed.read(who, path);
      const shared = await s.routed.read(who, path, { level: 'agent' });
      const state = mine ? (mine.level === 'user' ? 'your copy' : mine.level === 'agent' ? 'shared' : 'from the agent definition') : 'not created yet';
      items.push({ label: `$(file-text) ${path}`, description: state, path, level: 'effective' });
      const editableShared = s.routed.writable(who, path, 'person', 'agent').ok;
      if (editableShared && (shared || mine?.level === 'definition')) items.push({ label: `$(organization) ${path}`, description: `shared by every user of ${agentId}`, path, level: 'agent' });
    }
    const pick = await vscode.window.showQuickPick(items, { title: `Pincer: Open Context File (${agentId})`, matchOnDescription: true });
    if (!pick) return undefined;
    name = pick.path;
    level = pick.level;
  }
  const uri = memoryUri(agentId, name, level);
  if (opts.show !== false) {
    const exists = await s.routed.read(who, name, { level });
    // A file that does not exist yet opens as an untitled buffer that saves into the store.
    const doc = exists ? await vscode.workspace.openTextDocument(uri) : await vscode.workspace.openTextDocument(uri.with({ scheme: 'untitled' }));
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  return uri.toString();
}

export async function reindexMemoryCommand(host: MemoryHost): Promise<{ documents: number; chunks: number; embedded: number } | undefined> {
  const s = await storeOrSay(host);
  if (!s) return undefined;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Pincer: reindexing memory', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let last = 0;
      try {
        const r = await s.memory.reindex('all', {
          signal: abort.signal,
          onProgress: (done, total) => {
            const pct = total ? (done / total) * 100 : 100;
            progress.report({ increment: pct - last, message: `${done} of ${total} documents` });
            last = pct;
          },
        });
        if (r.cancelled) {
          void vscode.window.showWarningMessage(`Pincer: reindexing was cancelled after ${r.documents} documents; those keep their new index, the rest their old one.`);
          return undefined;
        }
        void vscode.window.showInformationMessage(`Pincer: memory reindexed: ${r.documents} documents, ${r.chunks} chunks${r.embedded ? `, ${r.embedded} embedded` : ''}.`);
        return r;
      } catch (e) {
        if (abort.signal.aborted) {
          void vscode.window.showWarningMessage('Pincer: reindexing was cancelled; documents done so far keep their new index, the rest their old one.');
          return undefined;
        }
        throw e;
      } finally {
        sub.dispose();
      }
    },
  );
}

export async function setEmbeddingsKeyCommand(host: MemoryHost, value?: string): Promise<boolean> {
  const key = value ?? (await vscode.window.showInputBox({
    title: 'Pincer: embeddings API key', password: true, ignoreFocusOut: true,
    prompt: 'Kept in VS Code\'s secret storage, never in settings. Leave empty to remove the stored key.',
  }));
  if (key === undefined) return false;
  await host.setApiKey(key.trim() || undefined);
  if (value === undefined) void vscode.window.showInformationMessage(key.trim() ? 'Pincer: embeddings API key stored.' : 'Pincer: embeddings API key removed.');
  return true;
}

export async function addMemoryToExplorerCommand(host: MemoryHost, agent?: string): Promise<boolean> {
  const agentId = await pickAgent(host, agent);
  if (!agentId) return false;
  const uri = memoryUri(agentId, '');
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.some((f) => f.uri.toString() === uri.toString())) return true;
  return vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name: `Pincer memory (${agentId})` });
}
