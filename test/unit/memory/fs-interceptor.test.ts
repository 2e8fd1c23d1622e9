import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTempDirs } from '../../support/fs-fixtures';
import { removeTempDirs as removeStorageDirs } from '../../support/storage-fixtures';
import { intercepted } from './fs-interceptor-fixture';
import { alice, bob, closeRouted, shared } from './routed-fixture';

describe('file tools in front of Pincer\'s store (interceptFsTools)', () => {
  afterEach(closeRouted);
  after(() => {
    removeTempDirs();
    removeStorageDirs();
  });

  it('keeps every tool\'s name, schema and description; wraps only the file tools on paths', async () => {
    const h = await intercepted();
    assert.deepEqual(h.tools.map((t) => t.name), h.original.map((t) => t.name));
    for (const [i, t] of h.tools.entries()) {
      const o = h.original[i]!;
      assert.equal(t.parameters, o.parameters);
      assert.equal(t.description, o.description);
      assert.equal(t.interactive, o.interactive);
      if (['glob', 'grep'].includes(t.name)) assert.equal(t, o, `${t.name} is untouched`);
      else assert.notEqual(t.execute, o.execute);
    }
  });

  it('write_file and read_file on SOUL.md use the store, never the disk, and say so', async () => {
    const h = await intercepted({ 'README.md': 'readme\n' });
    const w = await h.call('write_file', { path: 'SOUL.md', content: 'I am terse.\nI like tests.\n' });
    assert.equal(w.isError, false, w.forLLM);
    assert.match(w.forLLM, /^SOUL\.md: overwritten \(2 lines, 26 bytes; it had 1 line, 31 bytes\)\.\n\[SOUL\.md is saved in Pincer's context-file store for agent "coder" \(your copy for this user\), not on disk\.\]$/);
    assert.equal(h.ws.exists('SOUL.md'), false);
    assert.equal(h.diskWrites.applied.length, 0, 'the disk reviewer never saw it');
    assert.equal((await h.context.get(alice('coder'), 'SOUL.md'))?.content, 'I am terse.\nI like tests.\n');
    const r = await h.call('read_file', { path: './SOUL.md' });
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /^1\tI am terse\.\n2\tI like tests\.\n\[SOUL\.md is kept in Pincer's context-file store for agent "coder" \(your copy for this user\), not on disk\.\]$/);
    assert.deepEqual(r.details?.routed, { kind: 'context', path: 'SOUL.md', agentId: 'coder', userId: 'alice', level: 'user' });
    assert.equal((await h.call('read_file', { path: 'README.md' })).forLLM, '1\treadme\n', 'other files come from the disk');
  });

  it('asks who the user is only for a routed path, not for an ordinary workspace read', async () => {
    let asked = 0;
    const h = await intercepted({ 'README.md': 'readme\n' }, { userId: () => { asked++; return 'alice'; } });
    assert.equal((await h.call('read_file', { path: 'README.md' })).forLLM, '1\treadme\n');
    assert.equal(asked, 0, 'a workspace file needs no user');
    const r = await h.call('read_file', { path: 'SOUL.md' });
    assert.equal((r.details?.routed as { userId?: string } | undefined)?.userId, 'alice');
    assert.ok(asked > 0, 'a routed file is scoped to the user');
  });

  it('per-user isolation: bob reads the definition, not alice\'s copy; alice never sees bob\'s', async () => {
    const h = await intercepted();
    await h.call('write_file', { path: 'SOUL.md', content: 'alice soul' });
    h.user.id = 'bob';
    const asBob = await h.call('read_file', { path: 'SOUL.md' });
    assert.match(asBob.forLLM, /^1\tCoder soul from the definition\.\n\[SOUL\.md .*\(the instructions in the agent's definition; no copy is stored yet\)/);
    await h.call('write_file', { path: 'SOUL.md', content: 'bob secret soul' });
    h.user.id = 'alice';
    const asAlice = await h.call('read_file', { path: 'SOUL.md' });
    assert.match(asAlice.forLLM, /alice soul/);
    assert.doesNotMatch(asAlice.forLLM, /bob secret/);
    assert.equal((await h.routed.read(bob('coder'), 'SOUL.md'))?.content, 'bob secret soul');
    // Another agent is another scope.
    assert.match((await h.call('read_file', { path: 'SOUL.md' }, 'support')).forLLM, /Support soul/);
  });

  it('edit works on a routed file through the tool\'s own (fuzzy) matching; the result shows the new text', async () => {
    const h = await intercepted();
    await h.routed.write(alice('coder'), 'USER.md', 'Name: “Alice”   \nLikes: tabs\n', { actor: 'model' });
    const e = await h.call('edit', { path: 'USER.md', old_string: 'Name: "Alice"\nLikes: tabs', new_string: 'Name: "Alice"\nLikes: spaces' });
    assert.equal(e.isError, false, e.forLLM);
    assert.match(e.forLLM, /matched only after unifying whitespace, quotes or Unicode forms/);
    assert.match(e.forLLM, /The file now reads:\n/);
    assert.match(e.forLLM, /\[USER\.md is saved in Pincer's context-file store/);
    assert.equal((await h.routed.read(alice('coder'), 'USER.md'))?.content, 'Name: "Alice"\nLikes: spaces\n');
    assert.equal(h.ws.exists('USER.md'), false);
    const miss = await h.call('edit', { path: 'USER.md', old_string: 'Likes: vim', new_string: 'x' });
    assert.equal(miss.isError, true);
    assert.match(miss.forLLM, /Likes: spaces/, 'the nearest lines come from the stored file');
  });

  it('an edit of the agent-level template (or the definition) writes the user\'s copy', async () => {
    const h = await intercepted();
    await h.routed.write(shared('coder'), 'AGENTS.md', 'Agents: none\n', { actor: 'person' });
    await h.call('edit', { path: 'AGENTS.md', old_string: 'none', new_string: 'reviewer' });
    assert.equal((await h.routed.read(alice('coder'), 'AGENTS.md'))?.level, 'user');
    assert.equal((await h.routed.read(bob('coder'), 'AGENTS.md'))?.content, 'Agents: none\n');
    await h.call('edit', { path: 'SOUL.md', old_string: 'Coder soul', new_string: 'My soul' });
    assert.equal((await h.routed.read(alice('coder'), 'SOUL.md'))?.content, 'My soul from the definition.');
  });

  it('a missing routed file is a clear, actionable result', async () => {
    const h = await intercepted();
    const r = await h.call('read_file', { path: 'IDENTITY.md' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /^IDENTITY\.md does not exist yet for open agent "coder" \(context files are kept in Pincer's store, not on disk\)\. Create it with write_file/);
    const p = await h.call('read_file', { path: 'IDENTITY.md' }, 'support');
    assert.match(p.forLLM, /only a person can create it, with the command "Pincer: Open Context File…"/);
    const m = await h.call('read_file', { path: 'memory/nothing.md' });
    assert.match(m.forLLM, /memory\/nothing\.md does not exist in the memory of agent "coder"/);
    const e = await h.call('edit', { path: 'HEARTBEAT.md', old_string: 'a', new_string: 'b' });
    assert.match(e.forLLM, /HEARTBEAT\.md does not exist\. edit only changes existing files; to create it, use write_file/);
  });

  it('predefined agents: the model cannot change shared files; USER.md is its to write', async () => {
    const h = await intercepted();
    const w = await h.call('write_file', { path: 'SOUL.md', content: 'hijack' }, 'support');
    assert.equal(w.isError, true);
    assert.match(w.forLLM, /SOUL\.md of agent "support" is read-only for you.*"Pincer: Open Context File…"/);
    const e = await h.call('edit', { path: 'SOUL.md', old_string: 'Support', new_string: 'Evil' }, 'support');
    assert.match(e.forLLM, /read-only for you/);
    assert.equal((await h.call('write_file', { path: 'USER.md', content: 'alice: prefers email' }, 'support')).isError, false);
    assert.deepEqual(await h.counts(), { agent: 0, user: 1, memory: 0 });
    assert.equal(h.ws.exists('SOUL.md'), false);
  });

  it('writing an empty BOOTSTRAP.md deletes it and says so', async () => {
    const h = await intercepted();
    await h.call('write_file', { path: 'BOOTSTRAP.md', content: 'Ask for the user\'s name.' });
    const w = await h.call('write_file', { path: 'BOOTSTRAP.md', content: '' });
    assert.equal(w.isError, false);
    assert.match(w.forLLM, /BOOTSTRAP\.md is deleted for this user \(an empty BOOTSTRAP\.md means first-run setup is done\)/);
    assert.deepEqual(await h.counts(), { agent: 0, user: 0, memory: 0 });
    assert.match((await h.call('read_file', { path: 'BOOTSTRAP.md' })).forLLM, /BOOTSTRAP\.md does not exist yet/);
  });

  it('memory: write_file indexes, read_file reads back, list_files shows the virtual folder', async () => {
    const h = await intercepted();
    const w = await h.call('write_file', { path: 'memory/notes/today.md', content: '# Today\n\nShipped routing.\n' });
    assert.match(w.forLLM, /memory\/notes\/today\.md is saved in Pincer's memory store for agent "coder" \(your notes for this user\), not on disk\. It was indexed for memory_search \(\d+ chunks?\)\./);
    assert.equal(h.ws.exists('memory'), false);
    assert.match((await h.call('read_file', { path: 'memory\\notes\\today.md' })).forLLM, /^1\t# Today\n/);
    const l = await h.call('list_files', { path: 'memory' });
    assert.match(l.forLLM, /^memory: 1 directory, 0 files\nnotes\/\n\[memory is kept in Pincer's memory store/);
    const l2 = await h.call('list_files', { path: 'memory/notes' });
    assert.match(l2.forLLM, /today\.md\t26 B/);
    assert.match((await h.call('read_file', { path: 'memory' })).forLLM, /memory is a directory, not a file/);
    assert.equal((await h.memory.search(alice('coder'), 'shipped')).hits.length, 1);
  });

  it('list_files of the root: the real listing plus a section naming the routed files that exist', async () => {
    const h = await intercepted({ 'README.md': 'r', 'src/a.ts': 'x', 'USER.md': 'disk user file' });
    await h.call('write_file', { path: 'USER.md', content: 'stored' });
    await h.call('write_file', { path: 'memory/a.md', content: 'a' });
    const l = await h.call('list_files', {});
    assert.equal(l.isError, false);
    assert.match(l.forLLM, /^\.: 1 directory, 2 files\nsrc\/\nREADME\.md\t1 B\nUSER\.md\t14 B\n/);
    assert.match(l.forLLM, /\[Also at the root, kept in Pincer's store for agent "coder" \(not on disk; read and change them with the file tools as usual\):\nSOUL\.md\t31 B\t\(the instructions in the agent's definition; no copy is stored yet\)\nUSER\.md\t6 B\t\(your copy for this user; the disk file listed above is not the one the file tools use\)\nmemory\/\t\(memory documents; list_files with path "memory" shows them\)\]$/);
    assert.equal((await h.call('list_files', { path: '.' })).forLLM, l.forLLM);
    assert.equal((await h.call('list_files', { path: 'src' })).forLLM, 'src: 0 directories, 1 file\na.ts\t1 B');
  });

  it('a routed name that also exists on disk: the store wins, the disk file is untouched, and the first read says so', async () => {
    const h = await intercepted({ 'SOUL.md': 'disk soul\n', 'memory/old.md': 'disk memory\n' });
    await h.call('write_file', { path: 'SOUL.md', content: 'stored soul\n' });
    assert.equal(h.ws.read('SOUL.md'), 'disk soul\n');
    const first = await h.call('read_file', { path: 'SOUL.md' });
    assert.match(first.forLLM, /stored soul/);
    assert.match(first.forLLM, /A file named SOUL\.md also exists on disk at the workspace root; .*remove "SOUL\.md" from the setting pincer\.contextFiles\.routed/);
    assert.doesNotMatch((await h.call('read_file', { path: 'SOUL.md' })).forLLM, /also exists on disk/, 'said once');
    const mem = await h.call('read_file', { path: 'memory/old.md' });
    assert.equal(mem.isError, true);
    assert.match(mem.forLLM, /A folder named memory also exists on disk/);
  });

  it('non-routed paths still reach the disk: TOOLS.md, src/SOUL.md, names left out of the setting', async () => {
    let names: readonly string[] = ['USER.md'];
    const h = await intercepted({}, { routedNames: () => names });
    for (const p of ['TOOLS.md', 'src/SOUL.md', 'SOUL.md']) {
      assert.equal((await h.call('write_file', { path: p, content: `disk ${p}` })).isError, false);
      assert.equal(h.ws.read(p), `disk ${p}`);
    }
    assert.deepEqual(await h.counts(), { agent: 0, user: 0, memory: 0 });
    names = ['SOUL.md'];
    await h.call('write_file', { path: 'SOUL.md', content: 'store' });
    assert.equal(h.ws.read('SOUL.md'), 'disk SOUL.md');
    assert.equal((await h.counts()).user, 1);
  });

  it('hostile paths never escape and never create rows in surprising places', async () => {
    const h = await intercepted();
    const outside = path.join(path.dirname(h.ws.root), `pincer-outside-${process.pid}.md`);
    for (const p of ['memory/../../x.md', '../SOUL.md', outside, 'memory/a\0.md', 'SOUL.md\0', 'memory\\..\\..\\y.md']) {
      const w = await h.call('write_file', { path: p, content: 'x' });
      assert.equal(w.isError, p === 'memory\\..\\..\\y.md' && path.sep === '/' ? false : true, `${JSON.stringify(p)}: ${w.forLLM}`);
    }
    assert.equal(fs.existsSync(outside), false);
    assert.equal(fs.existsSync(path.join(path.dirname(h.ws.root), 'x.md')), false);
    assert.deepEqual(await h.counts(), { agent: 0, user: 0, memory: 0 });
    // A spelling that normalises to a routed file is that routed file, not a disk file.
    await h.call('write_file', { path: './memory/../SOUL.md', content: 'via dots' });
    assert.equal((await h.routed.read(alice('coder'), 'SOUL.md'))?.content, 'via dots');
    await h.call('write_file', { path: path.join(h.ws.root, 'memory', 'abs.md'), content: 'abs' });
    assert.deepEqual(await h.counts(), { agent: 0, user: 1, memory: 1 });
    assert.equal(fs.readdirSync(h.ws.root).filter((n) => n !== 'memory\\..\\..\\y.md').length, 0, 'nothing routed landed on disk');
    const slash = await h.call('write_file', { path: 'memory/dir/', content: 'x' });
    assert.match(slash.forLLM, /ends with a slash/);
  });

  it('apply_patch: routed-only patches go to the store; a patch mixing routed and disk files is refused whole', async () => {
    const h = await intercepted({ 'a.txt': 'one\n' });
    const routedOnly = '*** Begin Patch\n*** Add File: memory/p.md\n+patched\n*** Update File: SOUL.md\n@@\n-Coder soul from the definition.\n+Patched soul.\n*** End Patch';
    const r = await h.call('apply_patch', { input: routedOnly });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /memory\/p\.md, SOUL\.md: kept in Pincer's store for agent "coder", not on disk/);
    assert.equal((await h.routed.read(alice('coder'), 'SOUL.md'))?.content, 'Patched soul.');
    assert.equal((await h.routed.read(alice('coder'), 'memory/p.md'))?.content, 'patched\n');
    const mixed = '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Delete File: SOUL.md\n*** End Patch';
    const m = await h.call('apply_patch', { input: mixed });
    assert.equal(m.isError, true);
    assert.match(m.forLLM, /mixes Pincer's own files \(SOUL\.md, .*No files were modified/);
    assert.equal(h.ws.read('a.txt'), 'one\n');
    assert.equal((await h.routed.read(alice('coder'), 'SOUL.md'))?.content, 'Patched soul.');
    const del = await h.call('apply_patch', { input: '*** Begin Patch\n*** Delete File: SOUL.md\n*** End Patch' });
    assert.equal(del.isError, false, del.forLLM);
    assert.equal((await h.routed.read(alice('coder'), 'SOUL.md'))?.level, 'definition');
    const disk = await h.call('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' });
    assert.equal(disk.isError, false);
    assert.equal(h.ws.read('a.txt'), 'two\n');
  });

  it('with no store available, routed paths are refused and nothing goes to the disk instead', async () => {
    const h = await intercepted({ 'README.md': 'r' }, { routed: async () => undefined });
    const w = await h.call('write_file', { path: 'SOUL.md', content: 'x' });
    assert.equal(w.isError, true);
    assert.match(w.forLLM, /SOUL\.md: Pincer's store for context files and memory is not available .* Nothing was read from or written to the disk instead/);
    assert.equal(h.ws.exists('SOUL.md'), false);
    assert.equal((await h.call('read_file', { path: 'README.md' })).forLLM, '1\tr\n');
    assert.doesNotMatch((await h.call('list_files', {})).forLLM, /Also at the root/);
  });
});
