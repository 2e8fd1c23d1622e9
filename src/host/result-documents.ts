// Read-only documents for results: `pincer-result:/…` URIs whose text lives in memory. A person reads
// ForUser rendered (VS Code's markdown preview); "what the model saw" (ForLLM) opens as plain text
// beside it on demand.
import * as vscode from 'vscode';

export const RESULT_SCHEME = 'pincer-result';
const KEEP = 50;

export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private seq = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? 'This result is no longer kept (Pincer keeps the last 50). Run the tool again.';
  }

  /** Stores text under a readable, unique path and returns its URI. */
  put(name: string, ext: 'md' | 'txt', text: string): vscode.Uri {
    const path = `/${++this.seq}-${name.replace(/[^\w.-]+/g, '-')}.${ext}`;
    this.docs.set(path, text);
    while (this.docs.size > KEEP) this.docs.delete(this.docs.keys().next().value as string);
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path });
  }

  async open(uri: vscode.Uri, beside = false): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (uri.path.endsWith('.md')) await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    return vscode.window.showTextDocument(doc, { preview: false, viewColumn: beside ? vscode.ViewColumn.Beside : undefined });
  }

  /** Shows a markdown result rendered; as a markdown editor if the preview is unavailable. */
  async preview(uri: vscode.Uri): Promise<void> {
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      await this.open(uri); // the built-in markdown extension is disabled: the source is still readable
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
