// Turning a parsed patch into proposed changes, all-or-nothing: every path goes through the guard,
// every file is read and every hunk of every file is matched before a single change is proposed.
// Any failure returns all the problems found and no change at all.
//
// Decisions:
// - `*** Add File` over an existing file is refused: it would silently replace content the model
//   may never have read. The message points to Update File (or Delete File then Add File).
// - `*** Move to` onto an existing file is refused for the same reason; a move is proposed as two
//   changes (create the new path with the new content, delete the old one).
// - A patch that names the same file twice (two sections, or a move onto a path another section
//   touches) is refused: the result would depend on the order of the sections.
import type { ChangeSummary } from './review-result';
import { applyHunks } from './patch-apply';
import type { PatchOp } from './patch-parse';
import { countLines, decodeLossy, encodeText, readTextFile, unreadableMessage } from './text-encoding';
import { PathError, type Access, type FsToolDeps, type ResolvedPath } from './types';

export type PatchPlan = { ok: true; items: ChangeSummary[]; unchanged: string[] } | { ok: false; errors: string[] };

const MAX_ERRORS = 10;

function lines(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}

export async function planPatch(deps: Pick<FsToolDeps, 'guard' | 'fs'>, ops: readonly PatchOp[], signal: AbortSignal): Promise<PatchPlan> {
  const errors: string[] = [];
  const items: ChangeSummary[] = [];
  const unchanged: string[] = [];
  const touched = new Map<string, string>();

  const resolve = async (input: string, label: string, access: Access): Promise<ResolvedPath | undefined> => {
    try {
      const r = await deps.guard.resolve(input, access);
      const seen = touched.get(r.abs);
      if (seen) {
        errors.push(`${label}: ${r.rel || r.abs} is already changed by "${seen}" in this patch; put all changes to one file in one section.`);
        return undefined;
      }
      touched.set(r.abs, label);
      return r;
    } catch (e) {
      if (e instanceof PathError) {
        errors.push(`${label}: ${e.message}`);
        return undefined;
      }
      throw e;
    }
  };

  for (const op of ops) {
    if (errors.length >= MAX_ERRORS) break;
    signal.throwIfAborted();
    if (op.kind === 'add') {
      const label = `Add File: ${op.path}`;
      const target = await resolve(op.path, label, 'write');
      if (!target) continue;
      const st = await deps.fs.stat(target.abs);
      if (st) {
        errors.push(`${label}: ${target.rel} already exists${st.type === 'directory' ? ' (a folder)' : ''}. To change an existing file use "*** Update File"; to replace it entirely, "*** Delete File" it in one patch and add it in the next, or use write_file.`);
        continue;
      }
      const afterBytes = encodeText(op.content, { encoding: 'utf8', bom: false });
      items.push({ change: { tool: 'apply_patch', path: target, before: undefined, after: op.content, afterBytes }, what: `created (${lines(countLines(op.content))}, ${afterBytes.length} bytes)` });
    } else if (op.kind === 'delete') {
      const label = `Delete File: ${op.path}`;
      const target = await resolve(op.path, label, 'write');
      if (!target) continue;
      const st = await deps.fs.stat(target.abs);
      if (!st || st.type === 'directory') {
        errors.push(`${label}: ${target.rel} ${st ? 'is a folder; Delete File removes files only' : 'does not exist'}.`);
        continue;
      }
      const before = decodeLossy(await deps.fs.readFile(target.abs, signal));
      items.push({ change: { tool: 'apply_patch', path: target, before, after: undefined }, what: 'deleted' });
    } else {
      await planUpdate(op, resolve, deps, signal, errors, items, unchanged);
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, items, unchanged };
}

async function planUpdate(
  op: Extract<PatchOp, { kind: 'update' }>,
  resolve: (input: string, label: string, access: Access) => Promise<ResolvedPath | undefined>,
  deps: Pick<FsToolDeps, 'fs'>, signal: AbortSignal, errors: string[], items: ChangeSummary[], unchanged: string[],
): Promise<void> {
  const label = `Update File: ${op.path}`;
  const source = await resolve(op.path, label, 'write');
  const moveTo = op.moveTo !== undefined && op.moveTo !== op.path ? op.moveTo : undefined;
  const dest = moveTo !== undefined ? await resolve(moveTo, `Move to: ${moveTo}`, 'write') : undefined;
  if (!source || (moveTo !== undefined && !dest)) return;
  const file = await readTextFile(deps.fs, source.abs, signal);
  if (file.kind !== 'text') {
    const why = file.kind === 'missing' ? `${source.rel} does not exist; to create it use "*** Add File: ${op.path}"`
      : file.kind === 'directory' ? `${source.rel} is a folder` : unreadableMessage(source.rel, file.reason);
    errors.push(`${label}: ${why}.`);
    return;
  }
  const doc = file.decoded;
  const applied = op.hunks.length ? applyHunks(doc.text, doc.eol, op.hunks, source.rel || source.abs) : { ok: true as const, text: doc.text, added: 0, removed: 0 };
  if (!applied.ok) {
    errors.push(applied.message);
    return;
  }
  const counts = `${op.hunks.length} hunk${op.hunks.length === 1 ? '' : 's'}, +${applied.added} -${applied.removed} lines`;
  const afterBytes = encodeText(applied.text, doc);
  if (dest && dest.abs !== source.abs) {
    if (await deps.fs.stat(dest.abs)) {
      errors.push(`Move to: ${moveTo}: ${dest.rel} already exists; a move never overwrites a file. Choose another name, or delete that file first.`);
      return;
    }
    items.push({ change: { tool: 'apply_patch', path: dest, before: undefined, after: applied.text, afterBytes }, what: `created as the new name of ${source.rel} (${counts})` });
    items.push({ change: { tool: 'apply_patch', path: source, before: doc.text, after: undefined }, what: `deleted (moved to ${dest.rel})` });
    return;
  }
  if (applied.text === doc.text) {
    unchanged.push(source.rel);
    return;
  }
  items.push({ change: { tool: 'apply_patch', path: source, before: doc.text, after: applied.text, afterBytes }, what: `updated (${counts})` });
}
