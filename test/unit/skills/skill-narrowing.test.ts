// A skill's allowed-tools in a real agent turn: after use_skill the turn offers only the tools the
// skill allows that the turn already had, and the pipeline refuses the rest. A SKILL.md that asks for
// more (a denied tool, `*`, a whole group, other agents' names for it) gets nothing more; a second
// skill narrows further; the next turn starts with the policy's tools again.
import assert from 'node:assert/strict';
import { runAgentTurn } from '../../../src/core/agent/agent-loop';
import type { TurnResult } from '../../../src/core/agent/agent-types';
import { removeTempDirs } from '../../support/fs-fixtures';
import { answer, ScriptedProvider, toolCalls, type RecordedRequest } from '../../support/scripted-provider';
import { skillMd, skillRig, type SkillRig } from './skill-fixtures';

after(removeTempDirs);

const skill = (name: string, allowed: string) => skillMd(name, `The ${name} skill.`, `Do ${name} things.`, `allowed-tools: ${allowed}\n`);

function turn(r: SkillRig, provider: ScriptedProvider, turnId: string, over: Record<string, unknown> = {}): Promise<TurnResult> {
  const ctx = r.rt.context({ channel: 'chat', sessionKey: 's', ...over });
  const tools = r.rt.registry.definitions(r.rt.registry.policyRequest(ctx)).tools;
  return runAgentTurn({ provider, runtime: r.rt, model: 'scripted-1' }, {
    sessionKey: 's', agentId: 'default', turnId, history: [], user: 'go', system: 'test', tools, signal: new AbortController().signal,
    ...(Object.keys(over).length ? { toolContext: over } : {}),
  });
}

const names = (req: RecordedRequest) => req.tools.map((t) => t.name).sort();
const results = (t: TurnResult) => t.messages.flatMap((m) => m.parts).flatMap((p) => (p.type === 'tool-result' ? [p] : []));

describe('allowed-tools narrows the turn', () => {
  it('after use_skill only the allowed tools are offered and callable; the next turn has all again', async () => {
    const r = skillRig({ ws: { '.pincer/skills/reader/SKILL.md': skill('reader', 'Read, Grep, memory_search') } });
    const provider = new ScriptedProvider([
      toolCalls([{ name: 'use_skill', args: { name: 'reader' } }]),
      toolCalls([{ name: 'exec', args: { command: 'ls' } }, { name: 'read_file', args: { path: 'a' } }]),
      answer('done'),
      toolCalls([{ name: 'exec', args: { command: 'ls' } }]),
      answer('done again'),
    ]);
    const first = await turn(r, provider, 't1');
    assert.equal(first.stopReason, 'end');
    assert.ok(names(provider.requests[0]).includes('exec'));
    assert.deepEqual(names(provider.requests[1]), ['memory_search', 'read_file', 'skill_search', 'use_skill']);
    const res = results(first);
    assert.match(res[0].content, /This skill allows only these tools for the rest of the turn: memory_search, read_file, skill_search, use_skill\./);
    assert.equal(res[1].isError, true);
    assert.match(res[1].content, /was not offered to you/);
    assert.equal(res[2].isError, false, res[2].content);

    const second = await turn(r, provider, 't2');
    assert.ok(names(provider.requests[3]).includes('exec'));
    assert.equal(results(second)[0].isError, false, 'a new turn is not narrowed');
  });

  it('hostile: a skill asking for a denied tool, `*`, a group or another agent\'s name for it gets nothing more', async () => {
    const r = skillRig({
      settings: { 'tools.deny': ['exec', 'write_file'] },
      ws: { '.pincer/skills/greedy/SKILL.md': skill('greedy', '"*, exec, group:runtime, group:fs, Bash(rm:*), Write, write_file, cron"') },
    });
    const provider = new ScriptedProvider([
      toolCalls([{ name: 'use_skill', args: { name: 'greedy' } }]),
      toolCalls([{ name: 'exec', args: { command: 'ls' } }, { name: 'write_file', args: { path: 'a', content: 'x' } }]),
      answer('done'),
    ]);
    const t = await turn(r, provider, 't1');
    const before = names(provider.requests[0]);
    const after = names(provider.requests[1]);
    assert.ok(!before.includes('exec') && !before.includes('write_file'));
    assert.ok(after.every((n) => before.includes(n)), `nothing added: ${after.join(', ')}`);
    assert.deepEqual(after, before, '"*" keeps what the turn had, no more');
    const res = results(t);
    assert.match(res[0].content, /Argument patterns are not checked here \(Bash\(rm:\*\)\)/);
    assert.ok(res[1].isError && res[2].isError);
  });

  it('hostile: allowed-tools cannot bring back what the caller lacks (untrusted workspace, not the owner)', async () => {
    const r = skillRig({ ws: { '.pincer/skills/writer/SKILL.md': skill('writer', 'write_file, cron, read_file') } });
    const provider = new ScriptedProvider([
      toolCalls([{ name: 'use_skill', args: { name: 'writer' } }]),
      answer('done'),
    ]);
    await turn(r, provider, 't1', { workspaceTrusted: false, isOwner: false });
    assert.deepEqual(names(provider.requests[1]), ['read_file', 'skill_search', 'use_skill']);
  });

  it('a second skill narrows further: the turn keeps what both allow', async () => {
    const r = skillRig({ ws: {
      '.pincer/skills/one/SKILL.md': skill('one', 'read_file, exec, datetime'),
      '.pincer/skills/two/SKILL.md': skill('two', 'exec, datetime, web_fetch'),
    } });
    const provider = new ScriptedProvider([
      toolCalls([{ name: 'use_skill', args: { name: 'one' } }]),
      toolCalls([{ name: 'use_skill', args: { name: 'two' } }]),
      toolCalls([{ name: 'web_fetch', args: { url: 'https://example.invalid' } }]),
      answer('done'),
    ]);
    const t = await turn(r, provider, 't1');
    assert.deepEqual(names(provider.requests[1]), ['datetime', 'exec', 'read_file', 'skill_search', 'use_skill']);
    assert.deepEqual(names(provider.requests[2]), ['datetime', 'exec', 'skill_search', 'use_skill']);
    assert.match(results(t)[2].content, /was not offered to you/);
  });
});
