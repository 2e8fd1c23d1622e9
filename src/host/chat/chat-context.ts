// Context chips: what the person attaches to a message. The editor's chips follow the active editor
// (its file, and the selection when there is one); the message carries them as text the model reads.
// Files are named, not pasted: the model reads what it needs with read_file, through the path guard.
import * as vscode from 'vscode';
import type { ContextChip } from '../../core/chat/chat-protocol';

/** The longest selection sent with a message; a longer one is cut with a note. */
const SELECTION_CHARS = 20_000;

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

export async function chipsToText(chips: readonly ContextChip[]): Promise<string | undefined> {
  if (!chips.length) return undefined;
  const lines = ['Context the user attached:'];
  for (const c of chips) {
    if (c.kind === 'file') lines.push(`- file ${c.path} (read it with read_file when you need its content)`);
    else {
      const where = c.range ? `${c.path} lines ${c.range.startLine}-${c.range.endLine}` : c.path;
      const cut = (c.text?.length ?? 0) >= SELECTION_CHARS ? '\n[… the selection was cut here]' : '';
      lines.push(`- selection in ${where}:\n\`\`\`\n${c.text ?? ''}${cut}\n\`\`\``);
    }
  }
  return lines.join('\n');
}
