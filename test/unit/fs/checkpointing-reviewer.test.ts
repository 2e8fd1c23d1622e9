import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer, RejectAllReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { CHECKPOINT_MIGRATIONS, CheckpointStore, MAX_CHECKPOINT_FILE_BYTES, restoreCheckpoint } from '../../../src/core/fs/checkpoint-store';
import { CheckpointingReviewer } from '../../../src/core/fs/checkpointing-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { createApplyPatchTool } from '../../../src/core/fs/tools/apply-patch';
import { createEditTool } from '../../../src/core/fs/tools/edit';
import { createWriteFileTool } from '../../../src/core/fs/tools/write-file';
import type { EditReviewer, FsToolDeps, ProposedChange } from '../../../src/core/fs/types';
import { Database } from '../../../src/core/storage/database';
import { parseArguments } from '../../../src/core/tools/arguments';
import type { Tool, ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, removeTempDirs, type TreeSpec, type Workspace } from '../../support/fs-fixtures';
import { STORAGE_WORKER, removeTempDirs as removeStorageDirs, tempDir as storageDir } from '../../support/storage-fixtures';
import { context } from './edit-harness';

const open: Database[] = [];

interface Setup {
  ws: Workspace;
  deps: FsToolDeps;
  store: CheckpointStore | undefined;
  db: Database | undefined;
  warnings: string[];
  run(tool: (d: FsToolDeps) => Tool, args: unknown, turn?: { turnId?: string; sessionKey?: string }): Promise<ToolResult>;
}

async function setup(files: TreeSpec, opts: { inner?: (fs: NodeWorkspaceFs, store: () => CheckpointStore | undefined) => EditReviewer; storage?: boolean; store?: () => CheckpointStore | undefined } = {}): Promise<Setup> {
  const ws = makeWorkspace(files, 'ckpt');
  const wfs = new NodeWorkspaceFs();
  let db: Database | undefined;
  let store: CheckpointStore | undefined;
  if (opts.storage !== false) {
    db = await Database.open({ dir: storageDir('ckpt-rev'), workerPath: STORAGE_WORKER, migrations: CHECKPOINT_MIGRATIONS });
    open.push(db);
    store = new CheckpointStore(db);
  }
  const getStore = opts.store ?? ((): CheckpointStore | undefined => store);
  const warnings: string[] = [];
  const inner = opts.inner?.(wfs, getStore) ?? new AutoApplyReviewer(wfs);
  const reviewer = new CheckpointingReviewer(inner, getStore, wfs, (m) => warnings.push(m));
  const deps: FsToolDeps = { guard: makeGuard([ws.root]), fs: wfs, reviewer };
  return {
    ws, deps, store, db, warnings,
    async run(make, args, turn = { turnId: 'turn-1' }) {
      const tool = make(deps);
      const parsed = parseArguments(tool.name, tool.parameters, args);
      assert.ok(parsed.ok, 'valid arguments');
      return tool.execute(parsed.value, { ...context(), ...turn });
    },
  };
}

const write = createWriteFileTool;
const edit = createEditTool;
const patch = createApplyPatchTool;

async function latest(store: CheckpointStore | undefined): Promise<{ id: number; turn: string; files: string[]; label: string }> {
  const [cp] = await store!.list();
  assert.ok(cp, 'a checkpoint exists');
  return cp;
}

describe('checkpointing reviewer', () => {
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  after(() => {
    removeTempDirs();
    removeStorageDirs();
  });

  it('keeps the original of a file a turn edits twice, and restore brings it back', async () => {
    const s = await setup({ 'a.ts': 'const a = 1;\n' });
    assert.equal((await s.run(edit, { path: 'a.ts', old_string: '1', new_string: '2' })).isError, false);
    assert.equal((await s.run(edit, { path: 'a.ts', old_string: '2', new_string: '3' })).isError, false);
    assert.equal(s.ws.read('a.ts'), 'const a = 3;\n');
    const cp = await latest(s.store);
    assert.deepEqual([cp.turn, cp.files, cp.label], ['turn-1', [s.ws.path('a.ts')], 'edit a.ts']);
    assert.equal(Buffer.from((await s.store!.files(cp.id))[0]!.content!).toString(), 'const a = 1;\n');
    const report = await restoreCheckpoint(s.store!, cp.id, s.deps.fs);
    assert.deepEqual(report.restored, [s.ws.path('a.ts')]);
    assert.equal(s.ws.read('a.ts'), 'const a = 1;\n');
    assert.deepEqual(s.warnings, []);
  });

  it('keeps one checkpoint per turn; the session is the turn when the loop gives no turn id', async () => {
    const s = await setup({ 'a.txt': 'v0' });
    await s.run(write, { path: 'a.txt', content: 'v1' }, { turnId: 'first' });
    await s.run(write, { path: 'a.txt', content: 'v2' }, { turnId: 'second' });
    await s.run(write, { path: 'a.txt', content: 'v3' }, { turnId: undefined, sessionKey: 'chat:42' });
    await s.run(write, { path: 'a.txt', content: 'v4' }, { turnId: undefined, sessionKey: 'chat:42' });
    const list = await s.store!.list();
    assert.deepEqual(list.map((c) => c.turn), ['chat:42', 'second', 'first']);
    const originals = await Promise.all(list.map(async (c) => Buffer.from((await s.store!.files(c.id))[0]!.content!).toString()));
    assert.deepEqual(originals, ['v2', 'v1', 'v0']);
    await restoreCheckpoint(s.store!, list[1]!.id, s.deps.fs);
    assert.equal(s.ws.read('a.txt'), 'v1', 'restoring the second turn puts back what it started from');
  });

  it('records a file the turn created so that restore deletes it', async () => {
    const s = await setup({});
    await s.run(write, { path: 'src/new.ts', content: 'export const x = 1;\n' });
    await s.run(write, { path: 'src/new.ts', content: 'export const x = 2;\n' });
    const cp = await latest(s.store);
    assert.deepEqual(await s.store!.files(cp.id), [{ path: s.ws.path('src/new.ts'), existed: false }]);
    const report = await restoreCheckpoint(s.store!, cp.id, s.deps.fs);
    assert.deepEqual(report.deleted, [s.ws.path('src/new.ts')]);
    assert.equal(s.ws.exists('src/new.ts'), false);
  });

  it('restores a whole apply_patch turn exactly: CRLF with a BOM, a move, an add and a delete', async () => {
    const crlf = Buffer.from('\ufeffone\r\ntwo\r\nthree\r\n', 'utf8');
    const s = await setup({ 'win.txt': crlf, 'old.ts': 'moved\n', 'dead.ts': 'bye\n' });
    const r = await s.run(patch, {
      input: [
        '*** Begin Patch', '*** Update File: win.txt', ' one', '-two', '+TWO', ' three',
        '*** Update File: old.ts', '*** Move to: lib/new.ts', '-moved', '+moved and changed',
        '*** Add File: added.ts', '+fresh', '*** Delete File: dead.ts', '*** End Patch',
      ].join('\n'),
    });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(s.ws.exists('old.ts'), false);
    const cp = await latest(s.store);
    assert.equal(cp.files.length, 5);
    const report = await restoreCheckpoint(s.store!, cp.id, s.deps.fs);
    assert.deepEqual(report.skipped, []);
    assert.ok(Buffer.from(fs.readFileSync(s.ws.path('win.txt'))).equals(crlf));
    assert.equal(s.ws.read('old.ts'), 'moved\n');
    assert.equal(s.ws.read('dead.ts'), 'bye\n');
    assert.equal(s.ws.exists('lib/new.ts'), false);
    assert.equal(s.ws.exists('added.ts'), false);
  });

  it('has the original in the database before the inner reviewer sees the change', async () => {
    const seen: string[] = [];
    const s = await setup({ 'f.txt': 'before' }, {
      inner: (wfs, store) => ({
        async review(changes, signal) {
          const cp = (await store()!.list())[0];
          const kept = cp ? await store()!.files(cp.id) : [];
          seen.push(...kept.map((k) => `${k.path}=${Buffer.from(k.content ?? []).toString()}`));
          return new AutoApplyReviewer(wfs).review(changes, signal);
        },
      }),
    });
    await s.run(write, { path: 'f.txt', content: 'after' });
    assert.deepEqual(seen, [`${s.ws.path('f.txt')}=before`]);
  });

  it('keeps an entry for a rejected change, which restore reports as unchanged', async () => {
    const s = await setup({ 'r.txt': 'keep me' }, { inner: () => new RejectAllReviewer('no') });
    const r = await s.run(write, { path: 'r.txt', content: 'nope' });
    assert.match(r.forLLM, /reject/i);
    const cp = await latest(s.store);
    const report = await restoreCheckpoint(s.store!, cp.id, s.deps.fs);
    assert.deepEqual(report, { restored: [], deleted: [], unchanged: [s.ws.path('r.txt')], skipped: [] });
    assert.equal(s.ws.read('r.txt'), 'keep me');
  });

  it('lets edits land with no storage, warning once', async () => {
    const s = await setup({ 'a.txt': 'x' }, { storage: false });
    await s.run(write, { path: 'a.txt', content: 'y' });
    await s.run(write, { path: 'b.txt', content: 'z' });
    assert.equal(s.ws.read('a.txt'), 'y');
    assert.equal(s.ws.read('b.txt'), 'z');
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0]!, /not open.*changes still land/);
  });

  it('lets edits land when opening storage throws or the database has died, and says which file is not covered', async () => {
    const s = await setup({ 'a.txt': 'x' }, { store: () => { throw new Error('disk full'); } });
    await s.run(write, { path: 'a.txt', content: 'y' });
    assert.equal(s.ws.read('a.txt'), 'y');
    assert.match(s.warnings.join('\n'), /could not be opened: disk full/);

    const t = await setup({ 'a.txt': 'x' });
    await t.db!.close();
    const r = await t.run(edit, { path: 'a.txt', old_string: 'x', new_string: 'w' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(t.ws.read('a.txt'), 'w');
    assert.equal(t.warnings.length, 1);
    assert.match(t.warnings[0]!, /Could not keep a checkpoint of a\.txt \(the database is closed\); the change goes ahead/);
  });

  it('skips a file over 10 MB with a warning and still keeps the others of the batch', async () => {
    const big = Buffer.alloc(MAX_CHECKPOINT_FILE_BYTES + 1, 0x61);
    const s = await setup({ 'big.txt': big, 'small.txt': 'small\n' });
    const r = await s.run(patch, { input: '*** Begin Patch\n*** Delete File: big.txt\n*** Update File: small.txt\n-small\n+SMALL\n*** End Patch' });
    assert.equal(r.isError, false, r.forLLM);
    const cp = await latest(s.store);
    assert.deepEqual(cp.files, [s.ws.path('small.txt')]);
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0]!, /big\.txt is over 10 MB/);
  });

  it('gives changes without a turn a checkpoint of their own per batch, and never lets a throwing warning sink block an edit', async () => {
    const ws = makeWorkspace({ 'a.txt': 'one', 'b.txt': 'two' }, 'ckpt');
    const wfs = new NodeWorkspaceFs();
    const db = await Database.open({ dir: storageDir('ckpt-noturn'), workerPath: STORAGE_WORKER, migrations: CHECKPOINT_MIGRATIONS });
    open.push(db);
    await db.close();
    const store = new CheckpointStore(db);
    const reviewer = new CheckpointingReviewer(new AutoApplyReviewer(wfs), () => store, wfs, () => { throw new Error('sink broke'); });
    const guard = makeGuard([ws.root]);
    const change = async (rel: string, after: string): Promise<ProposedChange> => ({ tool: 'write_file', path: await guard.resolve(rel, 'write'), before: undefined, after });
    assert.deepEqual(await reviewer.review([await change('a.txt', 'ONE')], new AbortController().signal), [{ decision: 'accepted' }]);
    assert.equal(ws.read('a.txt'), 'ONE');

    const live = await setup({ 'a.txt': 'one', 'b.txt': 'two' });
    const r2 = new CheckpointingReviewer(new AutoApplyReviewer(live.deps.fs), () => live.store, live.deps.fs);
    const c = async (rel: string, after: string): Promise<ProposedChange> => ({ tool: 'write_file', path: await live.deps.guard.resolve(rel, 'write'), before: undefined, after });
    await r2.review([await c('a.txt', '1'), await c('b.txt', '2')], new AbortController().signal);
    await r2.review([await c('a.txt', '11')], new AbortController().signal);
    const list = await live.store!.list();
    assert.equal(list.length, 2);
    assert.ok(list.every((cp) => cp.turn.startsWith('untracked:')));
    assert.deepEqual(list.map((cp) => cp.files.length), [1, 2]);
  });

  it('captures nothing for an aborted call and lets the inner reviewer report the abort', async () => {
    const s = await setup({ 'a.txt': 'x' });
    const ac = new AbortController();
    ac.abort();
    const change: ProposedChange = { tool: 'write_file', path: await s.deps.guard.resolve('a.txt', 'write'), before: 'x', after: 'y', turn: 't' };
    await assert.rejects(s.deps.reviewer.review([change], ac.signal));
    assert.deepEqual(await s.store!.list(), []);
    assert.equal(s.ws.read('a.txt'), 'x');
  });
});
