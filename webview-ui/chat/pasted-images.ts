// Images the person pastes or drops into the input, read in the page as base64 for the `send`
// message (or read by the host, for files dropped from VS Code's Explorer, and posted back). Only the four formats every image-reading model takes are accepted, each at most
// CHAT_LIMITS.imageBytes: the page refuses the rest at once, with the reason, rather than after a
// round trip. The type here is the browser's word for it; the host recognises the image by its bytes.
// Each image is shown as a thumbnail through a blob: URL of the file itself (the page's CSP allows
// images from blob: only, which no other page or message can mint); whoever shows it last revokes it.
import { CHAT_LIMITS, PASTED_IMAGE_TYPES, type PastedImage } from '../../src/core/chat/chat-protocol';

/** An image waiting in the composer: what is sent, its size for the chip, and its thumbnail's blob: URL. */
export interface PendingImage extends PastedImage {
  size: number;
  url: string;
}

const TYPES: readonly string[] = PASTED_IMAGE_TYPES;

/** base64 bytes as a Blob: a stored thumbnail's blob: URL (the only images the page's CSP allows), an image the host read. */
export function blobOf(mimeType: string, data: string): Blob {
  return new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: mimeType });
}

/**
 * The resources of a drop from VS Code (the Explorer, an editor tab): its full URI list (the standard
 * `text/uri-list` carries only the first), else its resource list; links to web pages are not files.
 */
export function droppedUris(data: DataTransfer): string[] {
  let uris = (data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list')).split(/\r?\n/).map((u) => u.trim()).filter((u) => u && u[0] !== '#');
  try {
    uris = uris.length ? uris : JSON.parse(data.getData('resourceurls') || '[]') as string[];
  } catch { /* not a list: nothing from it */ }
  return uris.filter((u) => typeof u === 'string' && u.length <= CHAT_LIMITS.path && !/^https?:/i.test(u)).slice(0, CHAT_LIMITS.chips);
}

/** "812 bytes", "41 KB", "3.2 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/**
 * The files of one paste or drop: those that can go to the model as images (at most `room` of them),
 * and a sentence for each one refused.
 */
export async function readImages(files: readonly File[], room: number): Promise<{ images: PendingImage[]; refused: string[] }> {
  const images: PendingImage[] = [];
  const refused: string[] = [];
  for (const file of files) {
    const name = (file.name || 'pasted image').slice(0, CHAT_LIMITS.label);
    if (!TYPES.includes(file.type)) refused.push(`${name} is not an image Pincer can send: paste or drop PNG, JPEG, GIF or WebP.`);
    else if (file.size === 0) refused.push(`${name} is empty.`);
    else if (file.size > CHAT_LIMITS.imageBytes) refused.push(`${name} is ${formatSize(file.size)}; an image may have at most ${CHAT_LIMITS.imageBytes / 1_000_000} MB.`);
    else if (images.length >= room) refused.push(`${name} was not added: a message takes at most ${CHAT_LIMITS.images} images.`);
    else {
      try {
        images.push({ name, mimeType: file.type as PendingImage['mimeType'], data: await base64(file), size: file.size, url: URL.createObjectURL(file) });
      } catch {
        refused.push(`${name} could not be read.`);
      }
    }
  }
  return { images, refused };
}
