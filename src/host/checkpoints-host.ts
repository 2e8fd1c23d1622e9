// "Pincer: Restore Checkpoint…": the files a turn changed, back as they were before its first change.
// Checkpoints hold only the files a turn touched (captured before each change lands), in the
// workspace database. Restoring is the person's own act, so it writes directly — after a
// confirmation that lists every file, and never over an editor with unsaved changes.
import * as vscode from 'vscode';
import type { CheckpointStore } from '../core/fs/checkpoint-store';
import { uriOfPath } from './virtual-folders';

/** `confirm: false` skips the confirmation (tests, other extensions that confirmed themselves). */
export async function restoreCheckpointCommand(store: CheckpointStore | undefined, id?: number, opts: { confirm?: boolean } = {}): Promise<{ restored: string[]; deleted: string[] } | undefined> {
  if (!store) {
    void vscode.window.showWarningMessage('Pincer: checkpoints need the workspace database, which is not available in this window (see the Pincer Tool Log).');
    return undefined;
  }
  if (id === undefined) {
    const list = await store.list(50);
    if (!list.length) {
      void vscode.window.showInformationMessage('Pincer: no checkpoints yet. One is kept before the first change of each turn.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(list.map((c) => ({
      label: c.label || c.turn, description: new Date(c.createdAt).toLocaleString(),
      detail: `${c.files.length} file${c.files.length === 1 ? '' : 's'}: ${c.files.map((f) => vscode.workspace.asRelativePath(uriOfPath(f))).join(', ')}`, id: c.id,
    })), { title: 'Pincer: Restore Checkpoint', placeHolder: 'Files go back to how they were before this turn changed them', matchOnDetail: true });
    if (!pick) return undefined;
    id = pick.id;
  }
  const files = await store.files(id);
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && files.some((f) => uriOfPath(f.path).toString() === d.uri.toString()));
  if (dirty.length) {
    void vscode.window.showWarningMessage(`Pincer: save or revert ${dirty.map((d) => vscode.workspace.asRelativePath(d.uri)).join(', ')} first; restoring would overwrite unsaved changes.`);
    return undefined;
  }
  const names = files.map((f) => `${vscode.workspace.asRelativePath(uriOfPath(f.path))}${f.existed ? '' : ' (created by the turn: deleted)'}`);
  if (opts.confirm !== false) {
    const go = await vscode.window.showWarningMessage(`Restore ${files.length} file(s) to their state before this turn?`, { modal: true, detail: names.join('\n') }, 'Restore');
    if (go !== 'Restore') return undefined;
  }
  const restored: string[] = [];
  const deleted: string[] = [];
  for (const f of files) {
    const uri = uriOfPath(f.path);
    if (f.existed) {
      await vscode.workspace.fs.writeFile(uri, f.content ?? new Uint8Array());
      restored.push(f.path);
    } else {
      // To the trash where there is one (remote and web hosts may have none), else for good.
      try {
        await vscode.workspace.fs.delete(uri, { useTrash: true });
      } catch {
        await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
      }
      if (!(await vscode.workspace.fs.stat(uri).then(() => true, () => false))) deleted.push(f.path);
    }
  }
  void vscode.window.showInformationMessage(`Pincer: restored ${restored.length} file(s)${deleted.length ? `, removed ${deleted.length}` : ''}.`);
  return { restored, deleted };
}
