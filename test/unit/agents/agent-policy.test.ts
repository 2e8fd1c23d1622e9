import assert from 'node:assert/strict';
import { withAgentPolicies } from '../../../src/core/agents/agent-policy';
import type { AgentDefinition } from '../../../src/core/agents/types';
import { DEFAULT_POLICY } from '../../../src/core/policy/policy-config';

const agent = (over: Partial<AgentDefinition>): AgentDefinition => ({ id: 'rev', name: 'rev', type: 'open', source: 'workspace', ...over });

describe('agent tool policies', () => {
  it('an agent file\'s profile and tools become that agent\'s policy', () => {
    const p = withAgentPolicies(DEFAULT_POLICY, [agent({ profile: 'minimal', tools: ['read_file'] })]);
    assert.deepEqual(p.agents.rev, { profile: 'minimal', allow: ['read_file'] });
    assert.deepEqual(DEFAULT_POLICY.agents, {}, 'the input is not mutated');
  });

  it('tools: [] means no tools, not "no restriction"', async () => {
    const { PolicyEngine } = await import('../../../src/core/policy/policy-engine');
    const p = withAgentPolicies(DEFAULT_POLICY, [agent({ tools: [] })]);
    const e = new PolicyEngine(p, [{ name: 'read_file', group: 'fs', capability: 'read-only' }], () => undefined);
    assert.deepEqual(e.evaluate({ agentId: 'rev', channel: 'chat', depth: 0, isOwner: true, trusted: true }).allowed, []);
  });

  it('settings that set tools for the agent win over its file', () => {
    const base = { ...DEFAULT_POLICY, agents: { rev: { deny: ['write_file'] } } };
    assert.deepEqual(withAgentPolicies(base, [agent({ profile: 'full' })]).agents.rev, { deny: ['write_file'] });
  });

  it('an agent in settings without tools still takes its file\'s policy; settings and default agents add nothing', () => {
    const base = { ...DEFAULT_POLICY, agents: { rev: {} } };
    assert.deepEqual(withAgentPolicies(base, [agent({ profile: 'coding' })]).agents.rev, { profile: 'coding' });
    const p = withAgentPolicies(DEFAULT_POLICY, [agent({ id: 's', source: 'settings', profile: 'full' }), agent({ id: 'default', source: 'default' })]);
    assert.deepEqual(p.agents, {});
  });
});
