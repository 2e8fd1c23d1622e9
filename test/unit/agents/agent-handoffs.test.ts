// A Copilot custom agent's `handoffs`: each entry becomes a button (label, target agent, prompt, send),
// and each broken entry is left out on its own with a warning that names it — a target that is not a
// valid agent id as written is never cleaned into another agent's name.
import assert from 'node:assert/strict';
import { parseForeignAgentFile } from '../../../src/core/agents/foreign-agent-file';
import { MAX_HANDOFFS, parseHandoffs } from '../../../src/core/agents/agent-handoffs';

const FILE = '/ws/.github/agents/planner.agent.md';

describe('agents: Copilot handoffs', () => {
  it('reads label, agent, prompt and send as Copilot writes them', () => {
    const r = parseForeignAgentFile('copilot', FILE, [
      '---', 'name: Planner', 'handoffs:',
      '  - label: Start Implementation', '    agent: Implementation', '    prompt: Implement the plan outlined above.', '    send: false',
      '  - label: Review now', '    agent: reviewer', '    prompt: Review the plan.', '    send: true',
      '  - label: Hand over', '    agent: impl',
      '---', 'Plan only.', '',
    ].join('\n'), new Set());
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.agent?.handoffs, [
      { label: 'Start Implementation', agent: 'implementation', prompt: 'Implement the plan outlined above.', send: false },
      { label: 'Review now', agent: 'reviewer', prompt: 'Review the plan.', send: true },
      { label: 'Hand over', agent: 'impl', send: false },
    ]);
    assert.deepEqual(r.warnings, [], 'every field of these entries is used');
  });

  it('an agent without handoffs has none', () => {
    assert.equal(parseForeignAgentFile('copilot', FILE, '---\nname: Planner\n---\nx\n', new Set()).agent?.handoffs, undefined);
    assert.deepEqual(parseHandoffs(undefined, FILE), { handoffs: [], warnings: [] });
  });

  it('hostile entries are left out one by one, each named; the rest stay', () => {
    const { handoffs, warnings } = parseHandoffs([
      { label: 'Escape', agent: '../../etc/passwd' },
      { label: 'Spaces', agent: 'my agent' },
      { label: '', agent: 'impl' },
      { label: 'x'.repeat(101), agent: 'impl' },
      { label: 'No agent' },
      { label: 'Object prompt', agent: 'impl', prompt: { $ne: 1 } },
      { label: 'Huge prompt', agent: 'impl', prompt: 'p'.repeat(10_001) },
      { label: 'Send as text', agent: 'impl', prompt: 'go', send: 'yes' },
      'just a string',
      ['a', 'list'],
      { label: 'Kept', agent: 'impl', prompt: 'go', send: true, model: 'GPT-5 (copilot)' },
    ], FILE);
    assert.deepEqual(handoffs, [{ label: 'Kept', agent: 'impl', prompt: 'go', send: true }]);
    const said = warnings.join('\n');
    assert.match(said, /handoffs\[0\] \("Escape"\): "\.\.\/\.\.\/etc\/passwd" is not a valid agent id/);
    assert.match(said, /handoffs\[1\] \("Spaces"\): "my agent" is not a valid agent id/);
    assert.match(said, /handoffs\[2\] needs a "label"/);
    assert.match(said, /handoffs\[3\] needs a "label"/);
    assert.match(said, /handoffs\[4\] \("No agent"\): no "agent" is named/);
    assert.match(said, /handoffs\[5\] \("Object prompt"\): its "prompt" is not a text/);
    assert.match(said, /handoffs\[6\] \("Huge prompt"\): its "prompt" is not a text of at most 10000 characters/);
    assert.match(said, /handoffs\[7\] \("Send as text"\): its "send" is not true or false/);
    assert.match(said, /handoffs\[8\] is not a \{label, agent, prompt, send\} entry/);
    assert.match(said, /handoffs\[9\] is not a \{label, agent, prompt, send\} entry/);
    assert.match(said, /handoffs' "model" is not used by Pincer/);
  });

  it('send without a prompt only hands over; a handoffs that is not a list is ignored whole; at most ten buttons', () => {
    assert.deepEqual(parseHandoffs([{ label: 'Go', agent: 'impl', send: true }], FILE).handoffs, [{ label: 'Go', agent: 'impl', send: false }]);
    const notList = parseHandoffs({ label: 'Go', agent: 'impl' }, FILE);
    assert.deepEqual(notList.handoffs, []);
    assert.match(notList.warnings[0]!, /"handoffs" is not a list/);
    const many = parseHandoffs(Array.from({ length: 12 }, (_, i) => ({ label: `Step ${i}`, agent: 'impl' })), FILE);
    assert.equal(many.handoffs.length, MAX_HANDOFFS);
    assert.match(many.warnings.join(), /only the first 10 handoffs are shown/);
  });
});
