// Resources dropped on the chat from VS Code's Explorer or an editor tab (`drop-uris`): each URI looked
// up through VS Code's file system, checked by the toolset's path guard and planned by core
// (dropped-files.ts), image files read from the path the guard resolved and posted back to the page,
// other files attached as chips.
import * as vscode from 'vscode';
import { planGuardedDrop, type DroppedEntry } from '../../core/chat/dropped-files';
import type { ContextChip, PastedImage, ToWebview } from '../../core/chat/chat-protocol';
import type { PathResolver } from '../../core/fs/types';

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
    const local = uri.scheme === 'file' ? { local: uri.fsPath } : {};
    return { path: uri.path, uri, kind: st.type & vscode.FileType.Directory ? 'folder' : 'file', size: st.size, ...local };
  } catch {
    return { path: uri.path, kind: 'missing' };
  }
}

/** The workspace folders on `uri`'s file system (a remote folder's path is not a local one's). */
const rootsOf = (e: Entry) => (vscode.workspace.workspaceFolders ?? [])
  .filter((f) => e.uri && f.uri.scheme === e.uri.scheme && f.uri.authority === e.uri.authority).map((f) => f.uri.path);

/** Handles one drop: images to the page, file chips through `attach`, refusals as one error; `guard`: the toolset's path guard. */
export async function dropUris(
  uris: readonly string[], guard: () => Pick<PathResolver, 'resolve'>, post: (m: ToWebview) => void, attach: (chips: ContextChip[]) => void,
): Promise<void> {
  const plan = await planGuardedDrop(await Promise.all(uris.map(lookUp)), rootsOf, guard());
  const images: PastedImage[] = [];
  for (const { entry, rel, mimeType } of plan.images) {
    try {
      images.push({ name: rel.slice(-500), mimeType, data: Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(entry.abs!))).toString('base64') });
    } catch (e) {
      plan.refused.push(`${rel} could not be read (${(e as Error).message}).`);
    }
  }
  if (images.length) post({ type: 'attach-images', images });
  if (plan.chips.length) attach(plan.chips);
  if (plan.refused.length) post({ type: 'error', message: plan.refused.join(' ').slice(0, 4000) });
}
