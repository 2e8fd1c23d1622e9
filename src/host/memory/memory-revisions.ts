// "Pincer: Restore Memory Revision…": pick an earlier version of a memory or context file (kept
// before every write or delete replaced it), see it beside the current file in a diff, restore it.
// Restoring is itself a write, so the version it replaces is kept too: a restore can be undone.
import * as vscode from 'vscode';
import type { RevisionInfo } from '../../core/memory/revision-store';
import type { ResultDocuments } from '../result-documents';
import { pickAgent } from './memory-commands';
import type { MemoryHost } from './memory-host';
import { memoryUri } from './memory-uri';

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 129_600) return `${Math.round(s / 3600)} h ago`;
  return new Date(ms).toLocaleString();
}

function describe(r: RevisionInfo): string {
  const by = r.actor === 'model' ? 'the model' : 'a person';
  return `${r.change === 'delete' ? 'deleted' : 'replaced'} ${ago(r.replacedAt)} by ${by} · ${r.size} bytes${r.userId ? '' : ' · shared level'}`;
}

export async function restoreRevisionCommand(
  host: MemoryHost, docs: ResultDocuments,
  opts: { agent?: string; path?: string; id?: number; confirm?: boolean } = {},
): Promise<boolean> {
  const agentId = await pickAgent(host, opts.agent);
  const s = agentId ? await host.services() : undefined;
  if (!agentId || !s) return false;
  const who = { agentId, userId: host.userId() };
  let id = opts.id;
  if (id === undefined) {
    const list = await s.revisions.list(who, opts.path);
    if (!list.length) {
      void vscode.window.showInformationMessage(`Pincer: no earlier versions of ${opts.path ?? 'memory or context files'} are kept for ${agentId}.`);
      return false;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((r) => ({ label: `$(history) ${r.path}`, description: ago(r.replacedAt), detail: describe(r), id: r.id })),
      { title: `Pincer: Restore Memory Revision (${agentId})`, matchOnDetail: true },
    );
    if (!pick) return false;
    id = pick.id;
  }
  const rev = await s.revisions.get(who, id);
  if (!rev) throw new Error(`Pincer: revision ${id} does not exist for ${agentId} (only the newest versions of each file are kept).`);
  const level = rev.userId ? 'effective' : 'agent';
  if (opts.confirm !== false) {
    const left = docs.put(`${rev.path} (version ${rev.id})`, 'md', rev.content);
    const current = await s.routed.read(who, rev.path, { level });
    const right = current ? memoryUri(agentId, rev.path, level) : docs.put(`${rev.path} (does not exist now)`, 'md', '');
    await vscode.commands.executeCommand('vscode.diff', left, right, `${rev.path}: version ${describe(rev)} ↔ now`, { preview: true });
    const ok = await vscode.window.showWarningMessage(
      `Restore this version of ${rev.path}? What the file holds now is kept as a version too.`, { modal: true }, 'Restore');
    if (ok !== 'Restore') return false;
  }
  await s.routed.write(who, rev.path, rev.content, { actor: 'person', level: rev.userId ? 'user' : 'agent' });
  return true;
}
