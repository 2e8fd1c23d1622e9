// Resources dropped on the chat from VS Code's Explorer or an editor tab (`drop-uris`): each URI looked
// up through VS Code's file system (local or remote alike), what to do with it decided by core
// (dropped-files.ts), image files read and posted back to the page, other files attached as chips.
import * as vscode from 'vscode';
import { planDrop, type DroppedEntry } from '../../core/chat/dropped-files';
import type { ContextChip, PastedImage, ToWebview } from '../../core/chat/chat-protocol';

type Entry = DroppedEntry & { uri?: vscode.Uri };

async function lookUp(raw: string): Promise<Entry> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(raw, true);
  } catch {
    return { path: raw, kind: 'missing' };
  }
  try {
    const st = await vscode.workspace.fs.stat(uri);
    return { path: uri.path, uri, kind: st.type & vscode.FileType.Directory ? 'folder' : 'file', size: st.size };
  } catch {
    return { path: uri.path, kind: 'missing' };
  }
}

/** The workspace folders on `uri`'s file system (a remote folder's path is not a local one's). */
const rootsOf = (e: Entry) => (vscode.workspace.workspaceFolders ?? [])
  .filter((f) => e.uri && f.uri.scheme === e.uri.scheme && f.uri.authority === e.uri.authority).map((f) => f.uri.path);

/** Handles one drop: images to the page, file chips through `attach`, refusals as one error. */
export async function dropUris(uris: readonly string[], post: (m: ToWebview) => void, attach: (chips: ContextChip[]) => void): Promise<void> {
  const plan = planDrop(await Promise.all(uris.map(lookUp)), rootsOf);
  const images: PastedImage[] = [];
  for (const { entry, rel, mimeType } of plan.images) {
    try {
      images.push({ name: rel.slice(-500), mimeType, data: Buffer.from(await vscode.workspace.fs.readFile(entry.uri!)).toString('base64') });
    } catch (e) {
      plan.refused.push(`${rel} could not be read (${(e as Error).message}).`);
    }
  }
  if (images.length) post({ type: 'attach-images', images });
  if (plan.chips.length) attach(plan.chips);
  if (plan.refused.length) post({ type: 'error', message: plan.refused.join(' ').slice(0, 4000) });
}
