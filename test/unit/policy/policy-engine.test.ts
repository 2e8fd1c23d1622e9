import assert from 'node:assert/strict';
import { PolicyEngine, type PolicyRequest } from '../../../src/core/policy/policy-engine';
import { DEFAULT_POLICY, type PolicyConfig } from '../../../src/core/policy/policy-config';
import { policyTools } from '../../support/test-tools';

const tools = policyTools().map((t) => ({ name: t.name, group: t.group, capability: t.capability, ownerOnly: t.ownerOnly, mcpServer: t.mcpServer }));
const ALL = tools.map((t) => t.name).sort();
const base: PolicyRequest = { agentId: 'default', channel: 'chat', depth: 0, isOwner: true, trusted: true };

function engine(over: Partial<PolicyConfig> = {}, warnings: string[] = []): PolicyEngine {
  return new PolicyEngine({ ...DEFAULT_POLICY, ...over }, tools, (m) => warnings.push(m));
}

function removal(e: PolicyEngine, tool: string, req: Partial<PolicyRequest> = {}) {
  return e.evaluate({ ...base, ...req }).removed.find((r) => r.tool === tool);
}

describe('policy engine', () => {
  describe('profiles', () => {
    it('coding (the default) has files, commands, sessions, memory, datetime and MCP tools, not messaging, web or cron', () => {
      const d = engine().evaluate(base);
      // spawn joins group:sessions by declaring it; web_fetch's group is in no profile until Pincer has web tools.
      assert.deepEqual(d.allowed, ['datetime', 'exec', 'mcp_github__search', 'mcp_jira__get', 'memory_search', 'read_file', 'session_status', 'sessions_list', 'spawn', 'write_file']);
      assert.match(removal(engine(), 'web_fetch')!.detail, /not in profile "coding"/);
      assert.equal(d.profile.id, 'coding');
      assert.match(removal(engine(), 'message')!.detail, /not in profile "coding" \(pincer\.tools\.profile\)/);
    });

    it('full has every tool, MCP included; minimal has session_status only', () => {
      assert.deepEqual(engine({ profile: 'full' }).evaluate(base).allowed, ALL);
      assert.deepEqual(engine({ profile: 'minimal' }).evaluate(base).allowed, ['session_status']);
    });

    it('messaging has the sessions tools (the messaging tools it is named for do not exist yet)', () => {
      assert.deepEqual(engine({ profile: 'messaging' }).evaluate(base).allowed, ['session_status', 'sessions_list', 'spawn']);
    });

    it('the most specific profile wins: agent+provider > agent > provider > global', () => {
      const e = engine({
        profile: 'full',
        byProvider: { openai: { profile: 'messaging' } },
        agents: { a: { profile: 'coding', byProvider: { openai: { profile: 'minimal' } } }, b: { profile: 'minimal' } },
      });
      assert.equal(e.evaluate({ ...base, provider: 'openai' }).profile.id, 'messaging');
      assert.equal(e.evaluate({ ...base, agentId: 'a' }).profile.id, 'coding');
      assert.equal(e.evaluate({ ...base, agentId: 'a', provider: 'openai' }).profile.id, 'minimal');
      assert.equal(e.evaluate({ ...base, agentId: 'b', provider: 'openai' }).profile.id, 'minimal');
      assert.equal(e.evaluate({ ...base, provider: 'anthropic' }).profile.id, 'full');
      assert.equal(e.evaluate({ ...base, profileOverride: 'minimal' }).profile.source, 'requested');
    });

    it('an unknown profile falls back to coding with one warning, never to full', () => {
      const warnings: string[] = [];
      const e = engine({ profile: 'ful' }, warnings);
      assert.equal(e.evaluate(base).profile.id, 'coding');
      e.evaluate({ ...base, depth: 1 });
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /Unknown tool profile "ful"/);
    });
  });

  describe('allow lists (steps 3–7), each an intersection', () => {
    const cases: [string, Partial<PolicyConfig>, Partial<PolicyRequest>, RegExp][] = [
      ['global', { allow: ['read_file', 'exec'] }, {}, /pincer\.tools\.allow/],
      ['provider', { byProvider: { openai: { allow: ['read_file', 'exec'] } } }, { provider: 'openai' }, /byProvider\.openai\.allow/],
      ['agent', { agents: { a: { allow: ['read_file', 'exec'] } } }, { agentId: 'a' }, /pincer\.agents\.a\.tools\.allow/],
      ['agent+provider', { agents: { a: { byProvider: { openai: { allow: ['read_file', 'exec'] } } } } }, { agentId: 'a', provider: 'openai' }, /agents\.a\.tools\.byProvider\.openai\.allow/],
      ['channel', { byChannel: { lm: { allow: ['read_file', 'exec'] } } }, { channel: 'lm' }, /byChannel\.lm\.allow/],
    ];
    for (const [name, cfg, req, where] of cases) {
      it(`${name} allow narrows and names itself as the reason`, () => {
        const e = engine({ profile: 'full', ...cfg });
        assert.deepEqual(e.evaluate({ ...base, ...req }).allowed, ['exec', 'read_file']);
        const r = removal(e, 'write_file', req)!;
        assert.equal(r.step, 'allow');
        assert.match(r.detail, where);
        // Other callers are not affected by a list that is not theirs.
        if (Object.keys(req).length) assert.equal(e.evaluate(base).allowed.length, ALL.length);
      });
    }

    it('allow lists stack: each step can only narrow what is left', () => {
      const e = engine({ profile: 'full', allow: ['group:fs', 'exec'], agents: { a: { allow: ['exec', 'cron'] } } });
      assert.deepEqual(e.evaluate({ ...base, agentId: 'a' }).allowed, ['exec']);
    });

    it('an empty allow list means no restriction at that step', () => {
      assert.deepEqual(engine({ profile: 'full', allow: [] }).evaluate(base).allowed, ALL);
    });
  });

  describe('entries', () => {
    it('groups, aliases, globs and MCP server groups expand to registered tools', () => {
      const e = engine({ profile: 'full', deny: ['group:runtime', 'Write', 'mcp_jira__*', 'group:mcp:github'] });
      const d = e.evaluate(base);
      for (const t of ['exec', 'write_file', 'mcp_jira__get', 'mcp_github__search']) assert.ok(!d.allowed.includes(t), t);
      assert.match(removal(e, 'write_file')!.detail, /pincer\.tools\.deny/);
    });

    it('group:mcp covers every MCP tool; group:pincer every native one', () => {
      assert.deepEqual(engine({ profile: 'full', allow: ['group:mcp'] }).evaluate(base).allowed, ['mcp_github__search', 'mcp_jira__get']);
      assert.equal(engine({ profile: 'full', allow: ['group:pincer'] }).evaluate(base).allowed.length, ALL.length - 2);
    });

    it('unknown entries are warned once, even across settings changes; Pincer\'s own tool names and globs are not', () => {
      const warnings: string[] = [];
      // apply_patch is not registered in this engine but is one of Pincer's tools; send_fax is no tool of Pincer's.
      const e = engine({ profile: 'full', deny: ['red_file', 'group:nope', 'send_fax', 'apply_patch', 'zz_*'] }, warnings);
      e.evaluate(base);
      e.evaluate({ ...base, depth: 1 });
      e.setConfig({ ...DEFAULT_POLICY, profile: 'full', deny: ['red_file', 'group:nope'] });
      e.evaluate(base);
      assert.equal(warnings.length, 3, warnings.join('\n'));
      assert.match(warnings[0], /"red_file" in pincer\.tools\.deny matches nothing/);
      assert.match(warnings[1], /no tool group "nope"/);
      assert.match(warnings[2], /"send_fax" in pincer\.tools\.deny matches nothing/);
    });
  });

  describe('deny and alsoAllow', () => {
    it('alsoAllow adds tools the profile left out', () => {
      const d = engine({ alsoAllow: ['message'] }).evaluate(base);
      assert.ok(d.allowed.includes('message'));
      assert.ok(!d.removed.some((r) => r.tool === 'message'));
    });

    it('deny wins over alsoAllow, at every level', () => {
      const e = engine({ deny: ['exec'], alsoAllow: ['exec', 'message'], agents: { a: { alsoAllow: ['group:runtime'] } } });
      for (const req of [base, { ...base, agentId: 'a' }]) {
        const d = e.evaluate(req);
        assert.ok(!d.allowed.includes('exec'));
        assert.ok(d.allowed.includes('message'));
        assert.match(removal(e, 'exec', req)!.detail, /deny wins over/);
      }
    });

    it('an agent deny removes a tool for that agent only', () => {
      const e = engine({ agents: { a: { deny: ['Bash'] } } });
      assert.ok(!e.evaluate({ ...base, agentId: 'a' }).allowed.includes('exec'));
      assert.ok(e.evaluate(base).allowed.includes('exec'));
    });
  });

  describe('subagents, owner, trust and per-request lists come last', () => {
    it('subagents lose the subagent deny list, even when alsoAllowed', () => {
      const e = engine({ profile: 'full', alsoAllow: ['memory_search', 'session_status'] });
      const d = e.evaluate({ ...base, depth: 1 });
      for (const t of ['memory_search', 'session_status']) assert.ok(!d.allowed.includes(t), t);
      assert.equal(removal(e, 'memory_search', { depth: 1 })!.step, 'subagent deny');
    });

    it('the leaf deny list applies at the maximum depth only', () => {
      const one = engine({ profile: 'full' });
      assert.equal(removal(one, 'sessions_list', { depth: 1 })?.step, 'leaf deny');
      assert.ok(one.evaluate(base).allowed.includes('sessions_list'));
      const two = engine({ profile: 'full', subagentMaxDepth: 2 });
      assert.ok(two.evaluate({ ...base, depth: 1 }).allowed.includes('sessions_list'));
      assert.equal(removal(two, 'sessions_list', { depth: 2 })?.step, 'leaf deny');
    });

    it('owner-only tools are hidden from non-owners whatever the lists say', () => {
      const e = engine({ profile: 'full', alsoAllow: ['cron'] });
      assert.ok(e.evaluate(base).allowed.includes('cron'));
      assert.equal(removal(e, 'cron', { isOwner: false })?.step, 'owner-only');
    });

    it('an untrusted workspace keeps read-only tools only', () => {
      const d = engine({ profile: 'full' }).evaluate({ ...base, trusted: false });
      assert.deepEqual(d.allowed, ['datetime', 'memory_search', 'read_file', 'session_status', 'sessions_list']);
      assert.ok(d.removed.filter((r) => r.step === 'workspace trust').some((r) => r.tool === 'write_file'));
    });

    it('the per-request allow list is a last intersection and cannot add anything', () => {
      const e = engine();
      const d = e.evaluate({ ...base, requestAllow: ['read_file', 'message', 'group:runtime'] });
      assert.deepEqual(d.allowed, ['exec', 'read_file']);
      assert.equal(removal(e, 'write_file', { requestAllow: ['read_file'] })?.step, 'request allow');
    });
  });

  it('every registered tool is either allowed or removed exactly once, for many request shapes', () => {
    const e = engine({ deny: ['web_fetch'], alsoAllow: ['message', 'web_fetch'], agents: { a: { allow: ['group:fs', 'message', 'cron'] } } });
    for (const depth of [0, 1, 2]) for (const isOwner of [true, false]) for (const trusted of [true, false]) for (const agentId of ['default', 'a']) {
      const d = e.evaluate({ ...base, depth, isOwner, trusted, agentId });
      const seen = [...d.allowed, ...d.removed.map((r) => r.tool)].sort();
      assert.deepEqual(seen, ALL, JSON.stringify({ depth, isOwner, trusted, agentId }));
    }
  });

  it('setConfig takes effect on the next evaluation (the cache is dropped)', () => {
    const e = engine();
    assert.ok(e.evaluate(base).allowed.includes('exec'));
    e.setConfig({ ...DEFAULT_POLICY, deny: ['exec'] });
    assert.ok(!e.evaluate(base).allowed.includes('exec'));
  });

  it('a repeated request gets its decision again; a request that differs in any field, or whose allow list changed in place, gets its own', () => {
    const e = engine({ profile: 'full' });
    const req: PolicyRequest = { ...base, requestAllow: ['read_file', 'exec'] };
    const first = e.evaluate(req);
    assert.deepEqual(first.allowed, ['exec', 'read_file']);
    assert.equal(e.evaluate({ ...req, requestAllow: ['read_file', 'exec'] }), first);
    (req.requestAllow as string[]).pop();
    assert.deepEqual(e.evaluate(req).allowed, ['read_file']);
    assert.deepEqual(e.evaluate({ ...base, trusted: false }).allowed, ['datetime', 'memory_search', 'read_file', 'session_status', 'sessions_list']);
    assert.deepEqual(e.evaluate({ ...base, profileOverride: 'minimal' }).allowed, ['session_status']);
    assert.deepEqual(e.evaluate(base).allowed, ALL);
    e.setTools(tools.filter((t) => t.name !== 'exec'));
    assert.ok(!e.evaluate(base).allowed.includes('exec'));
  });
});
