import assert from 'node:assert/strict';
import { MemoryError } from '../../../src/core/memory/types';
import { removeTempDirs } from '../../support/storage-fixtures';
import { alice, bob, closeRouted, openRouted, shared } from './routed-fixture';

describe('context store (agent_context_files, user_context_files)', () => {
  afterEach(closeRouted);
  after(removeTempDirs);

  it('keeps the two levels apart, upserts with the clock\'s time, deletes and lists per level', async () => {
    const { context, counts } = await openRouted();
    const a = await context.put(shared('x'), 'SOUL.md', 'agent');
    const u = await context.put(alice('x'), 'SOUL.md', 'alice');
    assert.equal(u.updatedAt, a.updatedAt + 1, 'times come from the injected clock');
    await context.put(alice('x'), 'SOUL.md', 'alice 2');
    assert.deepEqual(await context.get(alice('x'), 'SOUL.md'), { agentId: 'x', userId: 'alice', name: 'SOUL.md', content: 'alice 2', updatedAt: u.updatedAt + 1 });
    assert.equal((await context.get(shared('x'), 'SOUL.md'))?.content, 'agent');
    assert.equal(await context.get(bob('x'), 'SOUL.md'), undefined);
    assert.equal(await context.get({ agentId: 'y', userId: 'alice' }, 'SOUL.md'), undefined, 'per agent');
    await context.put(alice('x'), 'AGENTS.md', '');
    assert.deepEqual((await context.list(alice('x'))).map((r) => [r.name, r.content]), [['AGENTS.md', ''], ['SOUL.md', 'alice 2']]);
    assert.deepEqual((await context.list(shared('x'))).map((r) => r.name), ['SOUL.md']);
    assert.deepEqual(await counts(), { agent: 1, user: 2, memory: 0 });
    assert.equal(await context.delete(alice('x'), 'SOUL.md'), true);
    assert.equal(await context.delete(alice('x'), 'SOUL.md'), false);
    assert.equal((await context.get(shared('x'), 'SOUL.md'))?.content, 'agent', 'the other level is untouched');
  });

  it('stores hostile text verbatim (SQL is parameterised) and refuses unusable keys', async () => {
    const { context, counts } = await openRouted();
    const evil = "'); DROP TABLE user_context_files; --";
    await context.put({ agentId: 'x', userId: evil }, 'SOUL.md', evil);
    assert.equal((await context.get({ agentId: 'x', userId: evil }, 'SOUL.md'))?.content, evil);
    const invalid = (e: unknown) => e instanceof MemoryError && e.code === 'invalid';
    await assert.rejects(context.put({ agentId: '', userId: 'a' }, 'SOUL.md', 'x'), invalid);
    await assert.rejects(context.put(alice('x'), 'SO\0UL.md', 'x'), invalid);
    await assert.rejects(context.get({ agentId: 'x'.repeat(300), userId: '' }, 'SOUL.md'), invalid);
    await assert.rejects(context.list({ agentId: 'x', userId: 'a\0' }), invalid);
    assert.deepEqual(await counts(), { agent: 0, user: 1, memory: 0 });
  });
});
