// Libraries that only some tool calls need load on their first use, not with the runtime: the web
// page converter's HTML parser (htmlparser2, on the converter's worker), turndown, linkedom, luxon
// (datetime's `at`), croner (the first cron schedule), pg (a team store's first connection), yaml (the
// first SKILL.md or agent file read), execa (the first command run), tree-sitter (the shell parser) and
// the command judge (the first command judged). The build puts each in a bundle of its own
// (esbuild.mjs: lazy-packages-apart), so what the compiled sources load here is what the first tool
// call loads in the extension. Each case runs in a fresh node process and reads its require.cache.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** The compiled sources (out/ or a helper's own outDir): this file is out/test/unit/lazy-libraries.test.js. */
const compiled = path.join(__dirname, '..', '..', 'src');

const LAZY = ['linkedom', 'turndown', 'htmlparser2', '@joplin/turndown-plugin-gfm', 'luxon', 'croner', 'pg', 'yaml', 'execa', '@vscode/tree-sitter-wasm'];

/**
 * The packages from LAZY in require.cache after `steps` ran in a fresh process (`load(p)` requires a
 * compiled source), and those of Pincer's own modules named in `own` (`exec/command-parse`…).
 */
function lazyLoadedAfter(steps: string, own: string[] = []): string[] {
  const script = `
const path = require('node:path');
const load = (p) => require(path.join(${JSON.stringify(compiled)}, p));
(async () => {
  ${steps}
  const packages = Object.keys(require.cache).map((f) => /node_modules[\\\\/]((@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(f)?.[1]).filter(Boolean).map((p) => p.replace(/\\\\/g, '/'));
  // The judge and its parts are Pincer's own files: named as a package would be.
  for (const own of ['exec/command-judge', ...${JSON.stringify(own)}]) if (Object.keys(require.cache).some((f) => f.endsWith(path.join(...own.split('/')) + '.js'))) packages.push(own === 'exec/command-judge' ? 'command-judge' : own);
  process.stdout.write(JSON.stringify([...new Set(packages)]));
})().catch((e) => { console.error(e); process.exit(1); });`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
  return loaded.filter((p) => LAZY.includes(p) || p === 'command-judge' || own.includes(p));
}

const ctx = `{ sessionKey: 't', agentId: 'default', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60000, workspaceTrusted: true }`;

describe('lazily loaded libraries', () => {
  it('the whole toolset, the web tools, datetime and the cron schedule load none of them', () => {
    assert.deepEqual(lazyLoadedAfter(`
      load('core/toolset.js'); load('core/web/web-tools.js'); load('core/web/web-fetch.js');
      load('core/tools/builtin/datetime.js'); load('core/automation/cron-schedule.js');`), []);
  });

  it('datetime loads luxon only to convert a given moment', () => {
    assert.deepEqual(lazyLoadedAfter(`
      const { datetimeTool } = load('core/tools/builtin/datetime.js');
      const r = await datetimeTool.execute({ timezone: 'Europe/Berlin' }, ${ctx});
      if (r.isError || !/Europe\\/Berlin/.test(r.forLLM)) throw new Error(r.forLLM);`), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { datetimeTool } = load('core/tools/builtin/datetime.js');
      const r = await datetimeTool.execute({ timezone: 'UTC', at: '2030-01-01T12:00', from: 'Asia/Tokyo' }, ${ctx});
      if (r.isError || !/03:00:00/.test(r.forLLM)) throw new Error(r.forLLM);`), ['luxon']);
  });

  it('a schedule loads croner only when it has a cron expression or a time', () => {
    assert.deepEqual(lazyLoadedAfter(`
      const s = load('core/automation/cron-schedule.js');
      if (s.scheduleProblem({ everySeconds: 60 }) !== undefined || s.nextRunAfter({ everySeconds: 60 }, 1000, 0) !== 60000) throw new Error('interval');`), []);
    assert.deepEqual(lazyLoadedAfter(`
      const s = load('core/automation/cron-schedule.js');
      if (s.scheduleProblem({ cron: '0 9 * * 1-5', timezone: 'UTC' }) !== undefined) throw new Error('cron');`), ['croner']);
  });

  it('the team store loads pg when it makes its connection, not when its modules load', () => {
    assert.deepEqual(lazyLoadedAfter(`load('core/teams/postgres/pg-board-store.js'); load('core/teams/postgres/move-team.js');`), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { PgConnection } = load('core/teams/postgres/pg-connection.js');
      const c = new PgConnection({ client: { host: '127.0.0.1', port: 1, database: 'none' }, schema: 'team', where: '127.0.0.1:1/none' });
      await c.close();`), ['pg']);
  });

  it('exec loads the command judge on the first command it decides, not with the exec tools', () => {
    assert.deepEqual(lazyLoadedAfter(`load('core/exec/exec-tools.js'); load('core/exec/exec-decide.js');`), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { decide } = load('core/exec/exec-decide.js');
      const { DEFAULT_COMMAND_POLICY } = load('core/exec/command-policy.js');
      const { PathGuard } = load('core/fs/path-guard.js');
      const home = require('node:os').homedir();
      const guard = new PathGuard({ roots: [process.cwd()], workspaceOnly: true, allowPaths: [], denyPaths: [], alwaysDeny: [], home });
      const d = await decide({ policy: DEFAULT_COMMAND_POLICY, guard, store: { list: async () => [], touch: async () => undefined }, approvalTimeoutMs: 1000, home },
        { command: 'echo hi', cwd: process.cwd(), host: 'local', sessionKey: 't', agentId: 'default', signal: new AbortController().signal });
      if (d.kind !== 'run') throw new Error(JSON.stringify(d));`), ['@vscode/tree-sitter-wasm', 'command-judge']);
  });

  it('the approval store, the model-tool preparation, custom tools and the executor factory load no part of the judge or the sandbox until a command runs', () => {
    // What the runtime loads for a window's first call: in the bundle these modules are evaluated then.
    assert.deepEqual(lazyLoadedAfter(`
      load('core/exec/approval-store.js'); load('core/lm/lm-prepare.js'); load('core/customtools/custom-tool.js');
      load('core/customtools/definition.js'); load('core/exec/run/process-executor.js'); load('core/mcp/workspace-files.js');
      load('core/exec/run/create-executor.js').createExecutorFactory({ config: () => { throw new Error('no command runs'); }, roots: () => [], process: {}, notice: () => undefined });`,
    ['exec/command-parse', 'exec/command-walk', 'exec/approval-rules', 'exec/command-allowlist', 'exec/exec-decide', 'exec/run/sandbox-select', 'exec/run/devcontainer-executor']), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { MemoryApprovalStore } = load('core/exec/approval-store.js');
      await new MemoryApprovalStore().add({ executable: '/usr/bin/git', args: 'status' }, 'git status');`,
    ['exec/approval-rules', 'exec/command-parse']), ['exec/approval-rules']);
  });

  it('custom tools, teams, agents and cron jobs load their definitions\' schemas only when there is one to read', () => {
    const own = ['customtools/definition', 'teams/team-definition', 'automation/cron-schedule', 'jsonc-parser', 'agents/agent-fields', 'agents/agent-file'];
    assert.deepEqual(lazyLoadedAfter(`
      const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'pincer-lazy-'));
      const { readCustomTools } = load('core/customtools/sources.js');
      const { readTeams } = load('core/teams/team-sources.js');
      load('core/automation/cron-scheduler.js');
      const r = readCustomTools({ workspaceFolder: dir, workspaceTrusted: true });
      const t = readTeams(dir, {});
      const { AgentRegistry } = load('core/agents/agent-registry.js');
      const agents = new AgentRegistry();
      agents.setSettings({}); agents.setWorkspace([]); agents.setForeign([]);
      require('node:fs').rmSync(dir, { recursive: true });
      if (r.definitions.length || t.teams.length) throw new Error('nothing was defined');`, own), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { readCustomTools } = load('core/customtools/sources.js');
      const { readTeams } = load('core/teams/team-sources.js');
      readCustomTools({ user: { value: [], file: 'user settings' }, workspaceTrusted: true });
      readTeams(undefined, { crabs: { lead: 'default' } });
      new (load('core/agents/agent-registry.js').AgentRegistry)().setSettings({ crabs: { type: 'predefined' } });`, own).sort(),
    ['agents/agent-fields', 'agents/agent-file', 'customtools/definition', 'teams/team-definition']);
  });

  it('the file tools\' routing and the user id load none of the memory\'s stores (they load when the memory opens)', () => {
    assert.deepEqual(lazyLoadedAfter(`
      load('core/memory/fs-interceptor.js');
      if (!load('core/memory/memory-user.js').memoryUserId(undefined)) throw new Error('no user');`,
    ['memory/memory-store', 'memory/fts-query', 'memory/memory-services']), []);
  });

  it('a SKILL.md or an agent file loads yaml when the first one is read, not with their modules', () => {
    assert.deepEqual(lazyLoadedAfter(`load('core/skills/skill-file.js'); load('core/agents/agent-file.js');`), []);
    assert.deepEqual(lazyLoadedAfter(`
      const { parseSkill } = load('core/skills/skill-file.js');
      const r = parseSkill('---\\nname: crabs\\ndescription: Sorts crabs.\\n---\\nSort them.', { file: 'x/SKILL.md', dir: 'x', source: 'workspace', from: 'x' });
      if (!r.skill) throw new Error(JSON.stringify(r));`), ['yaml']);
  });

  it('web_search reads HTML with linkedom (and its parser, htmlparser2) only when a provider answers with HTML', () => {
    assert.deepEqual(lazyLoadedAfter(`
      const { parseDuckDuckGo } = load('core/web/search/duckduckgo.js');
      if (parseDuckDuckGo('<div class="result"><a class="result__a" href="https://crabs.example/">Crabs</a></div>', 5).length !== 1) throw new Error('parse');`).sort(), ['htmlparser2', 'linkedom']);
  });
});
