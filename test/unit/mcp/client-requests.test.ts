// What Pincer answers when a server asks the client: elicitation (a form asked field by field,
// cancellable; the CLI declines) and sampling (the chat's model, only once the person allowed that
// server, seeing the request) against server-everything, which calls both from its tools; and
// "Always allow" for a tool its server marks destructive.
import assert from 'node:assert/strict';
import type { ApprovalRequest, Approver } from '../../../src/core/exec/exec-types';
import { answerElicitation, checkText, elicitationFields, type ElicitationAsker, type ElicitField } from '../../../src/core/mcp/elicitation';
import { McpManager, type McpManagerDeps } from '../../../src/core/mcp/mcp-manager';
import { answerSampling, type SamplingAnswer } from '../../../src/core/mcp/sampling';
import type { PincerRuntime } from '../../../src/core/runtime';
import { answer, ScriptedProvider } from '../../support/scripted-provider';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, HOSTILE, stdioServer } from './mcp-servers';
import { until } from '../../support/until';

const call = (rt: PincerRuntime, name: string, args: unknown) => rt.registry.execute(name, args, rt.context({ channel: 'test', sessionKey: 'requests' }));

/** A person who answers each field from a table (the default where the table has none) and records what was asked. */
function person(answers: Record<string, string | string[] | undefined>) {
  const asked: ElicitField[] = [];
  const asker: ElicitationAsker = {
    async ask(_server, _message, field) {
      asked.push(field);
      if (field.key in answers) return answers[field.key];
      const d = field.default;
      return d === undefined ? '' : Array.isArray(d) ? d : String(d);
    },
  };
  return { asker, asked };
}

describe('MCP client requests: elicitation and sampling', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });

  async function everything(over: Partial<McpManagerDeps>, tool: string) {
    const rt = runtimeWith();
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], ...over });
    assert.deepEqual(await mcp.start([stdioServer('everything', EVERYTHING)]), []);
    // The server adds the tools that need a client capability right after it starts.
    await until(() => rt.registry.get(tool) !== undefined);
    return rt;
  }

  it('roots: the server is given the workspace folders as file URIs', async () => {
    const folders = ['/tmp/pincer-roots-a', '/srv/project b'];
    const rt = await everything({ roots: () => folders }, 'mcp_everything__get-roots-list');
    const r = await call(rt, 'mcp_everything__get-roots-list', {});
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /file:\/\/\/tmp\/pincer-roots-a/);
    assert.match(r.forLLM, /file:\/\/\/srv\/project%20b/);
  });

  it('elicitation: every field of the form is asked with its kind, and the typed answers reach the server', async () => {
    const p = person({ name: 'Ada Lovelace', check: 'true', integer: '7', untitledMultipleSelectEnum: ['Piano', 'Drums'], titledSingleSelectEnum: 'hero-3' });
    const rt = await everything({ elicit: (s, params) => answerElicitation(p.asker, s, params) }, 'mcp_everything__trigger-elicitation-request');
    const r = await call(rt, 'mcp_everything__trigger-elicitation-request', {});
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /User provided the requested information/);
    assert.match(r.forLLM, /"name": "Ada Lovelace"/);
    assert.match(r.forLLM, /"check": true/);
    assert.match(r.forLLM, /"integer": 7\b/);
    assert.match(r.forLLM, /"titledSingleSelectEnum": "hero-3"/);
    assert.match(r.forLLM, /"Piano",\s*"Drums"/);
    const kinds = Object.fromEntries(p.asked.map((f) => [f.key, f.kind]));
    assert.equal(kinds.name, 'text');
    assert.equal(kinds.check, 'boolean');
    assert.equal(kinds.integer, 'integer');
    assert.equal(kinds.untitledMultipleSelectEnum, 'choices');
    assert.equal(kinds.legacyTitledEnum, 'choice');
    assert.deepEqual(p.asked.find((f) => f.key === 'titledSingleSelectEnum')!.options!.map((o) => o.label), ['Superman', 'Green Lantern', 'Wonder Woman']);
    assert.deepEqual(p.asked.find((f) => f.key === 'legacyTitledEnum')!.options![1], { value: 'pet-2', label: 'Dogs' });
  });

  it('elicitation: cancelling one question cancels the request; the CLI declines', async () => {
    const p = person({ name: 'Ada', email: undefined });
    const rt = await everything({ elicit: (s, params) => answerElicitation(p.asker, s, params) }, 'mcp_everything__trigger-elicitation-request');
    const r = await call(rt, 'mcp_everything__trigger-elicitation-request', {});
    assert.match(r.forLLM, /User cancelled the elicitation dialog/);
    assert.equal(p.asked.at(-1)!.key, 'email', 'nothing is asked after the cancelled question');
    await mcp!.dispose();
    const cli = await everything({ elicit: async () => ({ action: 'decline' }) }, 'mcp_everything__trigger-elicitation-request');
    assert.match((await call(cli, 'mcp_everything__trigger-elicitation-request', {})).forLLM, /"action": "decline"/);
  });

  it('elicitation answers are checked before they are sent', () => {
    const fields = elicitationFields({ properties: { n: { type: 'integer', minimum: 1, maximum: 100 }, mail: { type: 'string', format: 'email' }, pick: { type: 'string', enum: ['a', 'b'] } }, required: ['n'] });
    const [n, mail, pick] = fields;
    assert.match(String(checkText(n, '101')), /at most 100/);
    assert.match(String(checkText(n, '2.5')), /whole number/);
    assert.match(String(checkText(n, '')), /required/);
    assert.equal(checkText(mail, ''), undefined, 'an optional field may stay empty');
    assert.match(String(checkText(mail, 'not an email')), /email address/);
    assert.match(String(checkText(pick, 'c; rm -rf ~')), /one of a, b/);
  });

  it('sampling: refused until the person allows it, seeing the request; "always" is kept per server; the chat model answers', async () => {
    const shown: string[] = [];
    let next: SamplingAnswer = 'deny';
    const always = new Set<string>();
    const provider = new ScriptedProvider([answer('a haiku about tests'), answer('second answer')]);
    const rt = await everything({
      sample: (s, params, signal) => answerSampling({
        ask: async (_server, text) => (shown.push(text), next),
        allowedAlways: { has: (x) => always.has(x), add: (x) => always.add(x) },
        model: async () => ({ provider, model: 'scripted-1' }),
      }, s, params, signal),
    }, 'mcp_everything__trigger-sampling-request');
    const denied = await call(rt, 'mcp_everything__trigger-sampling-request', { prompt: 'write a haiku', maxTokens: 50 });
    assert.equal(denied.outcome, 'error');
    assert.match(denied.forLLM, /did not allow this sampling request/);
    assert.match(shown[0], /The MCP server "everything" asks your chat model to answer \(at most 50 tokens\)/);
    assert.match(shown[0], /system:\nYou are a helpful test server\./);
    assert.match(shown[0], /write a haiku/);
    assert.equal(provider.requests.length, 0, 'the model was not asked');

    next = 'always';
    const allowed = await call(rt, 'mcp_everything__trigger-sampling-request', { prompt: 'write a haiku', maxTokens: 50 });
    assert.equal(allowed.outcome, 'ok', allowed.forLLM);
    assert.match(allowed.forLLM, /a haiku about tests/);
    assert.match(allowed.forLLM, /"model": "scripted-1"/);
    assert.equal(provider.requests[0].maxOutputTokens, 50);
    assert.deepEqual(provider.requests[0].tools, []);
    next = 'deny';
    assert.match((await call(rt, 'mcp_everything__trigger-sampling-request', { prompt: 'again', maxTokens: 20 })).forLLM, /second answer/);
    assert.equal(shown.length, 2, 'an "always" is not asked again');
  });

  it('sampling takes text only and offers no tools; a URL-mode elicitation is declined; nothing is asked for them', async () => {
    let asked = 0;
    const ports = { ask: async () => (asked++, 'once' as const), allowedAlways: { has: () => false, add: () => undefined }, model: async () => undefined };
    const signal = new AbortController().signal;
    const image = { role: 'user' as const, content: { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' } };
    await assert.rejects(answerSampling(ports, 's', { messages: [image], maxTokens: 5 }, signal), /takes text only, not image/);
    const text = { role: 'user' as const, content: { type: 'text' as const, text: 'hi' } };
    await assert.rejects(answerSampling(ports, 's', { messages: [text], maxTokens: 5, tools: [{ name: 't', inputSchema: { type: 'object' } }] }, signal), /does not offer tools/);
    assert.equal(asked, 0);
    await assert.rejects(answerSampling(ports, 's', { messages: [text], maxTokens: 5 }, signal), /No chat model is set up/);
    const p = person({});
    assert.deepEqual(await answerElicitation(p.asker, 's', { mode: 'url', message: 'open this', url: 'https://example.com/x', elicitationId: 'e1' }), { action: 'decline' });
    assert.equal(p.asked.length, 0);
  });

  it('without the ports, elicitation and sampling are not offered to the server', async () => {
    const rt = runtimeWith();
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [] });
    await mcp.start([stdioServer('everything', EVERYTHING)]);
    await until(() => rt.registry.get('mcp_everything__get-roots-list') !== undefined);
    assert.equal(rt.registry.get('mcp_everything__trigger-elicitation-request'), undefined);
    assert.equal(rt.registry.get('mcp_everything__trigger-sampling-request'), undefined);
  });
});

describe('MCP destructive tools: Always allow', () => {
  it('an "always" answer is kept and that tool runs without asking again; other tools still ask', async () => {
    const rt = runtimeWith();
    const asked: ApprovalRequest[] = [];
    const approver: Approver = { request: async (req) => (asked.push(req), { answer: 'always' }) };
    const kept = new Set<string>();
    const mcp = new McpManager({
      registry: rt.registry, scrubber: rt.scrubber, roots: () => [],
      approvals: { approver: () => approver, approvalTimeoutMs: () => 5_000, alwaysAllowed: { has: (s, t) => kept.has(`${s}/${t}`), add: (s, t) => kept.add(`${s}/${t}`) } },
    });
    try {
      await mcp.start([stdioServer('hostile', HOSTILE)]);
      assert.match((await call(rt, 'mcp_hostile__wipe', { what: 'a' })).forLLM, /wiped a/);
      assert.deepEqual(asked[0].always, [{ executable: 'mcp:hostile/wipe' }]);
      assert.deepEqual([...kept], ['hostile/wipe']);
      assert.match((await call(rt, 'mcp_hostile__wipe', { what: 'b' })).forLLM, /wiped b/);
      assert.equal(asked.length, 1);
    } finally {
      await mcp.dispose();
    }
  });
});
