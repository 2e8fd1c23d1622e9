// The worker thread that turns fetched HTML into markdown (src/core/web/html-converter.ts starts it).
// It holds the converter's parser (htmlparser2): the runtime that every tool call loads never does, and
// a hostile page that takes long to convert blocks this thread, not the caller's.
import { parentPort } from 'node:worker_threads';
import type { ConvertReply, ConvertRequest } from './html-converter';
import { htmlToMarkdown } from './html-to-markdown';

parentPort?.on('message', (m: ConvertRequest) => {
  let reply: ConvertReply;
  try {
    reply = { id: m.id, page: htmlToMarkdown(m.html, m.url) };
  } catch (e) {
    reply = { id: m.id, error: (e as Error).message };
  }
  parentPort?.postMessage(reply);
});
