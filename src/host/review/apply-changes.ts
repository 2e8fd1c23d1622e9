// Landing accepted changes through a WorkspaceEdit, so each one is an undoable step, an open editor
// with unsaved edits is updated rather than overwritten behind its back, and the file is saved.
import * as vscode from 'vscode';
import type { ProposedChange } from '../../core/fs/types';
import { uriOfPath } from '../virtual-folders';

export async function applyChanges(changes: { change: ProposedChange; content: string | undefined }[]): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const toSave: vscode.Uri[] = [];
  for (const { change, content } of changes) {
    const uri = uriOfPath(change.path.abs);
    if (content === undefined) {
      edit.deleteFile(uri, { ignoreIfNotExists: true });
      continue;
    }
    if (change.before === undefined) {
      const bytes = content === change.after && change.afterBytes ? change.afterBytes : Buffer.from(content, 'utf8');
      edit.createFile(uri, { overwrite: true, contents: bytes });
      continue;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty && doc.getText().replace(/\r\n/g, '\n') !== change.before.replace(/\r\n/g, '\n')) {
      throw new Error(`${change.path.rel} has unsaved changes in an editor that the proposal did not see; save or revert them, then ask again.`);
    }
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    // The document keeps its own line endings and BOM; the text is normalised to them on insert.
    edit.replace(uri, whole, content);
    toSave.push(uri);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit (the file may have changed or be read-only).');
  for (const uri of toSave) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) await doc.save();
  }
}
