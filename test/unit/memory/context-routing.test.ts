import assert from 'node:assert/strict';
import { CONTEXT_FILE_NAMES, MAX_ROUTED_FILE_BYTES, type ChangeEvent } from '../../../src/core/memory/routed-files';
import { MemoryError } from '../../../src/core/memory/types';
import { removeTempDirs } from '../../support/storage-fixtures';
import { alice, bob, closeRouted, openRouted, shared } from './routed-fixture';

const PER_NAME = CONTEXT_FILE_NAMES.filter((n) => n !== 'BOOTSTRAP.md');

async function rejects(p: Promise<unknown>, code: MemoryError['code'], re: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof MemoryError && e.code === code && re.test(e.message));
}

describe('context files: routing by agent type, level and user', () => {
  afterEach(closeRouted);
  after(removeTempDirs);

  it('the seven names, and not TOOLS.md', () => {
    assert.deepEqual([...CONTEXT_FILE_NAMES], ['SOUL.md', 'IDENTITY.md', 'AGENTS.md', 'USER.md', 'USER_PREDEFINED.md', 'BOOTSTRAP.md', 'HEARTBEAT.md']);
  });

  it('open agent, every name: missing → agent-level template → the user\'s own copy; other users keep the template', async () => {
    const { routed, counts } = await openRouted();
    for (const name of CONTEXT_FILE_NAMES) {
      if (name !== 'SOUL.md') assert.equal(await routed.read(alice('coder'), name), undefined, name);
      assert.deepEqual(await routed.write(alice('coder'), name, `${name} template`, { actor: 'person', level: 'agent' }), { level: 'agent' });
      assert.equal((await routed.read(alice('coder'), name))?.level, 'agent', name);
      assert.deepEqual(await routed.write(alice('coder'), name, `alice ${name}`, { actor: 'model' }), { level: 'user' }, name);
      const mine = await routed.read(alice('coder'), name);
      assert.equal(mine?.content, `alice ${name}`);
      assert.equal(mine?.level, 'user');
      assert.equal(typeof mine?.updatedAt, 'number');
      assert.equal((await routed.read(bob('coder'), name))?.content, `${name} template`, `bob does not see alice's ${name}`);
      assert.equal((await routed.read(alice('coder'), name, { level: 'agent' }))?.content, `${name} template`, 'the agent level is unchanged');
    }
    assert.deepEqual(await counts(), { agent: 7, user: 7, memory: 0 });
    // Deleting alice's copy brings the template back (BOOTSTRAP.md aside, see below).
    for (const name of PER_NAME) {
      assert.equal(await routed.delete(alice('coder'), name, { actor: 'model' }), true);
      assert.equal((await routed.read(alice('coder'), name))?.level, 'agent', name);
    }
  });

  it('predefined agent: shared files are read-only to the model, USER.md is per user', async () => {
    const { routed, counts } = await openRouted();
    for (const name of CONTEXT_FILE_NAMES.filter((n) => n !== 'USER.md')) {
      const w = routed.writable(alice('support'), name, 'model');
      assert.equal(w.ok, false, name);
      assert.match(!w.ok ? w.reason : '', new RegExp(`${name.replace('.', '\\.')} of agent "support" is read-only for you: "support" is a predefined agent.*"Pincer: Open Context File…"`));
      await rejects(routed.write(alice('support'), name, 'x', { actor: 'model' }), 'read-only', /only a person can change it/);
      await rejects(routed.write(alice('support'), name, 'x', { actor: 'model', level: 'user' }), 'read-only', /read-only for you/);
      await rejects(routed.delete(alice('support'), name, { actor: 'model' }), 'read-only', /read-only/);
      // A person writes the shared file by default; a per-user copy of it would never be read.
      assert.deepEqual(await routed.write(alice('support'), name, `shared ${name}`, { actor: 'person' }), { level: 'agent' });
      await rejects(routed.write(alice('support'), name, 'x', { actor: 'person', level: 'user' }), 'invalid', /has no per-user copy: it is shared by all users/);
      assert.equal((await routed.read(alice('support'), name))?.content, `shared ${name}`);
      assert.equal((await routed.read(bob('support'), name))?.content, `shared ${name}`);
    }
    assert.equal(routed.writable(alice('support'), 'USER.md', 'model').ok, true);
    await routed.write(shared('support'), 'USER.md', 'USER template', { actor: 'person' });
    assert.equal((await routed.read(alice('support'), 'USER.md'))?.level, 'agent');
    assert.deepEqual(await routed.write(alice('support'), 'USER.md', 'alice likes tea', { actor: 'model' }), { level: 'user' });
    assert.equal((await routed.read(alice('support'), 'USER.md'))?.content, 'alice likes tea');
    assert.equal((await routed.read(bob('support'), 'USER.md'))?.content, 'USER template');
    assert.deepEqual(await counts(), { agent: 7, user: 1, memory: 0 });
  });

  it('SOUL.md falls back to the definition\'s instructions at every level, for both types, until one is stored', async () => {
    const { routed } = await openRouted();
    for (const id of ['coder', 'support']) {
      for (const level of ['effective', 'agent'] as const) {
        const r = await routed.read(alice(id), 'SOUL.md', { level });
        assert.equal(r?.level, 'definition');
        assert.match(r!.content, /soul from the definition/);
      }
      assert.equal(await routed.read(alice(id), 'IDENTITY.md'), undefined, 'only SOUL.md has a definition fallback');
    }
    assert.equal(await routed.read(alice('default'), 'SOUL.md'), undefined, 'the default agent has no instructions');
    await routed.write(shared('support'), 'SOUL.md', 'stored soul', { actor: 'person' });
    assert.equal((await routed.read(bob('support'), 'SOUL.md'))?.level, 'agent');
  });

  it('an unknown agent id is an open agent; a broken definition is predefined (model cannot write)', async () => {
    const { routed, agents } = await openRouted();
    assert.deepEqual(await routed.write(alice('stranger'), 'SOUL.md', 's', { actor: 'model' }), { level: 'user' });
    agents.setWorkspace([{ file: '/ws/.pincer/agents/broken.md', text: '---\ntype: sometimes\n---\n' }]);
    assert.equal(routed.writable(alice('broken'), 'SOUL.md', 'model').ok, false);
    assert.equal(routed.writable(alice('broken'), 'USER.md', 'model').ok, true);
  });

  it('BOOTSTRAP.md: writing it empty deletes it, at either level; a user\'s finished setup stays finished', async () => {
    const { routed, counts } = await openRouted();
    // No template: the user's row is simply removed.
    await routed.write(alice('coder'), 'BOOTSTRAP.md', 'Ask the user their name.', { actor: 'model' });
    assert.deepEqual(await routed.write(alice('coder'), 'BOOTSTRAP.md', '', { actor: 'model' }), { deleted: true, level: 'user' });
    assert.equal(await routed.read(alice('coder'), 'BOOTSTRAP.md'), undefined);
    assert.deepEqual(await counts(), { agent: 0, user: 0, memory: 0 });
    // With an agent-level template, deleting alice's copy would bring the template back: she keeps an empty marker.
    await routed.write(shared('coder'), 'BOOTSTRAP.md', 'First run: introduce yourself.', { actor: 'person' });
    assert.equal((await routed.read(alice('coder'), 'BOOTSTRAP.md'))?.level, 'agent');
    assert.deepEqual(await routed.write(alice('coder'), 'BOOTSTRAP.md', '', { actor: 'model' }), { deleted: true, level: 'user' });
    assert.equal(await routed.read(alice('coder'), 'BOOTSTRAP.md'), undefined, 'finished for alice');
    assert.equal((await routed.read(bob('coder'), 'BOOTSTRAP.md'))?.content, 'First run: introduce yourself.', 'bob has not finished');
    assert.ok(!(await routed.list(alice('coder'), '')).some((e) => e.path === 'BOOTSTRAP.md'));
    assert.match(await routed.missingMessageFor(alice('coder'), 'BOOTSTRAP.md'), /first-run setup was finished/);
    assert.equal(await routed.delete(alice('coder'), 'BOOTSTRAP.md', { actor: 'model' }), false, 'already finished');
    assert.equal(await routed.delete(bob('coder'), 'BOOTSTRAP.md', { actor: 'model' }), true, 'deleting bob\'s finishes it too');
    assert.equal(await routed.read(bob('coder'), 'BOOTSTRAP.md'), undefined);
    // A person empties the template: the agent-level row goes.
    assert.deepEqual(await routed.write(shared('coder'), 'BOOTSTRAP.md', '', { actor: 'person' }), { deleted: true, level: 'agent' });
    assert.equal((await counts()).agent, 0);
    // Predefined: a person's empty BOOTSTRAP.md deletes the shared file.
    await routed.write(shared('support'), 'BOOTSTRAP.md', 'x', { actor: 'person' });
    await routed.write(shared('support'), 'BOOTSTRAP.md', '', { actor: 'person' });
    assert.equal(await routed.read(alice('support'), 'BOOTSTRAP.md'), undefined);
  });

  it('other empty files are real empty files, never deletions', async () => {
    const { routed } = await openRouted();
    await routed.write(alice('coder'), 'USER.md', '', { actor: 'model' });
    assert.deepEqual(await routed.read(alice('coder'), 'USER.md').then((r) => r && { c: r.content, l: r.level }), { c: '', l: 'user' });
  });

  it('the agent level is for persons only; a model write needs a user', async () => {
    const { routed } = await openRouted();
    const w = routed.writable(alice('coder'), 'SOUL.md', 'model', 'agent');
    assert.equal(w.ok, false);
    assert.match(!w.ok ? w.reason : '', /the agent-level SOUL\.md of agent "coder".*only a person can change it/);
    await rejects(routed.write(shared('coder'), 'SOUL.md', 'x', { actor: 'model' }), 'invalid', /no user is set: set pincer\.user/);
    assert.deepEqual(await routed.write(shared('coder'), 'SOUL.md', 'x', { actor: 'person' }), { level: 'agent' }, 'a person with no user writes the agent level');
    await rejects(routed.write(shared('coder'), 'SOUL.md', 'x', { actor: 'person', level: 'user' }), 'invalid', /no user is set/);
  });

  it('TOOLS.md, src/SOUL.md and names taken out of pincer.contextFiles.routed are not routed', async () => {
    let names: readonly string[] = CONTEXT_FILE_NAMES;
    const { routed, counts } = await openRouted(() => names);
    for (const p of ['TOOLS.md', 'src/SOUL.md', 'soul.md', 'README.md']) {
      await rejects(routed.read(alice('coder'), p), 'invalid', /not one of Pincer's routed files/);
      await rejects(routed.write(alice('coder'), p, 'x', { actor: 'person' }), 'invalid', /lives on disk/);
      assert.equal(routed.writable(alice('coder'), p, 'person').ok, false);
    }
    names = ['USER.md'];
    await rejects(routed.write(alice('coder'), 'SOUL.md', 'x', { actor: 'model' }), 'invalid', /not one of Pincer's routed files/);
    assert.equal(routed.writable(alice('coder'), 'USER.md', 'model').ok, true);
    assert.deepEqual(await counts(), { agent: 0, user: 0, memory: 0 });
  });

  it('a context file over the size cap is refused with its size', async () => {
    const { routed, counts } = await openRouted();
    await rejects(routed.write(alice('coder'), 'SOUL.md', 'é'.repeat(MAX_ROUTED_FILE_BYTES / 2 + 1), { actor: 'model' }), 'too-large', /SOUL\.md would be 262,146 bytes; a context file may be at most 262,144 bytes \(256 KB\)/);
    assert.deepEqual(await counts(), { agent: 0, user: 0, memory: 0 });
    await routed.write(alice('coder'), 'SOUL.md', 'x'.repeat(MAX_ROUTED_FILE_BYTES), { actor: 'model' });
  });

  it('missing files get an actionable message per kind and type', async () => {
    const { routed } = await openRouted();
    assert.match(routed.missingMessage(alice('coder'), 'IDENTITY.md'), /IDENTITY\.md does not exist yet for open agent "coder" .*Create it with write_file \(path "IDENTITY\.md"\)/);
    assert.match(routed.missingMessage(alice('support'), 'IDENTITY.md'), /only a person can create it, with the command "Pincer: Open Context File…"/);
    assert.match(routed.missingMessage(alice('support'), 'USER.md'), /Create it with write_file/);
    assert.match(routed.missingMessage(alice('coder'), 'memory/x.md'), /memory\/x\.md does not exist in the memory of agent "coder".*list_files with path "memory"/);
    assert.match(routed.missingMessage(alice('coder'), 'TOOLS.md'), /not one of Pincer's routed files/);
  });

  it('lists the root: context files that exist at the level, with their level and size', async () => {
    const { routed } = await openRouted();
    await routed.write(shared('coder'), 'IDENTITY.md', 'id', { actor: 'person' });
    await routed.write(alice('coder'), 'USER.md', 'héllo', { actor: 'model' });
    const mine = await routed.list(alice('coder'), '');
    assert.deepEqual(mine.map((e) => [e.path, e.level, e.size, e.kind]), [
      ['SOUL.md', 'definition', 31, 'context'], ['IDENTITY.md', 'agent', 2, 'context'], ['USER.md', 'user', 6, 'context'],
    ]);
    assert.deepEqual((await routed.list(alice('coder'), '.', { level: 'agent' })).map((e) => e.path), ['SOUL.md', 'IDENTITY.md']);
    assert.deepEqual((await routed.list(bob('coder'), '')).map((e) => e.path), ['SOUL.md', 'IDENTITY.md']);
    await rejects(routed.list(alice('coder'), 'src'), 'invalid', /not a folder of Pincer's routed files/);
    await rejects(routed.list(alice('coder'), 'SOUL.md'), 'invalid', /not a folder/);
  });

  it('onDidChange fires with the level written, for context files and memory', async () => {
    const { routed } = await openRouted();
    const seen: ChangeEvent[] = [];
    routed.onDidChange.on((e) => seen.push(e));
    await routed.write(alice('coder'), 'SOUL.md', 'a', { actor: 'model' });
    await routed.write(shared('coder'), 'AGENTS.md', 'b', { actor: 'person' });
    await routed.write(alice('coder'), 'memory/a.md', '# A', { actor: 'model' });
    await routed.delete(alice('coder'), 'SOUL.md', { actor: 'model' });
    assert.deepEqual(seen, [
      { agentId: 'coder', userId: 'alice', path: 'SOUL.md' },
      { agentId: 'coder', userId: '', path: 'AGENTS.md' },
      { agentId: 'coder', userId: 'alice', path: 'memory/a.md' },
      { agentId: 'coder', userId: 'alice', path: 'SOUL.md' },
    ]);
  });
});
