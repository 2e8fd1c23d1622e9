// read_image: an image file in the workspace, shown to the model as an image (with its type and size
// in words beside it). The file goes through the same path guard as read_file, is recognised by its
// bytes rather than its name, is decoded once before it is sent (a cut-short or disguised file is
// refused, never passed to a provider), and is shrunk when over the providers' limits.
import { z } from 'zod';
import type { FsToolDeps } from '../fs/types';
import { defineTool, fail, ok, type Tool } from '../tools/types';
import { IMAGE_LIMITS, ImageRefused, prepareImage } from './image-fit';
import { describeImage } from './image-part';

export const READ_IMAGE_LIMITS = {
  /** Bytes read from disk at most: the decoder holds the file and its pixels in memory. */
  maxFileBytes: 30 * 1024 * 1024,
};

const parameters = z.object({
  path: z.string().min(1).describe('The image (PNG, JPEG, GIF or WebP): relative to the workspace root, or absolute.'),
}).strict();

/** What to do when the chat's model reads no images: name models that do. */
const NEEDS_VISION = 'The model this chat runs on does not take images, so read_image cannot show it one. '
  + 'Tell the user; with "Pincer: Select Model…" they can pick one that does (a Claude model through Anthropic, '
  + 'gpt-4.1 or gpt-4o through OpenAI, a vision model such as llava or qwen2.5-vl on a local server, or a VS Code model that takes images).';

export function createReadImageTool(deps: Pick<FsToolDeps, 'guard' | 'fs'>): Tool {
  return defineTool({
    name: 'read_image',
    description: 'Shows you an image file from the workspace (PNG, JPEG, GIF or WebP: screenshots, diagrams, mockups, photos), '
      + `with its type and size. Images larger than ${IMAGE_LIMITS.maxEdge} pixels a side are shrunk to fit first. `
      + 'Use it to look at a picture; use read_file for text and read_document for PDFs.',
    parameters,
    group: 'media_read',
    capability: 'read-only',
    async execute(args, ctx) {
      if (ctx.imageInput === false) return fail(NEEDS_VISION);
      const target = await deps.guard.resolve(args.path, 'read');
      const shown = target.rel || target.input;
      const st = await deps.fs.stat(target.abs);
      if (!st) return fail(`File not found: ${shown}. Use glob or list_files to find the right path.`);
      if (st.type !== 'file') return fail(`${shown} is not a file.`);
      if (st.size > READ_IMAGE_LIMITS.maxFileBytes) {
        return fail(`${shown} is ${st.size.toLocaleString('en-US')} bytes; read_image reads image files up to ${READ_IMAGE_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes. Make a smaller copy first.`);
      }
      const bytes = await deps.fs.readFile(target.abs, ctx.signal);
      // The file may have grown since it was measured.
      if (bytes.length > READ_IMAGE_LIMITS.maxFileBytes) return fail(`${shown} grew past ${READ_IMAGE_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes while it was read.`);
      try {
        const image = await prepareImage(bytes, shown, { signal: ctx.signal });
        return ok(`${shown}: ${describeImage(image)}. The image follows.`, {
          images: [image],
          details: { path: shown, mimeType: image.mimeType, width: image.width, height: image.height, bytes: image.bytes, ...(image.original ? { original: image.original } : {}) },
        });
      } catch (e) {
        if (e instanceof ImageRefused) return fail(e.message);
        throw e;
      }
    },
  });
}
