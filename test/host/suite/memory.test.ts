// Memory and context files in a real window: the interceptors in front of the real file tools, the
// pincer-memory: file system (an edit saved in an ordinary editor is found by memory_search), a
// predefined agent's shared files read-only, the commands, and hybrid search against a loopback
// OpenAI-compatible embeddings server.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SearchHit } from '../../../src/core/memory/types';
import type { ToolResult } from '../../../src/core/tools/types';
import { startEmbeddingsServer } from '../../support/embeddings-server';
import { core, waitFor } from './host-util';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const run = (tool: string, args: unknown) =>
  vscode.commands.executeCommand<ToolResult>('pincer.runTool', tool, args, { show: false }) as Promise<ToolResult>;
const search = (query: string, agent = 'default') =>
  vscode.commands.executeCommand<SearchHit[]>('pincer.memory.search', query, { open: false, agent }) as Promise<SearchHit[]>;
const mem = (agent: string, p: string) => vscode.Uri.parse(`pincer-memory://${agent}/${p}`);

suite('memory and context files', () => {
  test('write_file, read_file, edit and list_files on SOUL.md go to the store, never to the disk', async () => {
    const w = await run('write_file', { path: 'SOUL.md', content: '# Soul\nYou are terse and careful.\n' });
    assert.strictEqual(w.isError, false, w.forLLM);
    assert.ok(!fs.existsSync(path.join(root(), 'SOUL.md')), 'SOUL.md must not land on disk');
    const e = await run('edit', { path: 'SOUL.md', old_string: 'terse and careful', new_string: 'terse, careful and kind' });
    assert.strictEqual(e.isError, false, e.forLLM);
    const r = await run('read_file', { path: 'SOUL.md' });
    assert.match(r.forLLM, /terse, careful and kind/);
    const list = await run('list_files', { path: '.' });
    assert.match(list.forLLM, /SOUL\.md/);
    assert.match(list.forLLM, /src\//, 'the real listing is still there');
    const missing = await run('read_file', { path: 'HEARTBEAT.md' });
    assert.strictEqual(missing.isError, true);
    assert.match(missing.forLLM, /write_file/, 'a missing context file says how to create it');
  });

  test('a memory document written by the tool is found by memory_search at once; memory_expand gives the whole entry', async () => {
    const w = await run('write_file', { path: 'memory/decisions.md', content: '# Decisions\n\n## Storage\nWe chose sql.js with a journal because native modules break the universal VSIX.\n' });
    assert.strictEqual(w.isError, false, w.forLLM);
    assert.ok(!fs.existsSync(path.join(root(), 'memory')), 'memory/ must not land on disk');
    const s = await run('memory_search', { query: 'native modules journal' });
    assert.strictEqual(s.isError, false, s.forLLM);
    assert.match(s.forLLM, /memory\/decisions\.md/);
    const id = Number(/\bid[:= ]+(\d+)/i.exec(s.forLLM)?.[1]);
    assert.ok(id > 0, `an id in: ${s.forLLM}`);
    const x = await run('memory_expand', { id });
    assert.match(x.forLLM, /universal VSIX/);
  });

  test('an edit saved in an ordinary editor through pincer-memory: is found by memory_search', async () => {
    await run('write_file', { path: 'MEMORY.md', content: '# Memory\n\n- The build uses esbuild.\n' });
    const doc = await vscode.workspace.openTextDocument(mem('default', 'MEMORY.md'));
    const editor = await vscode.window.showTextDocument(doc);
    assert.match(doc.getText(), /esbuild/);
    await editor.edit((b) => b.insert(new vscode.Position(doc.lineCount, 0), '- Deployments go out on Thursdays via the zeppelin pipeline.\n'));
    // On a loaded machine VS Code's text file save can end without writing and without a word
    // (4 of 20 runs beside a CPU hog: the document still dirty, the provider never asked to write,
    // no error shown); the person saves again, and so does the test.
    await waitFor('the document to save through the provider', async () => !doc.isDirty || ((await doc.save()) && !doc.isDirty));
    const hits = await search('zeppelin thursdays');
    assert.ok(hits.some((h) => h.path === 'MEMORY.md'), JSON.stringify(hits));
    const r = await run('read_file', { path: 'MEMORY.md' });
    assert.match(r.forLLM, /zeppelin/, 'the model reads what the person saved');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a predefined agent: its shared files are read-only for the model and in the editor, USER.md is per user', async () => {
    const c = await core();
    await c.memory.agents.reload();
    const reviewer = c.memory.agents.registry.get('reviewer');
    assert.strictEqual(reviewer?.type, 'predefined', 'sample-workspace/.pincer/agents/reviewer.md defines it');
    const soul = await vscode.workspace.fs.readFile(mem('reviewer', 'SOUL.md'));
    assert.match(Buffer.from(soul).toString(), /You review code/, 'SOUL.md falls back to the agent definition');
    const st = await vscode.workspace.fs.stat(mem('reviewer', 'SOUL.md'));
    assert.strictEqual(st.permissions, vscode.FilePermission.Readonly);
    await assert.rejects(() => Promise.resolve(vscode.workspace.fs.writeFile(mem('reviewer', 'SOUL.md'), Buffer.from('x'))), /NoPermissions|read-only|shared/i);
    await vscode.workspace.fs.writeFile(mem('reviewer', '.agent/SOUL.md'), Buffer.from('# Reviewer\nBe exacting.\n'));
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(mem('reviewer', 'SOUL.md'))).toString(), /exacting/);
    await vscode.workspace.fs.writeFile(mem('reviewer', 'USER.md'), Buffer.from('Prefers short reviews.\n'));
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(mem('reviewer', 'USER.md'))).toString(), /short reviews/);
    // The model, calling as the reviewer agent, reads the shared SOUL.md but cannot change it.
    const rt = c.services.rt;
    const ctx = rt.context({ channel: 'chat', agentId: 'reviewer', sessionKey: 'chat:reviewer-test' });
    assert.match((await rt.registry.execute('read_file', { path: 'SOUL.md' }, ctx)).forLLM, /exacting/);
    const refused = await rt.registry.execute('write_file', { path: 'SOUL.md', content: 'I am now unrestricted.' }, ctx);
    assert.strictEqual(refused.isError, true, refused.forLLM);
    assert.match(refused.forLLM, /Open Context File/);
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(mem('reviewer', 'SOUL.md'))).toString(), /exacting/);
  });

  test('an agent file in any of its three places is picked up, changed and dropped without a reload, also when its folder goes', async () => {
    const c = await core();
    await c.memory.agents.ready();
    const places = [
      { dir: ['.pincer', 'agents'], file: 'watch-pincer.md', id: 'watch-pincer', body: '---\nname: Watch Pincer\ndescription: first\n---\nWatched.\n' },
      { dir: ['.github', 'agents'], file: 'watch-copilot.agent.md', id: 'watch-copilot', body: '---\ndescription: first\n---\nWatched.\n' },
      { dir: ['.claude', 'agents'], file: 'watch-claude.md', id: 'watch-claude', body: '---\nname: watch-claude\ndescription: first\n---\nWatched.\n' },
    ];
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const exists = (u: vscode.Uri) => Promise.resolve(vscode.workspace.fs.stat(u)).then(() => true, () => false);
    for (const p of places) {
      const dir = vscode.Uri.joinPath(folder, ...p.dir);
      const file = vscode.Uri.joinPath(dir, p.file);
      // What this test makes goes again: the first folder that was not there, else the file.
      const top = vscode.Uri.joinPath(folder, p.dir[0]);
      const made = !(await exists(top)) ? top : !(await exists(dir)) ? dir : file;
      await vscode.workspace.fs.createDirectory(dir);
      try {
        await vscode.workspace.fs.writeFile(file, Buffer.from(p.body));
        await waitFor(`${p.file} to define ${p.id}`, () => c.memory.agents.registry.get(p.id)?.description === 'first');
        await vscode.workspace.fs.writeFile(file, Buffer.from(p.body.replace('description: first', 'description: second')));
        await waitFor(`${p.file}'s change`, () => c.memory.agents.registry.get(p.id)?.description === 'second');
        await vscode.workspace.fs.delete(file);
        await waitFor(`${p.id} to go with its file`, () => !c.memory.agents.registry.get(p.id));
        if (made !== file) {
          // A deleted folder is reported alone, without the files it held.
          await vscode.workspace.fs.writeFile(file, Buffer.from(p.body));
          await waitFor(`${p.file} to define ${p.id} again`, () => c.memory.agents.registry.get(p.id)?.description === 'first');
          await vscode.workspace.fs.delete(made, { recursive: true });
          await waitFor(`${p.id} to go with ${made.path.slice(folder.path.length + 1)}`, () => !c.memory.agents.registry.get(p.id));
        }
      } finally {
        await Promise.resolve(vscode.workspace.fs.delete(made, { recursive: true })).catch(() => undefined);
      }
    }
  });

  test('the Memory view lists the agents, their context files and memory documents', async () => {
    const c = await core();
    const agents = await c.memoryView.getChildren();
    const def = agents.find((n) => n.kind === 'agent' && n.agentId === 'default');
    assert.ok(def, JSON.stringify(agents));
    const entries = await c.memoryView.getChildren(def);
    const labels = entries.map((n) => String(c.memoryView.getTreeItem(n).label));
    assert.ok(labels.includes('SOUL.md') && labels.includes('MEMORY.md') && labels.includes('memory'), labels.join(', '));
    const soul = entries.find((n) => c.memoryView.getTreeItem(n).label === 'SOUL.md')!;
    assert.strictEqual(c.memoryView.getTreeItem(soul).command?.arguments?.[0]?.toString(), 'pincer-memory://default/SOUL.md');
  });

  test('a model overwriting MEMORY.md loses nothing: Restore Memory Revision puts the old content back', async () => {
    const before = (await run('read_file', { path: 'MEMORY.md' })).forLLM;
    assert.match(before, /zeppelin/);
    assert.strictEqual((await run('write_file', { path: 'MEMORY.md', content: '# Memory\n' })).isError, false);
    const s = (await (await core()).memory.services())!;
    const [rev] = await s.revisions.list({ agentId: 'default', userId: (await core()).memory.userId() }, 'MEMORY.md');
    assert.ok(rev && rev.actor === 'model', JSON.stringify(rev));
    assert.strictEqual(await vscode.commands.executeCommand('pincer.memory.restoreRevision', { agent: 'default', id: rev.id, confirm: false }), true);
    assert.match((await run('read_file', { path: 'MEMORY.md' })).forLLM, /zeppelin/);
    const [undo] = await s.revisions.list({ agentId: 'default', userId: (await core()).memory.userId() }, 'MEMORY.md');
    assert.strictEqual(undo.actor, 'person', 'the restore kept what it replaced: it can be undone');
  });

  test('Export Memory and Import Memory round-trip through a markdown folder without losing an edit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-export-'));
    const exported = await vscode.commands.executeCommand<{ files: number }>('pincer.memory.export', dir, { onConflict: 'overwrite' });
    assert.ok(exported && exported.files >= 3, JSON.stringify(exported));
    assert.match(fs.readFileSync(path.join(dir, 'default', 'MEMORY.md'), 'utf8'), /zeppelin/);
    assert.ok(fs.existsSync(path.join(dir, 'pincer-memory-export.json')));
    fs.writeFileSync(path.join(dir, 'default', 'memory', 'decisions.md'), '# Decisions\n\nImported: we ship on Fridays now.\n');
    const skipped = await vscode.commands.executeCommand<{ imported: number; skipped: string[] }>('pincer.memory.import', dir, { onConflict: 'skip' });
    assert.strictEqual(skipped?.imported, 0, 'skip leaves changed files alone');
    const imported = await vscode.commands.executeCommand<{ imported: number }>('pincer.memory.import', dir, { onConflict: 'overwrite' });
    assert.strictEqual(imported?.imported, 1, JSON.stringify(imported));
    assert.ok((await search('fridays')).some((h) => h.path === 'memory/decisions.md'));
    const reindexed = await vscode.commands.executeCommand<{ documents: number }>('pincer.memory.reindex');
    assert.ok(reindexed && reindexed.documents >= 2, JSON.stringify(reindexed));
  });

  test('with an embeddings endpoint configured, search is hybrid and finds a synonym keyword search misses', async () => {
    const server = await startEmbeddingsServer({ dims: 64, token: 'sk-host-test-key' });
    const cfg = vscode.workspace.getConfiguration('pincer.memory.embeddings');
    try {
      await vscode.commands.executeCommand('pincer.memory.setEmbeddingsKey', 'sk-host-test-key');
      await cfg.update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
      await cfg.update('model', 'test-embed', vscode.ConfigurationTarget.Workspace);
      await run('write_file', { path: 'memory/garage.md', content: '# Garage\n\nThe automobile needs new tyres before winter.\n' });
      await vscode.commands.executeCommand('pincer.memory.reindex');
      const hits = await waitFor('a hybrid hit', async () => {
        const h = await search('car');
        return h.some((x) => x.path === 'memory/garage.md' && x.why.vector) ? h : undefined;
      });
      assert.ok(hits.length > 0);
      assert.ok(server.stats.requests > 0, 'the real SDK client reached the loopback server');
    } finally {
      await cfg.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await cfg.update('model', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('pincer.memory.setEmbeddingsKey', '');
      await server.stop();
    }
  });
});
