import assert from 'node:assert/strict';
import { AgentRegistry, DEFAULT_AGENT } from '../../../src/core/agents/agent-registry';

const file = (id: string, front: string, body = '') => ({ file: `/ws/.pincer/agents/${id}.md`, text: `---\n${front}\n---\n${body}` });

describe('agent registry', () => {
  it('has the default agent with no setup: open, id "default"', () => {
    const reg = new AgentRegistry();
    assert.deepEqual(reg.all().map((a) => a.id), ['default']);
    assert.equal(reg.get('default')?.type, 'open');
    assert.equal(reg.get('default')?.source, 'default');
    assert.deepEqual(reg.problems, []);
  });

  it('workspace wins over settings, both over the built-in default', () => {
    const reg = new AgentRegistry();
    reg.setSettings({ rev: { type: 'open', name: 'From settings' }, default: { name: 'Mine' }, only: { type: 'predefined' } });
    reg.setWorkspace([file('rev', 'type: predefined\nname: From file'), file('default', 'name: Workspace default')]);
    assert.equal(reg.get('rev')?.name, 'From file');
    assert.equal(reg.get('rev')?.type, 'predefined');
    assert.equal(reg.get('rev')?.source, 'workspace');
    assert.equal(reg.get('default')?.name, 'Workspace default');
    assert.equal(reg.get('only')?.source, 'settings');
    assert.deepEqual(reg.all().map((a) => a.id), ['default', 'only', 'rev']);
    reg.setWorkspace([]);
    assert.equal(reg.get('rev')?.name, 'From settings');
    assert.equal(reg.get('default')?.name, 'Mine');
    reg.setSettings(undefined);
    assert.equal(reg.get('rev'), undefined);
    assert.deepEqual(reg.get('default'), { ...DEFAULT_AGENT });
  });

  it('resolve: an unknown id is an open agent of that name; a broken definition is predefined (fail closed)', () => {
    const reg = new AgentRegistry();
    assert.deepEqual(reg.resolve('stranger'), { id: 'stranger', name: 'stranger', type: 'open', source: 'default' });
    assert.equal(reg.get('stranger'), undefined);
    reg.setWorkspace([file('locked', 'type: predefind')]);
    const locked = reg.resolve('locked');
    assert.equal(locked.type, 'predefined');
    assert.equal(locked.file, '/ws/.pincer/agents/locked.md');
    assert.equal(reg.get('locked'), undefined);
    assert.match(reg.problems[0]!, /locked\.md: field "type" is "predefind"/);
    // A broken workspace file shadows a valid settings entry it would have won over.
    reg.setSettings({ locked: { type: 'open' }, bad: { type: 'x' } });
    assert.equal(reg.resolve('locked').type, 'predefined');
    assert.equal(reg.resolve('bad').type, 'predefined');
    assert.equal(reg.resolve('bad').source, 'settings');
  });

  it('two workspace files with one id: the first wins, the second is a problem', () => {
    const reg = new AgentRegistry();
    reg.setWorkspace([
      { file: '/a/.pincer/agents/x.md', text: '---\nname: A\n---\n' },
      { file: '/b/.pincer/agents/x.md', text: '---\nname: B\n---\n' },
    ]);
    assert.equal(reg.get('x')?.name, 'A');
    assert.match(reg.problems.join('\n'), /\/b\/\.pincer\/agents\/x\.md: agent "x" is already defined by \/a\/\.pincer\/agents\/x\.md/);
  });

  it('problems collect errors and warnings of both sources, and are replaced on each update', () => {
    const reg = new AgentRegistry();
    reg.setWorkspace([file('w', 'colour: red'), { file: '/ws/.pincer/agents/Bad.md', text: '' }]);
    reg.setSettings({ s: { type: 'nope' } });
    const all = reg.problems.join('\n');
    assert.match(all, /Bad\.md: "Bad" is not a valid agent id/);
    assert.match(all, /field "colour" is not a known field/);
    assert.match(all, /pincer\.agents\.s\.type/);
    reg.setWorkspace([]);
    reg.setSettings({});
    assert.deepEqual(reg.problems, []);
  });

  it('onDidChange fires when definitions change, not when the same input comes again', () => {
    const reg = new AgentRegistry();
    let fired = 0;
    reg.onDidChange.on(() => fired++);
    reg.setWorkspace([file('a', 'type: open')]);
    reg.setWorkspace([file('a', 'type: open')]);
    assert.equal(fired, 1);
    reg.setSettings({ b: {} });
    reg.setSettings({ b: {} });
    assert.equal(fired, 2);
    reg.setWorkspace([file('a', 'type: predefined')]);
    assert.equal(fired, 3);
  });
});
