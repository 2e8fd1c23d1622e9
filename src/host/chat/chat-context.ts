// Context chips: what the person attaches to a message. The editor's chips follow the active editor
// (its file, and the selection when there is one); the message carries them as text the model reads
// (src/core/chat/chips-text.ts).
import * as vscode from 'vscode';
import type { ContextChip } from '../../core/chat/chat-protocol';
import { SELECTION_CHARS } from '../../core/chat/chips-text';

export function editorChips(): ContextChip[] {
  const e = vscode.window.activeTextEditor;
  if (!e || e.document.uri.scheme !== 'file') return [];
  const rel = vscode.workspace.asRelativePath(e.document.uri, false);
  const chips: ContextChip[] = [{ kind: 'file', path: rel, origin: 'editor' }];
  const s = e.selection;
  if (!s.isEmpty) {
    const text = e.document.getText(s);
    chips.push({ kind: 'selection', path: rel, origin: 'editor', range: { startLine: s.start.line + 1, endLine: s.end.line + 1 }, text: text.slice(0, SELECTION_CHARS) });
  }
  return chips;
}
