import assert from 'node:assert/strict';
import { agentIdFromFile, MAX_AGENT_FILE_BYTES, parseAgentFile, parseSettingsAgents } from '../../../src/core/agents/agent-file';

const FILE = '/ws/.pincer/agents/reviewer.md';

describe('agent files (.pincer/agents/<id>.md)', () => {
  it('a valid file: id from the name, front matter fields, body as instructions', () => {
    const r = parseAgentFile(FILE, [
      '---',
      'type: predefined',
      'name: Code Reviewer',
      'description: Reviews pull requests',
      'profile: coding',
      'model: gpt-5',
      'tools: [read_file, group:web, "mcp_*"]',
      '---',
      '',
      'You review code. Be terse.',
      '',
    ].join('\n'));
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.agent, {
      id: 'reviewer', name: 'Code Reviewer', type: 'predefined', source: 'workspace', file: FILE,
      description: 'Reviews pull requests', profile: 'coding', model: 'gpt-5', tools: ['read_file', 'group:web', 'mcp_*'],
      instructions: 'You review code. Be terse.',
    });
  });

  it('defaults: type open, name = id; CRLF, a BOM and "..." as the closing line are accepted', () => {
    const r = parseAgentFile('C:\\ws\\.pincer\\agents\\helper.md', '\uFEFF---\r\ndescription: x\r\n...\r\nBody\r\n');
    assert.deepEqual(r.errors, []);
    assert.equal(r.agent?.id, 'helper');
    assert.equal(r.agent?.type, 'open');
    assert.equal(r.agent?.name, 'helper');
    assert.equal(r.agent?.instructions, 'Body');
  });

  it('an empty front matter and an empty body give an open agent without instructions', () => {
    const r = parseAgentFile(FILE, '---\n---\n');
    assert.deepEqual(r.errors, []);
    assert.equal(r.agent?.type, 'open');
    assert.equal(r.agent?.instructions, undefined);
  });

  it('an invalid type is an error naming the file, the field and the allowed values; no agent', () => {
    const r = parseAgentFile(FILE, '---\ntype: closed\n---\nbody');
    assert.equal(r.agent, undefined);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!, /reviewer\.md: field "type" is "closed", which is not allowed: use "open" .* or "predefined"/);
  });

  it('tools of the wrong shape is an error (dropping it would widen the agent\'s tools)', () => {
    const r = parseAgentFile(FILE, '---\ntools: read_file\n---\n');
    assert.equal(r.agent, undefined);
    assert.match(r.errors[0]!, /field "tools" is "read_file", which is not allowed: use a list of tool names/);
    const nested = parseAgentFile(FILE, '---\ntools: {allow: [x]}\n---\n');
    assert.match(nested.errors[0]!, /field "tools" is an object/);
  });

  it('a bad id (from the file name) is an error that suggests a valid name', () => {
    for (const name of ['My Agent.md', '-lead.md', 'UPPER.md', `${'a'.repeat(65)}.md`, 'dots.in.name.md']) {
      const r = parseAgentFile(`/ws/.pincer/agents/${name}`, '---\ntype: open\n---\n');
      assert.equal(r.agent, undefined, name);
      assert.match(r.errors[0]!, /is not a valid agent id: use lower-case letters, digits, '-' and '_'/, name);
      assert.match(r.errors[0]!, /rename the file to [a-z0-9][a-z0-9_-]*\.md/, name);
    }
    assert.match(parseAgentFile('/ws/.pincer/agents/My Agent.md', '').errors[0]!, /rename the file to my-agent\.md/);
    assert.match(parseAgentFile('/ws/.pincer/agents/notes.txt', '').errors[0]!, /must be a markdown file named <id>\.md/);
  });

  it('unknown keys and an unknown profile are warnings: the agent still loads', () => {
    const r = parseAgentFile(FILE, '---\nname: R\ndescripton: typo\ncolor: blue\nprofile: turbo\n---\nHi');
    assert.deepEqual(r.errors, []);
    assert.equal(r.agent?.name, 'R');
    assert.equal(r.agent?.profile, 'turbo');
    assert.equal(r.warnings.length, 3);
    assert.match(r.warnings[0]!, /field "descripton" is not a known field and is ignored; known fields: type, name/);
    assert.match(r.warnings[2]!, /"turbo", which is not a tool profile \(minimal, coding, messaging, full\)/);
  });

  it('a front matter id that differs from the file name warns and the file name wins', () => {
    const r = parseAgentFile(FILE, '---\nid: other\n---\n');
    assert.equal(r.agent?.id, 'reviewer');
    assert.match(r.warnings[0]!, /the file name makes the id "reviewer"; the file name wins/);
  });

  it('no front matter: an open agent whose whole text is its instructions, with a warning', () => {
    const r = parseAgentFile(FILE, '# Reviewer\n\nYou review.\n\n---\n\nMore.');
    assert.deepEqual(r.errors, []);
    assert.equal(r.agent?.type, 'open');
    assert.equal(r.agent?.instructions, '# Reviewer\n\nYou review.\n\n---\n\nMore.');
    assert.match(r.warnings[0]!, /no front matter .* open agent and the whole file is its instructions/);
  });

  it('hostile and broken front matter: unclosed, bad YAML (with its line), a list, duplicate keys, an alias bomb', () => {
    assert.match(parseAgentFile(FILE, '---\ntype: open\nbody without end').errors[0]!, /never closed: add a line "---"/);
    const yaml = parseAgentFile(FILE, '---\nname: ok\ntype: [open\n---\n');
    assert.equal(yaml.agent, undefined);
    assert.match(yaml.errors[0]!, /not valid YAML at line \d+/);
    assert.match(parseAgentFile(FILE, '---\n- a\n- b\n---\n').errors[0]!, /must be "key: value" lines/);
    assert.match(parseAgentFile(FILE, '---\nname: a\nname: b\n---\n').errors[0]!, /not valid YAML/);
    const bomb = ['---', 'a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`), '---', ''].join('\n');
    // Expanded, the bomb is 9^10 entries: refusing it without expanding is what keeps this within the test's timeout.
    const r = parseAgentFile(FILE, bomb);
    assert.equal(r.agent, undefined);
    assert.match(r.errors[0]!, /could not be read .*without YAML aliases/);
  });

  it('an oversized file is refused with its size and the limit', () => {
    const r = parseAgentFile(FILE, `---\ntype: open\n---\n${'x'.repeat(MAX_AGENT_FILE_BYTES + 1)}`);
    assert.equal(r.agent, undefined);
    assert.match(r.errors[0]!, /at most 256 KB/);
  });

  it('agentIdFromFile takes the base name without .md', () => {
    assert.equal(agentIdFromFile('/a/b/x-y.md'), 'x-y');
    assert.equal(agentIdFromFile('C:\\a\\b\\z.MD'), 'z');
  });
});

describe('pincer.agents (settings)', () => {
  it('defines agents from an object of id → fields; tools is the policy object, its allow list the agent\'s tools', () => {
    const r = parseSettingsAgents({
      support: { type: 'predefined', name: 'Support', instructions: '  Be kind.  ', tools: { profile: 'messaging', allow: ['web_fetch'], deny: ['exec'] } },
      plain: {},
    });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.agents, [
      { id: 'support', name: 'Support', type: 'predefined', source: 'settings', profile: 'messaging', tools: ['web_fetch'], instructions: 'Be kind.' },
      { id: 'plain', name: 'plain', type: 'open', source: 'settings' },
    ]);
  });

  it('a top-level profile wins over tools.profile', () => {
    const [a] = parseSettingsAgents({ x: { profile: 'minimal', tools: { profile: 'full' } } }).agents;
    assert.equal(a?.profile, 'minimal');
  });

  it('refuses a bad value, a bad id, a bad type and a tools list, naming the setting; ignores unknown keys with a warning', () => {
    assert.match(parseSettingsAgents([]).errors[0]!, /pincer\.agents must be an object keyed by agent id/);
    assert.match(parseSettingsAgents('x').errors[0]!, /pincer\.agents must be an object/);
    const r = parseSettingsAgents({
      'Bad Id': { type: 'open' },
      wrongtype: { type: 'shared' },
      list: { tools: ['read_file'] },
      scalar: 3,
      extra: { colour: 'red' },
    });
    assert.deepEqual(r.agents.map((a) => a.id), ['extra']);
    assert.deepEqual(r.failedIds, ['wrongtype', 'list', 'scalar']);
    assert.match(r.errors.join('\n'), /pincer\.agents\.Bad Id: "Bad Id" is not a valid agent id/);
    assert.match(r.errors.join('\n'), /pincer\.agents\.wrongtype\.type is "shared", which is not allowed: use "open"/);
    assert.match(r.errors.join('\n'), /pincer\.agents\.list\.tools is a list, which is not allowed: use an object such as \{ "allow"/);
    assert.match(r.errors.join('\n'), /pincer\.agents\.scalar must be an object of agent fields/);
    assert.match(r.warnings[0]!, /pincer\.agents\.extra\.colour is not a known field/);
  });

  it('undefined and null are no agents and no problems', () => {
    assert.deepEqual(parseSettingsAgents(undefined), { agents: [], errors: [], warnings: [], failedIds: [] });
    assert.deepEqual(parseSettingsAgents(null).agents, []);
  });
});
