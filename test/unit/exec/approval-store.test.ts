// The approval stores: a real workspace database in a temp folder (DbApprovalStore) and the
// in-memory one, held to the same behaviour — validation on add and update, dedupe, touch, remove,
// times from the injected clock, and rules that survive reopening the database.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DbApprovalStore, EXEC_APPROVAL_MIGRATIONS, MAX_EXAMPLE_CHARS, MemoryApprovalStore } from '../../../src/core/exec/approval-store';
import type { ApprovalStore } from '../../../src/core/exec/exec-types';
import { Database } from '../../../src/core/storage/database';
import { TOOL_LOG_MIGRATIONS } from '../../../src/core/storage/tool-log-store';
import { STORAGE_WORKER, removeTempDirs, tempDir } from '../../support/storage-fixtures';

const open: Database[] = [];
async function openDb(dir: string): Promise<Database> {
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: [...TOOL_LOG_MIGRATIONS, ...EXEC_APPROVAL_MIGRATIONS] });
  open.push(db);
  return db;
}

function clock(start = 1_000): { now(): number } {
  let t = start;
  return { now: () => t++ };
}

const GIT = fs.realpathSync('/usr/bin/git');
const LS = fs.realpathSync('/bin/ls');
const PY = '/usr/bin/python3';

function sharedBehaviour(make: () => Promise<ApprovalStore>): void {
  it('adds with the clock time and a random id, lists oldest first', async () => {
    const s = await make();
    const a = await s.add({ executable: GIT, args: 'push --force' }, 'git push --force');
    const b = await s.add({ executable: LS }, 'ls -la');
    assert.match(a.id, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.id, b.id);
    assert.equal(a.createdAt, 5_000);
    assert.equal(b.createdAt, 5_001);
    assert.equal(a.lastUsedAt, undefined);
    const list = await s.list();
    assert.deepEqual(list.map((x) => [x.executable, x.args, x.example]), [[GIT, 'push --force', 'git push --force'], [LS, undefined, 'ls -la']]);
    assert.ok(!('args' in list[1]), 'any arguments is an absent field, not null');
  });

  it('adding an identical rule returns the existing one; "" and any-arguments are different rules', async () => {
    const s = await make();
    const a = await s.add({ executable: LS, args: '' }, 'ls');
    const again = await s.add({ executable: LS, args: '' }, 'ls (again)');
    assert.equal(again.id, a.id);
    assert.equal(again.example, 'ls', 'the first example is kept');
    const any = await s.add({ executable: LS }, 'ls x');
    assert.notEqual(any.id, a.id);
    assert.equal((await s.list()).length, 2);
  });

  it('add and update refuse what validateRule refuses, with its message, and store nothing', async () => {
    const s = await make();
    await assert.rejects(s.add({ executable: 'git', args: 'status' }, 'git status'), /absolute path/);
    await assert.rejects(s.add({ executable: PY }, 'python3 x.py'), /must pin its arguments/);
    await assert.rejects(s.add({ executable: PY, args: '*' }, 'python3 x.py'), /must pin its arguments/);
    assert.deepEqual(await s.list(), []);
    const ok = await s.add({ executable: PY, args: 'scripts/build.py' }, 'python3 scripts/build.py');
    await assert.rejects(s.update(ok.id, undefined), /must pin its arguments/);
    await assert.rejects(s.update(ok.id, '  '), /must pin its arguments/);
    await assert.rejects(s.update(ok.id, '*'), /must pin its arguments/);
    await assert.rejects(s.update(ok.id, '* -c evil'), /fixed text/);
    assert.equal((await s.list())[0].args, 'scripts/build.py', 'a refused edit changes nothing');
  });

  it('update changes the pattern; to any arguments and back; unknown ids and duplicates are clear errors', async () => {
    const s = await make();
    const a = await s.add({ executable: GIT, args: 'status' }, 'git status');
    await s.update(a.id, 'status *');
    assert.equal((await s.list())[0].args, 'status *');
    const b = await s.add({ executable: LS, args: '-la' }, 'ls -la');
    await s.update(b.id, undefined);
    assert.ok(!('args' in (await s.list())[1]));
    await s.update(b.id, '-l');
    assert.equal((await s.list())[1].args, '-l');
    await assert.rejects(s.update('no-such-id', 'x'), /No command approval has the id no-such-id/);
    const c = await s.add({ executable: GIT, args: 'log' }, 'git log');
    await assert.rejects(s.update(c.id, 'status *'), /already exists/);
    // The add of the same rule after an edit finds the edited one.
    assert.equal((await s.add({ executable: GIT, args: 'status *' }, 'x')).id, a.id);
  });

  it('touch records the last use; remove revokes; both ignore unknown ids', async () => {
    const s = await make();
    const a = await s.add({ executable: LS }, 'ls');
    await s.touch(a.id);
    const [t] = await s.list();
    assert.ok(t.lastUsedAt !== undefined && t.lastUsedAt > t.createdAt);
    await s.touch('nope');
    await s.remove('nope');
    await s.remove(a.id);
    assert.deepEqual(await s.list(), []);
    const again = await s.add({ executable: LS }, 'ls');
    assert.notEqual(again.id, a.id, 'a revoked rule added again is a new approval');
  });

  it('hostile input: huge examples are cut, odd characters are kept exactly', async () => {
    const s = await make();
    const weird = `-e "a'b\\"c" \\* ; $(x) \u00e9\u{1F600}`;
    const a = await s.add({ executable: LS, args: weird }, 'x'.repeat(100_000));
    assert.equal(a.example.length, MAX_EXAMPLE_CHARS);
    assert.equal((await s.list())[0].args, weird);
    const list = await s.list();
    list[0].args = 'mutated';
    assert.equal((await s.list())[0].args, weird, 'list returns copies');
  });
}

describe('approval store', () => {
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  after(removeTempDirs);

  describe('DbApprovalStore (real database)', () => {
    sharedBehaviour(async () => new DbApprovalStore(await openDb(tempDir('approvals')), clock(5_000)));

    it('rules survive closing and reopening the workspace database', async () => {
      const dir = tempDir('approvals-reopen');
      const db = await openDb(dir);
      const s = new DbApprovalStore(db, clock());
      const a = await s.add({ executable: GIT, args: 'push' }, 'git push');
      await s.touch(a.id);
      await db.close();
      const reopened = new DbApprovalStore(await openDb(dir), clock(9_000));
      const [r] = await reopened.list();
      assert.equal(r.id, a.id);
      assert.equal(r.args, 'push');
      assert.equal(r.lastUsedAt, 1_001);
      assert.equal((await reopened.add({ executable: GIT, args: 'push' }, 'again')).id, a.id, 'dedupe holds across sessions');
    });

    it('two stores over one database (two windows) deduplicate the same rule', async () => {
      const db = await openDb(tempDir('approvals-two'));
      const one = new DbApprovalStore(db, clock());
      const two = new DbApprovalStore(db, clock(2_000));
      const [a, b] = await Promise.all([one.add({ executable: LS, args: '-la' }, 'one'), two.add({ executable: LS, args: '-la' }, 'two')]);
      assert.equal(a.id, b.id);
      assert.equal((await one.list()).length, 1);
    });
  });

  describe('MemoryApprovalStore', () => {
    sharedBehaviour(async () => new MemoryApprovalStore(clock(5_000)));
  });
});
