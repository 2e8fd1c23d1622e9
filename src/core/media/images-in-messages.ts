// Which images of a conversation go to the model as images. Every request re-sends the whole
// conversation, so an image from twenty steps ago would be paid for (and count against the
// providers' per-request image limits) on every request after it: only the newest few go as images,
// older ones as their placeholder line. For a model that takes no images, none go as images.
import type { MessagePart, ModelMessage, ToolResultPart } from '../agent/model-types';
import { imagePlaceholder, type ImagePart } from './image-part';

/** Images sent as images in one request; older ones are described in words. */
export const MAX_IMAGES_PER_REQUEST = 8;

const OLDER = 'an earlier image of this conversation; ask for it again to see it';

/** Images in the messages: pasted ones and those tool results carry. */
export function countImages(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const m of messages) for (const p of m.parts) total += p.type === 'image' ? 1 : p.type === 'tool-result' ? p.images?.length ?? 0 : 0;
  return total;
}

/**
 * The messages with all but the newest `keep` images turned into their placeholder text, which gives
 * `why` (by default: an earlier image). Messages without images are returned as they are.
 */
export function imagesAsText(messages: readonly ModelMessage[], keep: number, why: string = OLDER): ModelMessage[] {
  const total = countImages(messages);
  let toText = Math.max(0, total - Math.max(0, keep));
  if (toText === 0) return [...messages];
  // Oldest first: the messages are in order, and so are the images inside each.
  return messages.map((m) => {
    if (toText === 0 || !m.parts.some((p) => p.type === 'image' || (p.type === 'tool-result' && p.images?.length))) return m;
    const parts = m.parts.map((p): MessagePart => {
      if (p.type === 'image' && toText > 0) {
        toText--;
        return { type: 'text', text: imagePlaceholder(p, why) };
      }
      if (p.type !== 'tool-result' || !p.images?.length || toText === 0) return p;
      const described: ImagePart[] = p.images.slice(0, toText);
      toText -= described.length;
      const kept = p.images.slice(described.length);
      const content = [p.content, ...described.map((i) => imagePlaceholder(i, why))].join('\n\n');
      const out: ToolResultPart = { ...p, content };
      if (kept.length) out.images = kept;
      else delete out.images;
      return out;
    });
    return { ...m, parts };
  });
}
