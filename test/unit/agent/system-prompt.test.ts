import assert from 'node:assert/strict';
import { buildSystemPrompt, CHAT_CONTEXT_FILES, loadContextFiles, MAX_CONTEXT_FILE_CHARS, type PromptInput } from '../../../src/core/agent/system-prompt';
import type { AgentDefinition } from '../../../src/core/agents/types';
import { CONTEXT_FILE_NAMES } from '../../../src/core/memory/routed-paths';
import { removeTempDirs } from '../../support/storage-fixtures';
import { runtimeWith, stubTool } from '../../support/test-tools';
import { alice, closeRouted, openRouted, shared } from '../memory/routed-fixture';

const coder: AgentDefinition = { id: 'coder', name: 'Coder', type: 'open', source: 'settings', description: 'Writes TypeScript.', instructions: 'Soul from the definition.' };

function input(over: Partial<PromptInput> = {}): PromptInput {
  return {
    agent: coder,
    contextFiles: [
      { name: 'USER.md', content: 'Alice prefers short answers.' },
      { name: 'BOOTSTRAP.md', content: 'Ask the user for their name.' },
      { name: 'SOUL.md', content: 'Be precise.' },
      { name: 'AGENTS.md', content: 'Run the tests before you answer.' },
      { name: 'IDENTITY.md', content: 'Name: Coder.' },
    ],
    tools: [
      { name: 'write_file', description: 'Creates or replaces a file. Long explanation follows here.' },
      { name: 'grep', description: 'Searches file contents.\nMore lines.' },
      { name: 'Zeta', description: 'Upper case sorts first by code point.' },
      { name: 'read_file', description: 'Reads a file, with line numbers' },
    ],
    aliases: [{ name: 'Write', target: 'write_file' }, { name: 'Read', target: 'read_file' }],
    workspace: { root: '/home/alice/project', name: 'project' },
    ...over,
  };
}

const shuffled = <T>(xs: T[]) => [...xs].reverse();

describe('system prompt', () => {
  it('the same inputs give byte-identical prompts, whatever order the lists come in', () => {
    const a = buildSystemPrompt(input());
    const b = buildSystemPrompt(input());
    const c = buildSystemPrompt(input({ contextFiles: shuffled(input().contextFiles), tools: shuffled(input().tools), aliases: shuffled(input().aliases) }));
    assert.equal(a, b);
    assert.equal(a, c);
    assert.ok(Buffer.from(a).equals(Buffer.from(c)));
  });

  it('holds no date, time or id that would change between requests', async () => {
    const a = buildSystemPrompt(input());
    await new Promise((r) => setTimeout(r, 15));
    assert.equal(buildSystemPrompt(input()), a);
    const year = String(new Date().getFullYear());
    assert.ok(!a.includes(year), 'no current year');
    assert.ok(!/\d{1,2}:\d{2}/.test(a), 'no clock time');
    assert.match(a, /For the current date or time, call datetime\./);
  });

  it('sections in a fixed order; context files SOUL, IDENTITY, AGENTS, USER, TEAM, BOOTSTRAP last, then extra', () => {
    const p = buildSystemPrompt(input({ teamMd: 'Lead of team "docs": members writer, reviewer.', extra: 'Reply in markdown.' }));
    const at = (s: string) => {
      const i = p.indexOf(s);
      assert.ok(i >= 0, `missing ${s}`);
      return i;
    };
    const order = ['# Identity', '# Workspace', '# Tools', '# Context files', '## SOUL.md', '## IDENTITY.md', '## AGENTS.md', '## USER.md', '## TEAM.md', '## BOOTSTRAP.md', 'Reply in markdown.'].map(at);
    assert.deepEqual(order, [...order].sort((x, y) => x - y));
    assert.ok(p.endsWith('Reply in markdown.\n'));
    assert.match(p, /^# Identity\n\nYou are Coder \(agent "coder"\), working inside Pincer/);
    assert.match(p, /Writes TypeScript\./);
    assert.match(p, /"project" at \/home\/alice\/project\. Relative paths are relative to it\./);
  });

  it('tools one line each, sorted by code point, first sentence only; aliases after them', () => {
    const p = buildSystemPrompt(input());
    const lines = p.split('\n').filter((l) => l.startsWith('- '));
    assert.deepEqual(lines, [
      '- Zeta: Upper case sorts first by code point.',
      '- grep: Searches file contents.',
      '- read_file: Reads a file, with line numbers',
      '- write_file: Creates or replaces a file.',
      '- Read → read_file',
      '- Write → write_file',
    ]);
  });

  it('the tool list of a real runtime (Registry.definitions) goes in sorted', () => {
    const rt = runtimeWith({}, [stubTool('write_file', 'fs', 'mutating'), stubTool('read_file', 'fs', 'read-only'), stubTool('exec', 'runtime', 'external')]);
    const defs = rt.registry.definitions(rt.registry.policyRequest(rt.context({ channel: 'chat' })));
    const p = buildSystemPrompt(input({ tools: defs.tools, aliases: defs.aliases }));
    const names = p.split('\n').filter((l) => /^- \w+: /.test(l)).map((l) => l.slice(2, l.indexOf(':')));
    assert.deepEqual(names, ['datetime', 'exec', 'read_file', 'session_status', 'write_file']);
    assert.match(p, /^- bash → exec$/m);
  });

  it('empty files are left out, line endings normalised, trailing space trimmed', () => {
    const p = buildSystemPrompt(input({ contextFiles: [{ name: 'SOUL.md', content: 'one\r\ntwo\rthree  \n\n' }, { name: 'USER.md', content: '  \n ' }] }));
    assert.match(p, /## SOUL\.md\n\none\ntwo\nthree\n/);
    assert.ok(!p.includes('\r'));
    assert.ok(!p.includes('## USER.md'));
  });

  it('without SOUL.md the definition\'s instructions stand in for it; with one they do not', () => {
    const without = buildSystemPrompt(input({ contextFiles: [] }));
    assert.match(without, /## SOUL\.md\n\nSoul from the definition\./);
    assert.ok(!buildSystemPrompt(input()).includes('Soul from the definition.'));
  });

  it('TEAM.md only for a team lead; unknown names after the known ones, by code point', () => {
    const plain = buildSystemPrompt(input());
    assert.ok(!plain.includes('TEAM.md'));
    const p = buildSystemPrompt(input({ contextFiles: [...input().contextFiles, { name: 'b-notes.md', content: 'b' }, { name: 'A-notes.md', content: 'a' }] }));
    const heads = p.split('\n').filter((l) => l.startsWith('## '));
    assert.deepEqual(heads, ['## SOUL.md', '## IDENTITY.md', '## AGENTS.md', '## USER.md', '## A-notes.md', '## b-notes.md', '## BOOTSTRAP.md']);
  });

  it('a huge context file keeps its head and tail, says what was left out and how to read it', () => {
    const big = `HEAD${'x'.repeat(100_000)}TAIL`;
    const p = buildSystemPrompt(input({ contextFiles: [{ name: 'AGENTS.md', content: big }] }));
    assert.ok(p.length < MAX_CONTEXT_FILE_CHARS + 3000, `${p.length}`);
    assert.match(p, /## AGENTS\.md\n\nHEAD/);
    assert.match(p, /TAIL\n/);
    assert.match(p, /\[… \d+ characters of AGENTS\.md left out here; read_file AGENTS\.md shows the whole file\.\]/);
  });

  it('hostile content: long runs of whitespace and a huge tool description stay fast and bounded', () => {
    const spaces = `${' '.repeat(256 * 1024)}x${' \t'.repeat(100_000)}`;
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const p = buildSystemPrompt(input({ contextFiles: [{ name: 'USER.md', content: spaces }], tools: [{ name: 'mcp_x', description: `${'y'.repeat(1_000_000)}. More.` }] }));
    assert.match(p, /^- mcp_x: y{199}…$/m);
    assert.ok(p.length < MAX_CONTEXT_FILE_CHARS + 5000);
  });

  it('no tools and no workspace are said plainly', () => {
    const p = buildSystemPrompt(input({ tools: [], aliases: [], workspace: undefined }));
    assert.match(p, /No folder is open/);
    assert.match(p, /No tools are available in this conversation/);
  });

  describe('loadContextFiles (real RoutedFiles on a real database)', () => {
    afterEach(closeRouted);
    after(removeTempDirs);

    it('reads the user\'s view: own copies, else the shared file, else the definition; missing ones skipped', async () => {
      const { routed } = await openRouted();
      await routed.write(shared('coder'), 'AGENTS.md', 'Shared agents file.', { actor: 'person', level: 'agent' });
      await routed.write(alice('coder'), 'USER.md', 'Alice likes tabs.', { actor: 'model' });
      await routed.write(alice('coder'), 'BOOTSTRAP.md', 'Say hello first.', { actor: 'model' });
      await routed.write(alice('coder'), 'HEARTBEAT.md', 'Check the build.', { actor: 'model' });
      const files = await loadContextFiles(routed, 'coder', 'alice');
      assert.deepEqual(files, [
        { name: 'SOUL.md', content: 'Coder soul from the definition.' },
        { name: 'AGENTS.md', content: 'Shared agents file.' },
        { name: 'USER.md', content: 'Alice likes tabs.' },
        { name: 'BOOTSTRAP.md', content: 'Say hello first.' },
      ]);
      assert.ok(!CHAT_CONTEXT_FILES.includes('HEARTBEAT.md'), 'heartbeat instructions are not for a chat');
      const withHeartbeat = await loadContextFiles(routed, 'coder', 'alice', CONTEXT_FILE_NAMES);
      assert.ok(withHeartbeat.some((f) => f.name === 'HEARTBEAT.md'));
      // Another user sees only the shared level.
      assert.deepEqual((await loadContextFiles(routed, 'coder', 'bob')).map((f) => f.name), ['SOUL.md', 'AGENTS.md']);
      // A finished bootstrap (written empty) is gone from the prompt.
      await routed.write(alice('coder'), 'BOOTSTRAP.md', '', { actor: 'model' });
      assert.ok(!(await loadContextFiles(routed, 'coder', 'alice')).some((f) => f.name === 'BOOTSTRAP.md'));
    });

    it('names taken out of routing are skipped, not an error; the prompt built from them is stable', async () => {
      const { routed } = await openRouted(() => ['SOUL.md', 'USER.md']);
      await routed.write(alice('coder'), 'USER.md', 'u', { actor: 'model' });
      const files = await loadContextFiles(routed, 'coder', 'alice');
      assert.deepEqual(files.map((f) => f.name), ['SOUL.md', 'USER.md']);
      const p1 = buildSystemPrompt(input({ contextFiles: files }));
      const p2 = buildSystemPrompt(input({ contextFiles: await loadContextFiles(routed, 'coder', 'alice') }));
      assert.equal(p1, p2);
    });

    it('other failures of the store are not hidden', async () => {
      const failing = { read: async () => { throw new Error('database closed'); } };
      await assert.rejects(loadContextFiles(failing, 'coder', 'alice'), /database closed/);
    });
  });
});
