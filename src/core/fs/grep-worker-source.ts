// The code of the worker that runs a model's regex for the grep fallback. It is a string evaluated by
// `new Worker(src, { eval: true })` rather than a file beside this one, so it survives bundling
// (esbuild folds src/ into one file and a worker path would point nowhere). Keep it plain ES2020
// CommonJS: it is not compiled.
//
// Protocol: workerData { source, flags } compiles the regex once, then { ready: true }. Each message { id, bytes, max }
// answers { id, binary: true } when the content has a NUL byte (ripgrep's rule), else
// { id, hits: [line, index, line, index, …] }: 1-based line numbers of matching lines and where the
// first match starts (characters), at most `max` lines.
export const GREP_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
// Drops a UTF-8 BOM, as ripgrep does; the host drops it too, so match offsets agree.
const decoder = new TextDecoder('utf-8');
// Booting a worker takes tens of milliseconds, more on a busy machine: the watchdog starts now.
parentPort.postMessage({ ready: true });
parentPort.on('message', (m) => {
  const bytes = m.bytes;
  if (bytes.indexOf(0) !== -1) {
    parentPort.postMessage({ id: m.id, binary: true });
    return;
  }
  const text = decoder.decode(bytes);
  const hits = [];
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    let nl = text.indexOf('\\n', start);
    if (nl === -1) nl = text.length;
    lineNo++;
    let end = nl;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const r = re.exec(text.slice(start, end));
    if (r) {
      hits.push(lineNo, r.index);
      if (hits.length >= 2 * m.max) break;
    }
    start = nl + 1;
  }
  parentPort.postMessage({ id: m.id, hits });
});
`;

/** Flags for a model's pattern: Unicode-aware when it compiles that way, else legacy mode. */
export function compileFlags(source: string, ignoreCase: boolean): { flags: string } | { error: string } {
  const i = ignoreCase ? 'i' : '';
  try {
    new RegExp(source, `u${i}`);
    return { flags: `u${i}` };
  } catch {
    try {
      new RegExp(source, i);
      return { flags: i };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }
}

/** A literal string as a regex source. */
export function escapeRegex(s: string): string {
  // No `\-`: outside a class it is a syntax error in Unicode mode, and `-` needs no escape there.
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
