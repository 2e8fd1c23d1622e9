// write_file: creates or replaces a whole file, or appends to one. The content is what the model
// sent: `""` is an empty file (never a deletion), and a call without `content` is refused by the
// schema rather than taken as empty (a cut-off call must not wipe a file). Replacing an existing
// file keeps its encoding, BOM and line-ending style, so rewriting a CRLF file does not turn every
// line into a diff. The change goes to the reviewer; the write itself is atomic (WorkspaceFs).
import { z } from 'zod';
import { hasPlaceholder, placeholderInNewMessage, redactedStandIns } from '../edit-redaction';
import { reviewChanges } from '../review-result';
import { convertEol, countLines, decodeLossy, decodeText, encodeText, type TextFormat } from '../text-encoding';
import { type FsToolDeps, type ProposedChange } from '../types';
import { defineTool, fail, ok, type Tool } from '../../tools/types';

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get path() {
    return z.string().min(1).describe('File to write, relative to the workspace root (or absolute inside it). Missing parent folders are created.');
  },
  get content() {
    return z.string().describe('The complete new content of the file (or the text to append). "" writes an empty file.');
  },
  get append() {
    return z.boolean().optional().describe('Add content to the end of the file instead of replacing it (creates the file if missing). Default false.');
  },
}).strict();

const description = 'Creates a file, or replaces an existing file\'s entire content, or (append: true) adds text to its end. ' +
  'Parent folders are created. To change part of an existing file prefer edit (or apply_patch for several files): ' +
  'rewriting a whole file risks dropping content you did not read. The change may be shown to the user for review; ' +
  'the result says whether it was accepted, rejected (with the user\'s reason) or edited by the user.';

const UTF8: TextFormat = { encoding: 'utf8', bom: false, eol: '\n' };

function size(bytes: number, lines: number): string {
  return `${lines} line${lines === 1 ? '' : 's'}, ${bytes} byte${bytes === 1 ? '' : 's'}`;
}

export function createWriteFileTool(deps: FsToolDeps): Tool {
  return defineTool({
    name: 'write_file',
    description,
    parameters,
    group: 'fs',
    capability: 'mutating',
    async execute(args, ctx) {
      // A refused path is a PathError: the pipeline answers with its message.
      const target = await deps.guard.resolve(args.path, 'write');
      const rel = target.rel || target.abs;
      const st = await deps.fs.stat(target.abs);
      if (st && st.type !== 'file') {
        return fail(`${rel} is a ${st.type === 'directory' ? 'folder' : st.type}, not a file; give the path of a file inside it.`);
      }
      const oldBytes = st ? await deps.fs.readFile(target.abs, ctx.signal) : undefined;
      const decoded = oldBytes ? decodeText(oldBytes) : undefined;
      const format: TextFormat = decoded?.ok ? decoded : UTF8;
      const before = oldBytes ? decodeLossy(oldBytes) : undefined;
      // A file that is not text is replaced as UTF-8; one that is keeps its format. Models write LF;
      // a CRLF file keeps CRLF.
      const content = decoded?.ok && format.eol === '\r\n' ? convertEol(args.content, '\r\n') : args.content;

      if (args.append && oldBytes) {
        if (content === '') return ok(`Nothing to append: content is empty, so ${rel} was left as it is.`, { details: { path: rel, unchanged: true } });
        // The existing bytes stay exactly as they are; only the new text is encoded.
        const added = encodeText(content, { encoding: format.encoding, bom: false });
        const afterBytes = Buffer.concat([oldBytes, added]);
        const change: ProposedChange = { tool: 'write_file', path: target, before, after: `${before}${content}`, afterBytes, turn: ctx.turnId ?? ctx.sessionKey };
        const what = `appended ${size(added.length, countLines(content))}; the file now has ${afterBytes.length} bytes`;
        return reviewChanges(deps, 'write_file', [{ change, what }], ctx.signal, { path: rel, mode: 'append', bytes: added.length, totalBytes: afterBytes.length });
      }

      if (before !== undefined && hasPlaceholder(content)) {
        const standIns = redactedStandIns(content, before);
        if (standIns.length) return fail(placeholderInNewMessage('content', rel, standIns), { details: { path: rel, redacted: true } });
      }
      const afterBytes = encodeText(content, format);
      if (oldBytes && Buffer.from(oldBytes).equals(afterBytes)) {
        return ok(`${rel} already has exactly this content; nothing was written.`, { details: { path: rel, unchanged: true } });
      }
      const change: ProposedChange = { tool: 'write_file', path: target, before, after: content, afterBytes, turn: ctx.turnId ?? ctx.sessionKey };
      const lines = countLines(content);
      const what = oldBytes
        ? `overwritten (${size(afterBytes.length, lines)}; it had ${size(oldBytes.length, countLines(before ?? ''))})`
        : `created (${size(afterBytes.length, lines)})`;
      return reviewChanges(deps, 'write_file', [{ change, what }], ctx.signal, {
        path: rel, mode: oldBytes ? 'overwrite' : 'create', bytes: afterBytes.length, lines,
        ...(format.eol === '\r\n' ? { eol: 'crlf' } : {}), ...(format.bom ? { bom: true } : {}),
      });
    },
  });
}
