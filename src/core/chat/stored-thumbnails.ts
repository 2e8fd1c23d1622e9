// Images pasted before the chat kept small copies are stored whole but without one, so a large one
// showed "too large to keep a preview" although the full image is in the database. When such a
// message is shown again, each of its images that the page would show gets its small copy, made from
// the stored full image by the same downscale the send path uses (prepareImage with `thumbnail`), and
// the message is stored again with it: the work is done on the first reopen only.
import type { MessagePart } from '../agent/model-types';
import { prepareImage } from '../media/image-fit';
import { thumbnailOf } from '../media/image-part';
import type { StoredMessage } from '../sessions/session-store';
import { CHAT_LIMITS } from './chat-protocol-parts';

/**
 * Gives the images of `messages`' user messages their missing small copies, in place, and hands each
 * changed message to `keep` (the session store's replaceParts). An image that cannot be made smaller
 * (a WebP, which is not decoded here, or one that no longer decodes) stays as it was, and so does the
 * page if `keep` fails (the copy is shown now and made again next time). Returns how many were made.
 */
export async function fillStoredThumbnails(
  messages: readonly StoredMessage[], keep: (seq: number, parts: readonly MessagePart[]) => Promise<void>, signal?: AbortSignal,
): Promise<number> {
  let made = 0;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    let changed = false;
    // Only the images the transcript shows (chat-history.ts keeps the first CHAT_LIMITS.images).
    const shown = m.parts.flatMap((p) => (p.type === 'image' ? [p] : [])).slice(0, CHAT_LIMITS.images);
    for (const image of shown) {
      if (thumbnailOf(image) || image.mimeType === 'image/webp') continue;
      try {
        const again = await prepareImage(Buffer.from(image.data, 'base64'), image.source, { signal, thumbnail: true });
        if (!again.thumbnail) continue;
        image.thumbnail = again.thumbnail;
        changed = true;
        made++;
      } catch (e) {
        // A preview is a nicety: a stored image that fails now is shown by name, as before.
        if (signal?.aborted) throw e;
      }
    }
    if (changed) await keep(m.seq, m.parts).catch(() => undefined);
  }
  return made;
}
