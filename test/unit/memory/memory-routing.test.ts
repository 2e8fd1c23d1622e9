import assert from 'node:assert/strict';
import { MemoryError } from '../../../src/core/memory/types';
import { removeTempDirs } from '../../support/storage-fixtures';
import { alice, bob, closeRouted, openRouted, shared } from './routed-fixture';

async function rejects(p: Promise<unknown>, code: MemoryError['code'], re: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof MemoryError && e.code === code && re.test(e.message));
}

describe('memory files through RoutedFiles (the real MemoryStore)', () => {
  afterEach(closeRouted);
  after(removeTempDirs);

  it('a model writes at the user level and the document is indexed; other users do not see it', async () => {
    const { routed, memory } = await openRouted();
    const w = await routed.write(alice('coder'), 'memory/prefs.md', '# Prefs\n\nAlice likes tabs.\n', { actor: 'model' });
    assert.equal(w.level, 'user');
    assert.ok((w.chunks ?? 0) >= 1, 'indexed before write resolves');
    assert.equal((await routed.read(alice('coder'), 'memory/prefs.md'))?.level, 'user');
    assert.equal(await routed.read(bob('coder'), 'memory/prefs.md'), undefined);
    const hits = await memory.search(alice('coder'), 'tabs');
    assert.equal(hits.hits[0]?.path, 'memory/prefs.md');
  });

  it('per user first, then the agent\'s global memory; only persons write the global level', async () => {
    const { routed } = await openRouted();
    assert.equal((await routed.write(shared('coder'), 'MEMORY.md', 'global', { actor: 'person' })).level, 'agent');
    assert.equal((await routed.read(alice('coder'), 'MEMORY.md'))?.level, 'agent');
    await routed.write(alice('coder'), 'MEMORY.md', 'alice', { actor: 'model' });
    assert.deepEqual(await routed.read(alice('coder'), 'MEMORY.md').then((r) => [r?.content, r?.level]), ['alice', 'user']);
    assert.deepEqual(await routed.read(bob('coder'), 'MEMORY.md').then((r) => [r?.content, r?.level]), ['global', 'agent']);
    assert.equal((await routed.read(alice('coder'), 'MEMORY.md', { level: 'agent' }))?.content, 'global');
    await rejects(routed.write(alice('coder'), 'MEMORY.md', 'x', { actor: 'model', level: 'agent' }), 'read-only', /shared memory .* only a person can change it/);
    await rejects(routed.write(shared('coder'), 'memory/a.md', 'x', { actor: 'model' }), 'invalid', /no user is set/);
    // Predefined agents: memory is per user too.
    assert.equal((await routed.write(alice('support'), 'memory.md', 'm', { actor: 'model' })).level, 'user');
  });

  it('lists the root and memory folders, with sub-folders and the level of each entry', async () => {
    const { routed } = await openRouted();
    await routed.write(shared('coder'), 'memory/team.md', 'shared', { actor: 'person' });
    await routed.write(shared('coder'), 'memory/projects/a.md', 'a', { actor: 'person' });
    await routed.write(alice('coder'), 'memory/projects/b.md', 'bb', { actor: 'model' });
    await routed.write(alice('coder'), 'memory/prefs.md', 'ccc', { actor: 'model' });
    await routed.write(alice('coder'), 'MEMORY.md', 'top', { actor: 'model' });
    const root = await routed.list(alice('coder'), '');
    assert.deepEqual(root.map((e) => [e.path, e.kind, e.level, !!e.directory]), [
      ['SOUL.md', 'context', 'definition', false], ['memory', 'memory', 'user', true], ['MEMORY.md', 'memory', 'user', false],
    ]);
    const mem = await routed.list(alice('coder'), 'memory');
    assert.deepEqual(mem.map((e) => [e.path, e.level, e.size, !!e.directory]), [
      ['memory/projects', 'user', 0, true], ['memory/prefs.md', 'user', 3, false], ['memory/team.md', 'agent', 6, false],
    ]);
    assert.deepEqual((await routed.list(alice('coder'), 'memory/projects/')).map((e) => [e.path, e.level]), [
      ['memory/projects/a.md', 'agent'], ['memory/projects/b.md', 'user'],
    ]);
    assert.deepEqual((await routed.list(bob('coder'), 'memory')).map((e) => e.path), ['memory/projects', 'memory/team.md']);
    assert.deepEqual((await routed.list(alice('coder'), 'memory', { level: 'agent' })).map((e) => e.path), ['memory/projects', 'memory/team.md']);
    assert.deepEqual(await routed.list(alice('coder'), 'memory/none'), []);
  });

  it('refuses the memory folder as a file, and paths the memory store refuses', async () => {
    const { routed, counts } = await openRouted();
    await rejects(routed.write(alice('coder'), 'memory', 'x', { actor: 'model' }), 'invalid', /memory is a folder/);
    assert.equal(routed.writable(alice('coder'), 'memory/', 'model').ok, false);
    await rejects(routed.write(alice('coder'), 'memory/a\u0001.md', 'x', { actor: 'model' }), 'invalid', /control characters/);
    await rejects(routed.write(alice('coder'), 'memory/../../etc/passwd', 'x', { actor: 'person' }), 'invalid', /not one of Pincer's routed files/);
    assert.equal(await routed.read(alice('coder'), 'memory'), undefined);
    assert.equal((await counts()).memory, 0);
  });

  it('deletes at the level written, exposing the global document again', async () => {
    const { routed } = await openRouted();
    await routed.write(shared('coder'), 'memory/a.md', 'global', { actor: 'person' });
    await routed.write(alice('coder'), 'memory/a.md', 'mine', { actor: 'model' });
    assert.equal(await routed.delete(alice('coder'), 'memory/a.md', { actor: 'model' }), true);
    assert.equal((await routed.read(alice('coder'), 'memory/a.md'))?.content, 'global');
    assert.equal(await routed.delete(alice('coder'), 'memory/a.md', { actor: 'model' }), false, 'nothing of alice\'s left');
    await rejects(routed.delete(alice('coder'), 'memory/a.md', { actor: 'model', level: 'agent' }), 'read-only', /only a person/);
    assert.equal(await routed.delete(alice('coder'), 'memory/a.md', { actor: 'person', level: 'agent' }), true);
  });
});
