import assert from 'node:assert/strict';
import { z } from 'zod';
import type { CallEnd } from '../../../src/core/tools/call-record';
import { defineTool, ok, type Tool, type ToolContext } from '../../../src/core/tools/types';
import { echoTool, runtimeWith, sleepTool, stubTool } from '../../support/test-tools';

function ctxOf(rt: ReturnType<typeof runtimeWith>, over: Partial<ToolContext> = {}): ToolContext {
  return rt.context({ channel: 'test', sessionKey: 's1', ...over });
}

function collect(rt: ReturnType<typeof runtimeWith>): CallEnd[] {
  const calls: CallEnd[] = [];
  rt.registry.onCallEnd.on((c) => calls.push(c));
  return calls;
}

describe('registry: resolving and describing tools', () => {
  it('definitions are sorted by name with aliases of allowed tools after, as one-liners', () => {
    const rt = runtimeWith({}, [echoTool as Tool, stubTool('read_file', 'fs', 'read-only'), stubTool('exec', 'runtime', 'external')]);
    const defs = rt.registry.definitions({ depth: 0, isOwner: true, trusted: true });
    assert.deepEqual(defs.tools.map((t) => t.name), ['datetime', 'echo', 'exec', 'read_file', 'session_status']);
    assert.deepEqual(defs.aliases.map((a) => a.name), ['Bash', 'Read', 'bash']);
    const echo = defs.tools.find((t) => t.name === 'echo')!;
    assert.equal(echo.parameters.type, 'object');
    assert.deepEqual(echo.parameters.required, ['text']);
    assert.equal(echo.parameters.$schema, undefined);
  });

  it('aliases run their target; a real tool with an alias name wins over the alias', async () => {
    const rt = runtimeWith({}, [stubTool('read_file', 'fs', 'read-only')]);
    const calls = collect(rt);
    const viaAlias = await rt.registry.execute('Read', {}, ctxOf(rt));
    assert.match(viaAlias.forLLM, /^read_file ran/);
    assert.equal(calls[0].tool, 'read_file');
    assert.equal(calls[0].calledAs, 'Read');
    rt.registry.register(stubTool('Read', 'fs', 'read-only'));
    assert.match((await rt.registry.execute('Read', {}, ctxOf(rt))).forLLM, /^Read ran/);
  });

  it('refuses duplicate and provider-hostile names', () => {
    const rt = runtimeWith();
    assert.throws(() => rt.registry.register(stubTool('datetime', 'automation', 'read-only')), /already registered/);
    assert.throws(() => rt.registry.register(stubTool('bad name!', 'fs', 'read-only')), /not accepted/);
  });

  it('an unknown tool is an error result that lists what may be called', async () => {
    const rt = runtimeWith();
    const r = await rt.registry.execute('nope', {}, ctxOf(rt));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /Unknown tool "nope"\. Tools you can call: datetime, session_status/);
  });
});

describe('registry: the checks before a tool runs', () => {
  it('policy is checked at call time, with the step that refused', async () => {
    let ran = false;
    const rt = runtimeWith({ 'tools.deny': ['exec'] }, [stubTool('exec', 'runtime', 'external', { execute: async () => { ran = true; return ok('x'); } })]);
    const r = await rt.registry.execute('bash', { command: 'ls' }, ctxOf(rt));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /not allowed by policy here \(deny: listed in pincer\.tools\.deny\)/);
    assert.equal(ran, false);
  });

  it('a tool the model was not offered is refused even if policy allows it', async () => {
    const rt = runtimeWith({}, [echoTool as Tool]);
    const r = await rt.registry.execute('echo', { text: 'hi' }, ctxOf(rt, { offeredTools: new Set(['datetime']) }));
    assert.match(r.forLLM, /was not offered to you/);
    const allowed = await rt.registry.execute('echo', { text: 'hi' }, ctxOf(rt, { offeredTools: new Set(['echo']) }));
    assert.equal(allowed.forLLM, 'hi');
  });

  it('an untrusted workspace refuses mutating tools at call time', async () => {
    const rt = runtimeWith({}, [stubTool('write_file', 'fs', 'mutating')]);
    const r = await rt.registry.execute('write_file', {}, ctxOf(rt, { workspaceTrusted: false }));
    assert.match(r.forLLM, /workspace trust/);
  });

  it('empty arguments for a tool with required parameters explain a cut-off output', async () => {
    const rt = runtimeWith({}, [echoTool as Tool]);
    for (const empty of [{}, undefined, '', '{}', null]) {
      const r = await rt.registry.execute('echo', empty, ctxOf(rt, { sessionKey: `empty-${String(empty)}` }));
      assert.equal(r.isError, true);
      assert.match(r.forLLM, /received no arguments, but it needs "text"\. .*cut off/);
    }
    const none = await rt.registry.execute('datetime', {}, ctxOf(rt));
    assert.equal(none.isError, false, 'a tool without required parameters runs with {}');
  });

  it('arguments may come as a JSON string; a truncated one is explained', async () => {
    const rt = runtimeWith({}, [echoTool as Tool]);
    assert.equal((await rt.registry.execute('echo', '{"text":"ab","times":2}', ctxOf(rt))).forLLM, 'abab');
    const cut = await rt.registry.execute('echo', '{"text":"a long file that was cut', ctxOf(rt));
    assert.match(cut.forLLM, /not valid JSON .*cut off/s);
  });

  it('validation errors name each parameter, what was expected and what arrived', async () => {
    const rt = runtimeWith({}, [echoTool as Tool]);
    const r = await rt.registry.execute('echo', { text: 5, times: 9, extra: 1 }, ctxOf(rt));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /Invalid arguments for echo:/);
    assert.match(r.forLLM, /- text: .*expected string.*\(got number 5\)/);
    assert.match(r.forLLM, /- times: .*\(got number 9\)/);
    assert.match(r.forLLM, /unknown parameter\(s\) "extra"/);
  });

  it('rate limits per session, refusing without running the tool', async () => {
    let runs = 0;
    const counting = stubTool('count', 'fs', 'external', { execute: async () => { runs++; return ok(String(runs)); } });
    const rt = runtimeWith({ 'rateLimit.burst': 6, 'rateLimit.perMinute': 1 }, [counting]);
    const calls = collect(rt);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await rt.registry.execute('count', { i }, ctxOf(rt)));
    assert.equal(runs, 2, 'external calls cost 3 units of a 6-unit burst');
    assert.match(results[2].forLLM, /Rate limit reached for this session: wait about \d+ s/);
    assert.equal(calls[2].outcome, 'rate-limited');
    const other = await rt.registry.execute('count', { i: 9 }, ctxOf(rt, { sessionKey: 's2' }));
    assert.equal(other.isError, false, 'another session has its own budget');
  });

  it('settings changes take effect on the next call', async () => {
    const rt = runtimeWith({}, [echoTool as Tool]);
    assert.equal((await rt.registry.execute('echo', { text: 'a' }, ctxOf(rt))).isError, false);
    rt.applyConfig(runtimeWith({ 'tools.deny': ['echo'] }).currentConfig);
    assert.match((await rt.registry.execute('echo', { text: 'a' }, ctxOf(rt))).forLLM, /not allowed by policy/);
  });
});

describe('registry: running, limits and results', () => {
  it('an exception becomes an error result the model can read, without a stack trace', async () => {
    const boom = stubTool('boom', 'fs', 'read-only', { execute: async () => { throw new TypeError('cannot read x of undefined'); } });
    const rt = runtimeWith({}, [boom]);
    const r = await rt.registry.execute('boom', {}, ctxOf(rt));
    assert.equal(r.isError, true);
    assert.equal(r.forLLM, 'boom failed: cannot read x of undefined');
    const weird = stubTool('weird', 'fs', 'read-only', { execute: async () => { throw 'a string'; } });
    rt.registry.register(weird);
    assert.equal((await rt.registry.execute('weird', {}, ctxOf(rt))).forLLM, 'weird failed: a string');
  });

  it('a tool that returns nothing usable is an error, not a crash', async () => {
    const bad = stubTool('bad', 'fs', 'read-only', { execute: async () => undefined as never });
    const rt = runtimeWith({}, [bad]);
    assert.match((await rt.registry.execute('bad', {}, ctxOf(rt))).forLLM, /returned no usable result/);
  });

  it('stops a call at its time limit even when the tool ignores the signal', async () => {
    // The tool never returns: only the registry's time limit can end the call.
    const stuck = defineTool({
      name: 'stuck', group: 'fs', capability: 'read-only', description: 'Never returns.', parameters: z.object({}),
      execute: () => new Promise<never>(() => undefined),
      timeoutMs: 80,
    }) as Tool;
    const rt = runtimeWith({}, [stuck]);
    const calls = collect(rt);
    const r = await rt.registry.execute('stuck', {}, ctxOf(rt));
    assert.match(r.forLLM, /stuck timed out after 80 ms and was stopped/);
    assert.equal(calls[0].outcome, 'timeout');
  });

  it('the caller\'s deadline shortens the tool\'s own limit', async () => {
    const rt = runtimeWith({}, [sleepTool as Tool]);
    const r = await rt.registry.execute('sleep', { ms: 5000 }, ctxOf(rt, { deadline: Date.now() + 50 }));
    assert.match(r.forLLM, /timed out/);
  });

  it('cancellation by the caller reaches the tool and ends the call', async () => {
    const rt = runtimeWith({}, [sleepTool as Tool]);
    const calls = collect(rt);
    const ac = new AbortController();
    const p = rt.registry.execute('sleep', { ms: 5000 }, ctxOf(rt, { signal: ac.signal }));
    setTimeout(() => ac.abort(), 20);
    assert.match((await p).forLLM, /sleep was cancelled by the user/);
    assert.equal(calls[0].outcome, 'cancelled');
    const pre = new AbortController();
    pre.abort();
    assert.match((await rt.registry.execute('sleep', { ms: 1 }, ctxOf(rt, { signal: pre.signal }))).forLLM, /cancelled before it started/);
  });

  it('scrubs ForLLM, ForUser and the logged arguments; the tool itself saw the real value', async () => {
    const key = 'sk-' + 'A1b2C3d4E5f6G7h8I9j0K1l2';
    let seen = '';
    const leaky = defineTool({
      name: 'leaky', group: 'fs', capability: 'read-only', description: 'x', parameters: z.object({ token: z.string() }),
      async execute(a) { seen = a.token; return ok(`key is ${a.token}`, { forUser: `**${a.token}**` }); },
    });
    const rt = runtimeWith({}, [leaky as Tool]);
    const calls = collect(rt);
    const r = await rt.registry.execute('leaky', { token: key }, ctxOf(rt));
    assert.equal(seen, key);
    for (const text of [r.forLLM, r.forUser!, calls[0].args]) {
      assert.ok(!text.includes(key), text);
      assert.match(text, /\[REDACTED\]/);
    }
  });

  it('caps a huge result keeping head and tail, and scrubs before capping so no secret is cut in half', async () => {
    const key = 'ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW';
    const maxChars = 2000;
    const big = stubTool('big', 'fs', 'read-only', {
      // The secret straddles the point where the head is cut.
      execute: async () => ok('H'.repeat(maxChars * 0.7 - 10) + ' ' + key + ' ' + 'm'.repeat(5000) + 'TAIL-SUMMARY'),
    });
    const rt = runtimeWith({ 'tools.maxResultChars': maxChars }, [big]);
    const r = await rt.registry.execute('big', {}, ctxOf(rt));
    assert.ok(r.forLLM.length < maxChars + 400);
    assert.match(r.forLLM, /characters omitted here: .* over the 2,000-character limit \(pincer\.tools\.maxResultChars\)/);
    assert.ok(r.forLLM.endsWith('TAIL-SUMMARY'));
    assert.ok(!/R8fK|7ZpL4|aE8uW/.test(r.forLLM), 'no fragment of the secret survives');
    assert.ok(typeof r.details?.truncatedChars === 'number');
  });

  it('emits a slow-tool notice while a call runs past twice its historical maximum', async () => {
    // The fourth call returns only once the notice came: it cannot end before its threshold.
    let noticed!: () => void;
    const notice = new Promise<void>((r) => (noticed = r));
    const patient = defineTool({
      name: 'patient', group: 'fs', capability: 'read-only', description: 'Waits for a slow notice when asked to.',
      parameters: z.object({ wait: z.boolean(), tag: z.string().optional() }),
      async execute(args) {
        if (args.wait) await notice;
        return ok('done');
      },
    }) as Tool;
    const rt = runtimeWith({}, [patient]);
    const slow: string[] = [];
    rt.registry.onSlow.on((s) => {
      slow.push(`${s.tool}:${s.thresholdMs}`);
      noticed();
    });
    for (let i = 0; i < 3; i++) await rt.registry.execute('patient', { wait: false, tag: String(i) }, ctxOf(rt, { sessionKey: `t${i}` }));
    assert.deepEqual(slow, [], 'quick calls under the default threshold: no notice');
    const stats = rt.timing.get('patient');
    assert.equal(stats?.samples, 3);
    const threshold = rt.timing.slowThresholdMs('patient');
    assert.equal(threshold, Math.max(1, stats!.maxMs * 2), 'twice the slowest of the three');
    const r = await rt.registry.execute('patient', { wait: true }, ctxOf(rt, { sessionKey: 't9' }));
    assert.equal(r.isError, false, r.forLLM);
    assert.deepEqual(slow, [`patient:${threshold}`]);
  });

  it('a call past its slow notice still ends at its time limit (the notice does not reset the limit)', async () => {
    const brief = { ...sleepTool, name: 'brief_sleep', timeoutMs: 300 } as Tool;
    const rt = runtimeWith({}, [brief]);
    const events: string[] = [];
    rt.registry.onSlow.on((s) => events.push(`slow:${s.tool}`));
    // Three quick calls make the threshold a few milliseconds, far under the 300 ms limit.
    for (let i = 0; i < 3; i++) await rt.registry.execute('brief_sleep', { ms: 0, tag: String(i) }, ctxOf(rt, { sessionKey: `q${i}` }));
    assert.ok(rt.timing.slowThresholdMs('brief_sleep') < 300);
    const r = await rt.registry.execute('brief_sleep', { ms: 600_000 }, ctxOf(rt, { sessionKey: 'long' }));
    events.push(r.outcome ?? '');
    assert.deepEqual(events, ['slow:brief_sleep', 'timed-out']);
    assert.match(r.forLLM, /timed out after 300 ms/);
  });

  it('without history, the default threshold (pincer.tools.slowNoticeSeconds) applies', () => {
    const rt = runtimeWith({ 'tools.slowNoticeSeconds': 7 });
    assert.equal(rt.timing.slowThresholdMs('never-ran'), 7000);
  });
});

describe('registry: interactive tools', () => {
  it('wait for a person without the default time limit, slow notices or timing samples', async () => {
    const review = { ...sleepTool, name: 'review_like', interactive: true } as Tool;
    const rt = runtimeWith({ 'tools.timeoutSeconds': 1, 'tools.slowNoticeSeconds': 1 }, [review]);
    const slow: string[] = [];
    rt.registry.onSlow.on((s) => slow.push(s.tool));
    const r = await rt.registry.execute('review_like', { ms: 1300 }, ctxOf(rt));
    assert.equal(r.isError, false, r.forLLM);
    assert.deepEqual(slow, []);
    assert.equal(rt.timing.get('review_like'), undefined);
    const bounded = await rt.registry.execute('review_like', { ms: 5000 }, ctxOf(rt, { deadline: Date.now() + 50 }));
    assert.match(bounded.forLLM, /timed out/, 'the caller\'s deadline still holds');
  });
});
