// Export Memory… / Import Memory…: a folder of markdown files laid out like pincer-memory: URIs —
// <agent>/<path> for the current user's own files, <agent>/.agent/<path> for an agent's shared ones —
// plus a manifest. Importing a plain folder of .md files puts them under memory/ of one agent. An
// existing file with other content is never replaced without saying so (ask, skip or overwrite).
import * as vscode from 'vscode';
import type { RoutedFiles } from '../../core/memory/routed-files';
import { routeOf } from '../../core/memory/routed-files';
import type { Scope } from '../../core/memory/types';
import { pickAgent } from './memory-commands';
import type { MemoryHost } from './memory-host';
import { AGENT_LEVEL_DIR } from './memory-uri';

const MANIFEST = 'pincer-memory-export.json';
export type OnConflict = 'ask' | 'overwrite' | 'skip';
interface FileOut { agentId: string; level: 'user' | 'agent'; path: string; content: string }

const enc = new TextEncoder();
const dec = new TextDecoder();

async function collect(routed: RoutedFiles, who: Scope, level: 'user' | 'agent', dir = ''): Promise<{ path: string; content: string }[]> {
  const out: { path: string; content: string }[] = [];
  for (const e of await routed.list(who, dir, { level: level === 'agent' ? 'agent' : 'effective' })) {
    if (e.directory) out.push(...await collect(routed, who, level, e.path));
    else if (e.level === level) {
      const f = await routed.read(who, e.path, { level: level === 'agent' ? 'agent' : 'effective' });
      if (f && f.level === level) out.push({ path: e.path, content: f.content });
    }
  }
  return out;
}

async function pickFolder(title: string, folder?: string): Promise<vscode.Uri | undefined> {
  if (folder) return vscode.Uri.file(folder);
  const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, title, openLabel: 'Choose Folder' });
  return picked?.[0];
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return dec.decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** Asks once per run when the caller did not say; 'cancel' stops before anything is written. */
async function resolveConflicts(conflicts: string[], onConflict: OnConflict): Promise<'overwrite' | 'skip' | 'cancel'> {
  if (!conflicts.length || onConflict !== 'ask') return onConflict === 'ask' ? 'skip' : onConflict;
  const shown = conflicts.slice(0, 5).join(', ') + (conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : '');
  const pick = await vscode.window.showWarningMessage(`Pincer: ${conflicts.length} file(s) already exist with other content: ${shown}.`, { modal: true }, 'Overwrite', 'Skip Those');
  return pick === 'Overwrite' ? 'overwrite' : pick === 'Skip Those' ? 'skip' : 'cancel';
}

export async function exportMemoryCommand(host: MemoryHost, folder?: string, opts: { onConflict?: OnConflict } = {}): Promise<{ files: number; folder: string } | undefined> {
  const s = await host.services();
  const target = s && (await pickFolder('Pincer: export memory to folder', folder));
  if (!s || !target) return undefined;
  await host.agents.ready();
  const files: FileOut[] = [];
  for (const agent of host.agents.registry.all()) {
    const who = { agentId: agent.id, userId: host.userId() };
    for (const level of ['user', 'agent'] as const) {
      for (const f of await collect(s.routed, who, level)) files.push({ agentId: agent.id, level, ...f });
    }
  }
  const uriOf = (f: FileOut) => vscode.Uri.joinPath(target, f.agentId, ...(f.level === 'agent' ? [AGENT_LEVEL_DIR] : []), ...f.path.split('/'));
  const conflicts: string[] = [];
  for (const f of files) {
    const existing = await readText(uriOf(f));
    if (existing !== undefined && existing !== f.content) conflicts.push(vscode.workspace.asRelativePath(uriOf(f)));
  }
  const decision = await resolveConflicts(conflicts, opts.onConflict ?? 'ask');
  if (decision === 'cancel') return undefined;
  let written = 0;
  for (const f of files) {
    const uri = uriOf(f);
    const existing = await readText(uri);
    if (existing === f.content || (existing !== undefined && decision === 'skip')) continue;
    await vscode.workspace.fs.writeFile(uri, enc.encode(f.content));
    written++;
  }
  const manifest = { format: 'pincer-memory', version: 1, user: host.userId(), agents: [...new Set(files.map((f) => f.agentId))], files: files.length };
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(target, MANIFEST), enc.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  if (!folder) void vscode.window.showInformationMessage(`Pincer: exported ${files.length} memory and context file(s) to ${target.fsPath} (${written} written).`);
  return { files: files.length, folder: target.fsPath };
}

async function walk(dir: vscode.Uri, rel = ''): Promise<{ rel: string; uri: vscode.Uri }[]> {
  const out: { rel: string; uri: vscode.Uri }[] = [];
  for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
    const uri = vscode.Uri.joinPath(dir, name);
    const r = rel ? `${rel}/${name}` : name;
    if (type & vscode.FileType.Directory) out.push(...await walk(uri, r));
    else if (type & vscode.FileType.File) out.push({ rel: r, uri });
  }
  return out;
}

export async function importMemoryCommand(host: MemoryHost, folder?: string, opts: { onConflict?: OnConflict; agent?: string } = {}): Promise<{ imported: number; unchanged: number; skipped: string[] } | undefined> {
  const s = await host.services();
  const source = s && (await pickFolder('Pincer: import memory from folder', folder));
  if (!s || !source) return undefined;
  const laidOut = (await readText(vscode.Uri.joinPath(source, MANIFEST))) !== undefined;
  const plainAgent = laidOut ? undefined : await pickAgent(host, opts.agent);
  if (!laidOut && !plainAgent) return undefined;
  const plan: (FileOut & { shown: string })[] = [];
  const skipped: string[] = [];
  for (const f of await walk(source)) {
    if (f.rel === MANIFEST) continue;
    const parts = f.rel.split('/');
    let agentId = plainAgent ?? parts.shift() ?? '';
    let level: 'user' | 'agent' = 'user';
    if (laidOut && parts[0] === AGENT_LEVEL_DIR) {
      level = 'agent';
      parts.shift();
    }
    let path = parts.join('/');
    if (!laidOut) {
      if (!/\.md$/i.test(path)) {
        skipped.push(f.rel);
        continue;
      }
      path = routeOf(path) ? path : `memory/${path}`;
      agentId = plainAgent!;
    }
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(agentId) || !routeOf(path, host.rt.currentConfig.memory.routedContextFiles)) {
      skipped.push(f.rel);
      continue;
    }
    const content = await readText(f.uri);
    if (content === undefined) skipped.push(f.rel);
    else plan.push({ agentId, level, path, content, shown: f.rel });
  }
  const who = (agentId: string) => ({ agentId, userId: host.userId() });
  const conflicts: string[] = [];
  for (const f of plan) {
    const cur = await s.routed.read(who(f.agentId), f.path, { level: f.level === 'agent' ? 'agent' : 'effective' });
    if (cur && cur.level === f.level && cur.content !== f.content) conflicts.push(f.shown);
  }
  const decision = await resolveConflicts(conflicts, opts.onConflict ?? 'ask');
  if (decision === 'cancel') return undefined;
  let imported = 0;
  let unchanged = 0;
  for (const f of plan) {
    const cur = await s.routed.read(who(f.agentId), f.path, { level: f.level === 'agent' ? 'agent' : 'effective' });
    const mine = cur && cur.level === f.level;
    if (mine && cur.content === f.content) unchanged++;
    else if (mine && decision === 'skip') skipped.push(f.shown);
    else {
      await s.routed.write(who(f.agentId), f.path, f.content, { actor: 'person', level: f.level });
      imported++;
    }
  }
  if (!folder) void vscode.window.showInformationMessage(`Pincer: imported ${imported} file(s)${unchanged ? `, ${unchanged} already up to date` : ''}${skipped.length ? `, ${skipped.length} skipped` : ''}.`);
  return { imported, unchanged, skipped };
}
