// CodeLenses on a proposal: Accept and Reject at the top, and "Revert this change" on every hunk, so
// a person can keep some hunks of a proposal and drop others before accepting the rest.
import { structuredPatch } from 'diff';
import * as vscode from 'vscode';
import type { DiffReviewer } from './diff-reviewer';
import { PROPOSED_SCHEME } from './proposed-fs';

export interface Hunk {
  /** 0-based first line of the hunk in the proposal, and how many lines it spans there. */
  start: number;
  lines: number;
  /** The original lines the hunk replaced. */
  original: string[];
}

/** Hunks between the file as it was and the proposal as it is now (no context lines). */
export function hunks(before: string, now: string): Hunk[] {
  const patch = structuredPatch('a', 'b', before, now, '', '', { context: 0 });
  return patch.hunks.map((h) => ({
    start: Math.max(0, h.newLines === 0 ? h.newStart : h.newStart - 1),
    lines: h.newLines,
    original: h.lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1)),
  }));
}

/** The hunk whose lines (in the proposal) include `line`, or the deletion just above it; -1 if none. */
export function hunkAt(before: string, now: string, line: number): number {
  return hunks(before, now).findIndex((h) => (h.lines === 0 ? line === h.start || line === h.start - 1 : line >= h.start && line < h.start + h.lines));
}

export class HunkLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly reviewer: DiffReviewer) {
    reviewer.onDidChange.on(() => this.changed.fire());
  }

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const entry = this.reviewer.find(doc.uri);
    if (!entry || entry.proposedUri.toString() !== doc.uri.toString()) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: '$(check) Accept', command: 'pincer.review.accept', arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: '$(close) Reject', command: 'pincer.review.reject', arguments: [doc.uri] }),
    ];
    if (entry.change.before === undefined || entry.change.after === undefined) return lenses;
    for (const [i, h] of hunks(entry.change.before, doc.getText()).entries()) {
      const line = Math.min(h.start, Math.max(0, doc.lineCount - 1));
      lenses.push(new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title: '$(discard) Revert this change', command: 'pincer.review.revertHunk', arguments: [doc.uri, i],
      }));
    }
    return lenses;
  }
}

/** Puts the original lines of hunk `index` back into the proposal. */
export async function revertHunk(doc: vscode.TextDocument, before: string, index: number): Promise<boolean> {
  const h = hunks(before, doc.getText())[index];
  if (!h) return false;
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  const text = h.original.map((l) => l + eol).join('');
  if (h.lines === 0) {
    edit.insert(doc.uri, new vscode.Position(h.start, 0), text);
  } else {
    const end = h.start + h.lines;
    const range = end >= doc.lineCount
      ? new vscode.Range(h.start, 0, doc.lineCount - 1, doc.lineAt(doc.lineCount - 1).text.length)
      : new vscode.Range(h.start, 0, end, 0);
    edit.replace(doc.uri, range, end >= doc.lineCount ? text.replace(/\r?\n$/, '') : text);
  }
  return vscode.workspace.applyEdit(edit);
}

export const PROPOSAL_SELECTOR: vscode.DocumentSelector = { scheme: PROPOSED_SCHEME };
