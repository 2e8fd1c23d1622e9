// The toolset registers every family but the file tools by its stubs and builds a family on first
// use (src/core/tools/lazy-tool.ts): the first read_file call builds none of the others, listing the
// tools for a provider builds them all, and every family's real tools agree with their stubs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { MemoryApprovalStore } from '../../../src/core/exec/approval-store';
import { JobManager } from '../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../src/core/exec/run/process-executor';
import { RejectAllReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { SkillCatalog } from '../../../src/core/skills/skill-catalog';
import { TOOL_STUBS } from '../../../src/core/tool-stubs';
import { createToolset } from '../../../src/core/toolset';
import { lazyToolBuilt, lazyTools } from '../../../src/core/tools/lazy-tool';
import { defineTool, ok, type Tool } from '../../../src/core/tools/types';
import { systemClock } from '../../../src/core/clock';
import { tempDir } from '../../support/fs-fixtures';
import { runtimeWith } from '../../support/test-tools';

function echo(name: string, extra: Partial<Tool> = {}): Tool {
  return { ...defineTool({ name, description: `echoes (${name})`, parameters: z.object({ text: z.string() }), group: 'fs', capability: 'read-only', execute: async (a) => ok(`${name}: ${a.text}`) }), ...extra } as Tool;
}

describe('lazy tool families', () => {
  it('name, group, capability and owner-only come from the stub; anything else builds the family once', async () => {
    let builds = 0;
    const [a, b] = lazyTools([{ name: 'a', group: 'fs', capability: 'read-only' }, { name: 'b', group: 'fs', capability: 'read-only' }], () => {
      builds++;
      return [echo('a'), echo('b')];
    });
    assert.deepEqual([a.name, a.group, a.capability, a.ownerOnly, b.name], ['a', 'fs', 'read-only', undefined, 'b']);
    assert.equal(builds, 0, 'what the policy reads builds nothing');
    const rt = runtimeWith({}, [a, b]);
    assert.equal(builds, 0, 'registering builds nothing');
    assert.equal(lazyToolBuilt(a), false);
    const r = await rt.registry.execute('b', { text: 'hi' }, rt.context({ channel: 'test' }));
    assert.equal(r.forLLM, 'b: hi');
    assert.equal(a.description, 'echoes (a)');
    assert.deepEqual(Object.keys(rt.registry.jsonSchema(a).properties as object), ['text']);
    assert.equal(builds, 1, 'the family was built once, for all its members');
    assert.deepEqual([lazyToolBuilt(a), lazyToolBuilt(b), lazyToolBuilt(echo('c'))], [true, true, undefined]);
  });

  it('a factory whose tool drifted from its stub is refused at first use, naming the tool', () => {
    const [wrongGroup] = lazyTools([{ name: 'a', group: 'web', capability: 'read-only' }], () => [echo('a')]);
    assert.throws(() => wrongGroup.description, /Tool a is in group fs, its stub says web/);
    const [notOwnerOnly] = lazyTools([{ name: 'a', group: 'fs', capability: 'read-only', ownerOnly: true }], () => [echo('a')]);
    assert.throws(() => notOwnerOnly.execute, /Tool a is not owner-only/);
    const [missing] = lazyTools([{ name: 'zz', group: 'fs', capability: 'read-only' }], () => [echo('a')]);
    assert.throws(() => missing.parameters, /Tool zz is not built by its factory/);
  });
});

describe('the toolset builds its families on first use', () => {
  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  function fullToolset() {
    const root = tempDir('lazy-toolset');
    made.push(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
    const rt = runtimeWith();
    const jobs = new JobManager();
    const processExec = createProcessExecutor();
    createToolset({
      rt, folders: () => [{ path: root }], home: os.homedir(), ownStorage: [], fs: new NodeWorkspaceFs(), reviewer: new RejectAllReviewer('no writes here'),
      memory: async () => undefined, userId: () => 'tester', sessions: async () => undefined, runner: () => undefined,
      // Every optional family on, so that each is built and checked against its stubs.
      subagents: () => undefined, agents: () => [], handoffs: async () => undefined,
      teams: { service: () => undefined }, skills: { catalog: new SkillCatalog({ folders: () => [root], home: root, trusted: () => false }) },
      cron: { store: async () => undefined, clock: systemClock },
      exec: () => ({ executor: () => processExec, jobs, store: new MemoryApprovalStore(), approver: () => undefined, secrets: { get: async () => undefined } }),
    });
    return { rt, root, jobs };
  }

  it('read_file answers with every other family registered and unbuilt; a provider list builds them all, each agreeing with its stubs', async () => {
    const { rt, root, jobs } = fullToolset();
    try {
      const stubbed = Object.values(TOOL_STUBS).flat().map((s) => s.name);
      for (const name of stubbed) assert.ok(rt.registry.get(name), `${name} registered`);
      const unbuilt = (name: string) => lazyToolBuilt(rt.registry.get(name)!) === false;
      const r = await rt.registry.execute('read_file', { path: 'a.txt' }, rt.context({ channel: 'test', workspaceRoot: root }));
      assert.equal(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /alpha/);
      assert.ok(stubbed.every(unbuilt), 'a read_file call reads nothing of the other families');
      // Listing for a provider reads every tool's description and schema: each family builds, and its stubs are checked then.
      const { tools } = rt.registry.definitions(rt.registry.policyRequest(rt.context({ channel: 'test' })));
      assert.ok(!stubbed.some(unbuilt), 'every family was built');
      for (const name of stubbed) {
        const def = tools.find((t) => t.name === name);
        assert.ok(def, `${name} offered`);
        assert.ok(def.description.length > 20, `${name} has its real description`);
        assert.equal(def.parameters.type, 'object', `${name} has its real schema`);
      }
    } finally {
      await jobs.dispose();
    }
  });
});
