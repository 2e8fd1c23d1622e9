// A team's shared memory on the team store's server, in a real window: with the person's settings
// naming a server (a real PostgreSQL server started here), the agent-level memory and context files
// of the team's lead go to the server, the person's own level stays in the workspace, and the lead's
// memory_search (through the tool pipeline) finds both. An agent of no team keeps its memory here.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { PgMemoryStore } from '../../../src/core/teams/postgres/pg-memory-store';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import type { ToolResult } from '../../../src/core/tools/types';
import { startPostgres } from '../../support/postgres-server';
import { core, waitFor } from './host-util';

const TEAM = '---\nname: Memory Team\nlead: default\nmembers:\n  - ann\n---\nShare what you learn.\n';

suite('Team memory on the team store', () => {
  test('the lead\'s shared memory and context files live on the server, its person\'s own here; memory_search finds both', async function () {
    this.timeout(240_000);
    const pincer = await core();
    const { rt } = pincer.services;
    // The extension host's temp folder lies in the run's private folder, which the server's own
    // user (postgres, when the tests run as root) cannot enter: the cluster goes under /tmp itself.
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = '/tmp';
    const pg = await startPostgres().finally(() => {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    });
    const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-pw-'));
    const pwFile = path.join(pwDir, 'pw');
    fs.writeFileSync(pwFile, pg.password, { mode: 0o600 });
    const config = vscode.workspace.getConfiguration('pincer');
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.pincer', 'teams', 'memteam.md');
    const server = await PgMemoryStore.open(teamStoreConnection({ url: pg.url, schema: 'pincer', tls: { mode: 'disable' } }, pg.password), { teamId: 'memteam' });
    try {
      await config.update('teamStore.url', pg.url, vscode.ConfigurationTarget.Global);
      await config.update('teamStore.tls', { mode: 'disable' }, vscode.ConfigurationTarget.Global);
      await config.update('teamStore.passwordCommand', ['cat', pwFile], vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, '.pincer', 'teams'));
      await vscode.workspace.fs.writeFile(file, Buffer.from(TEAM));
      await waitFor('the team', () => pincer.teams.teams().some((t) => t.id === 'memteam'));
      const services = (await pincer.memory.services())!;
      const user = pincer.memory.userId();
      const shared = { agentId: 'default', userId: '' };
      await services.memory.write(shared, 'memory/team-notes.md', '# Releases\n\nThe team releases on Wednesday afternoons.');
      await services.memory.write({ agentId: 'default', userId: user }, 'memory/own-notes.md', '# Mine\n\nI release nothing on Wednesday mornings.');
      await services.context.put(shared, 'AGENTS.md', 'the team\'s agents file');
      await services.memory.write({ agentId: 'solo-agent', userId: '' }, 'MEMORY.md', '# Solo\n\nWednesday is quiet.');

      assert.strictEqual((await server.readExact(shared, 'memory/team-notes.md'))?.content, '# Releases\n\nThe team releases on Wednesday afternoons.', 'on the server');
      assert.strictEqual(await server.readExact({ agentId: 'default', userId: user }, 'memory/own-notes.md'), undefined, 'the person\'s own level is not on the server');
      assert.deepEqual(await server.list({ agentId: 'solo-agent', userId: '' }), [], 'an agent of no team keeps its memory here');
      const db = (await pincer.storage.database())!;
      const here = await db.query<{ path: string; user_id: string }>("SELECT path, user_id FROM memory_documents WHERE agent_id = 'default' AND path IN ('memory/team-notes.md', 'memory/own-notes.md') ORDER BY path");
      assert.deepEqual(here.map((r) => `${r.user_id}:${r.path}`), [`${user}:memory/own-notes.md`], 'the shared document is not in the workspace');
      assert.strictEqual((await db.query<{ n: number }>("SELECT count(*) AS n FROM agent_context_files WHERE agent_id = 'default' AND name = 'AGENTS.md'"))[0]!.n, 0);

      const lead = rt.context({ channel: 'chat', sessionKey: 'team-memory-host', agentId: 'default' });
      const r = await rt.registry.execute('memory_search', { query: 'Wednesday release' }, lead) as ToolResult;
      assert.strictEqual(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /memory\/team-notes\.md/);
      assert.match(r.forLLM, /memory\/own-notes\.md/);
      assert.doesNotMatch(r.forLLM, /Wednesday is quiet/, 'another agent\'s memory is not the lead\'s');
      await services.memory.delete({ agentId: 'default', userId: user }, 'memory/own-notes.md');
      await services.memory.delete({ agentId: 'solo-agent', userId: '' }, 'MEMORY.md');
    } finally {
      await config.update('teamStore.url', undefined, vscode.ConfigurationTarget.Global);
      await config.update('teamStore.tls', undefined, vscode.ConfigurationTarget.Global);
      await config.update('teamStore.passwordCommand', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
      await server.close();
      await pg.remove();
      fs.rmSync(pwDir, { recursive: true, force: true });
    }
  });
});
