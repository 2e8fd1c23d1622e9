import assert from 'node:assert/strict';
import { bridgedToolNames, pairKey } from '../../../src/core/mcp/tool-names';

const PROVIDER_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

describe('MCP tool names', () => {
  const pairs = [
    { server: 'git.hub', tool: 'search' }, { server: 'git_hub', tool: 'search' }, { server: '9lives', tool: 'x y/z' },
    { server: 's', tool: 'ü\u0000\n<script>' }, { server: 'very-long-server-name-for-testing', tool: 'an_extremely_long_tool_name_that_goes_on' },
  ];

  it('every name fits the strictest provider rule and is unique', () => {
    const names = [...bridgedToolNames(pairs).values()];
    assert.ok(names.every((n) => PROVIDER_NAME.test(n)), names.join(', '));
    assert.equal(new Set(names).size, names.length);
    assert.equal(bridgedToolNames(pairs).get(pairKey('9lives', 'x y/z')), 'mcp_9lives__x_y_z');
  });

  it('does not depend on the order servers list their tools', () => {
    const a = bridgedToolNames(pairs);
    const b = bridgedToolNames([...pairs].reverse());
    assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
    // Of the two that clean to one name, the first by (server, tool) keeps it.
    assert.equal(a.get(pairKey('git.hub', 'search')), 'mcp_git_hub__search');
    assert.match(a.get(pairKey('git_hub', 'search'))!, /^mcp_git_hub__search_[0-9a-f]{8}$/);
  });

  it('a name already taken by another tool is never reused', () => {
    const names = bridgedToolNames([{ server: 'a', tool: 'b' }], new Set(['mcp_a__b']));
    assert.match(names.get(pairKey('a', 'b'))!, /^mcp_a__b_[0-9a-f]{8}$/);
  });
});
