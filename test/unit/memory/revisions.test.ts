import assert from 'node:assert/strict';
import { KEEP_REVISIONS } from '../../../src/core/memory/revision-store';
import { removeTempDirs } from '../../support/storage-fixtures';
import { alice, bob, closeRouted, openRouted } from './routed-fixture';

describe('revisions of memory and context files', () => {
  afterEach(closeRouted);
  after(removeTempDirs);

  it('a model overwriting MEMORY.md leaves the old content restorable; an identical write keeps nothing', async () => {
    const { routed, revisions } = await openRouted();
    await routed.write(alice('coder'), 'MEMORY.md', '# Memory\n\n- hard-won fact\n', { actor: 'model' });
    await routed.write(alice('coder'), 'MEMORY.md', '# Memory\n\n- hard-won fact\n', { actor: 'model' });
    assert.deepEqual(await revisions.list(alice('coder')), [], 'nothing was replaced yet');
    await routed.write(alice('coder'), 'MEMORY.md', '# Memory\n', { actor: 'model' });
    const [r] = await revisions.list(alice('coder'), 'MEMORY.md');
    assert.equal(r.actor, 'model');
    assert.equal(r.change, 'write');
    assert.equal(r.userId, 'alice');
    assert.equal((await revisions.get(alice('coder'), r.id))?.content, '# Memory\n\n- hard-won fact\n');
  });

  it('deletes and context-file rewrites are kept at the level they happened; a person\'s shared edit too', async () => {
    const { routed, revisions } = await openRouted();
    await routed.write(alice('coder'), 'memory/notes.md', 'notes v1', { actor: 'model' });
    assert.equal(await routed.delete(alice('coder'), 'memory/notes.md', { actor: 'model' }), true);
    await routed.write(alice('coder'), 'SOUL.md', 'soul v1', { actor: 'model' });
    await routed.write(alice('coder'), 'SOUL.md', 'soul v2', { actor: 'model' });
    await routed.write(alice('support'), 'SOUL.md', 'shared v1', { actor: 'person', level: 'agent' });
    await routed.write(alice('support'), 'SOUL.md', 'shared v2', { actor: 'person', level: 'agent' });
    const coder = await revisions.list(alice('coder'));
    assert.deepEqual(coder.map((r) => [r.path, r.change, r.userId]), [['SOUL.md', 'write', 'alice'], ['memory/notes.md', 'delete', 'alice']]);
    const support = await revisions.list(alice('support'), 'SOUL.md');
    assert.deepEqual(support.map((r) => [r.userId, r.actor]), [['', 'person']], 'the shared level');
    assert.equal((await revisions.get(alice('support'), support[0].id))?.content, 'shared v1');
  });

  it(`keeps the newest ${KEEP_REVISIONS} versions of a file, and never shows one person another's`, async () => {
    const { routed, revisions } = await openRouted();
    for (let i = 0; i <= KEEP_REVISIONS + 4; i++) await routed.write(alice('coder'), 'MEMORY.md', `v${i}`, { actor: 'model' });
    const list = await revisions.list(alice('coder'), 'MEMORY.md');
    assert.equal(list.length, KEEP_REVISIONS);
    assert.equal((await revisions.get(alice('coder'), list[0].id))?.content, `v${KEEP_REVISIONS + 3}`, 'newest first');
    assert.deepEqual(await revisions.list(bob('coder')), []);
    assert.equal(await revisions.get(bob('coder'), list[0].id), undefined, 'bob cannot read alice\'s revision by id');
  });
});
