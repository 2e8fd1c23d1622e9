// An image on its way to the model, as plain data: a tool result's screenshot or file, a picture the
// person pasted into the chat. It is JSON (base64 bytes, no class instances) because turns are stored
// in the session and replayed to any provider. Providers that accept images send it as an image part
// of their own wire format; for a model that does not, the same image becomes a line of text saying
// what it was and where it came from, so the model can still tell the person.

/** The formats every provider that accepts images takes (Anthropic, OpenAI, VS Code's models). */
export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImagePart {
  type: 'image';
  mimeType: ImageMimeType;
  /** The image's bytes, base64. */
  data: string;
  width: number;
  height: number;
  /** Size of the bytes in `data`. */
  bytes: number;
  /** Where it came from, for a person and for a model that cannot see it: a workspace path, a URL, a tool. */
  source: string;
  /** Set when it was shrunk to fit the providers' limits: the size it had. */
  original?: { width: number; height: number; bytes: number };
  /**
   * A small copy for a person to see again (a pasted image when its chat is reopened); never sent to a
   * model. Absent when the image itself is small enough to show (see thumbnailOf) or none could be made.
   */
  thumbnail?: { mimeType: ImageMimeType; data: string };
}

/** The small copy kept of a pasted image: what the chat shows as its thumbnail (96×72 CSS pixels, twice that on a dense screen). */
export const THUMBNAIL_LIMITS = { maxEdge: 192, maxBytes: 32_000 };

/** What the chat may show of `image`: its small copy, the image itself when that is as small, or undefined (too large to keep). */
export function thumbnailOf(image: ImagePart): { mimeType: ImageMimeType; data: string } | undefined {
  if (image.thumbnail) return image.thumbnail;
  return image.bytes <= THUMBNAIL_LIMITS.maxBytes ? { mimeType: image.mimeType, data: image.data } : undefined;
}

const FORMAT_NAMES: Record<ImageMimeType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

/** "PNG, 800×600 pixels, 41,230 bytes" (with the size it was shrunk from, if it was). */
export function describeImage(image: ImagePart): string {
  const shrunk = image.original ? ` (shrunk from ${image.original.width}×${image.original.height}, ${image.original.bytes.toLocaleString('en-US')} bytes)` : '';
  return `${FORMAT_NAMES[image.mimeType]}, ${image.width}×${image.height} pixels, ${image.bytes.toLocaleString('en-US')} bytes${shrunk}`;
}

/** The line a model that is not shown the image reads instead; `why` says why it is not shown. */
export function imagePlaceholder(image: ImagePart, why: string): string {
  return `[Image not shown (${why}): ${describeImage(image)}, from ${image.source}.]`;
}
