// The bridge against real servers: server-everything over stdio, SSE and streamable HTTP, and a
// hostile server. Every call goes through Registry.execute, as the chat's do.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../../src/core/exec/exec-types';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import type { PincerRuntime } from '../../../src/core/runtime';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, HOSTILE, httpServer, startEverythingHttp, stdioServer, type RunningHttp } from './mcp-servers';

const PROVIDER_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The servers' log lines, and a way to wait for one. */
class Log {
  readonly lines: string[] = [];
  private waiters: { re: RegExp; resolve: () => void }[] = [];
  add = (server: string, line: string) => {
    this.lines.push(`${server}: ${line}`);
    this.waiters = this.waiters.filter((w) => (w.re.test(line) ? (w.resolve(), false) : true));
  };
  waitFor(re: RegExp): Promise<void> {
    if (this.lines.some((l) => re.test(l))) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ re, resolve }));
  }
}

function setup(settings: Record<string, unknown> = {}) {
  const rt = runtimeWith(settings);
  const log = new Log();
  const mcp = new McpManager({
    registry: rt.registry, scrubber: rt.scrubber, roots: () => ['/tmp'], log: log.add, clientVersion: 'test',
    connection: { reconnect: { firstDelayMs: 20, maxDelayMs: 100, attempts: 3 } },
  });
  return { rt, log, mcp };
}

const call = (rt: PincerRuntime, name: string, args: unknown, over: Record<string, unknown> = {}) =>
  rt.registry.execute(name, args, rt.context({ channel: 'test', sessionKey: 'mcp-test', ...over }));

describe('MCP bridge: server-everything', () => {
  let mcp: McpManager | undefined;
  let http: RunningHttp | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    http?.stop();
    mcp = http = undefined;
  });

  it('stdio: tools registered as mcp_everything__*, in groups mcp and mcp:everything, echo runs through the pipeline', async () => {
    const s = setup();
    mcp = s.mcp;
    assert.deepEqual(await mcp.start([stdioServer('everything', EVERYTHING)]), []);
    const names = s.rt.registry.list().map((t) => t.name).filter((n) => n.startsWith('mcp_'));
    assert.ok(names.includes('mcp_everything__echo'), names.join(', '));
    assert.ok(names.includes('mcp_everything__get-sum'));
    assert.ok(names.every((n) => PROVIDER_NAME.test(n)));
    const echo = s.rt.registry.get('mcp_everything__echo')!;
    assert.equal(echo.group, 'mcp');
    assert.equal(echo.mcpServer, 'everything');
    const schema = s.rt.registry.jsonSchema(echo);
    assert.deepEqual(schema.required, ['message']);
    const r = await call(s.rt, 'mcp_everything__echo', { message: 'hello bridge' });
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /Echo: hello bridge/);
    assert.match(r.forLLM, /^<<<EXTERNAL_UNTRUSTED_CONTENT source="mcp:everything\/echo">>>/);
    const sum = await call(s.rt, 'mcp_everything__get-sum', { a: 2, b: 40 });
    assert.match(sum.forLLM, /42/);
    // Arguments are validated against the server's schema before anything is sent.
    const bad = await call(s.rt, 'mcp_everything__echo', { message: 7 });
    assert.equal(bad.outcome, 'error');
    assert.match(bad.forLLM, /Invalid arguments for mcp_everything__echo/);
    // The policy sees the groups.
    const only = s.rt.effectiveTools({ depth: 0, isOwner: true, trusted: true, profileOverride: 'minimal' });
    assert.ok(!only.allowed.some((n) => n.startsWith('mcp_')));
    assert.deepEqual(mcp.status().map((x) => [x.name, x.state]), [['everything', 'connected']]);
  });

  it('structured content and resource links are rendered as text for the model; images go as image parts', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([stdioServer('everything', EVERYTHING)]);
    const img = await call(s.rt, 'mcp_everything__get-tiny-image', {});
    assert.match(img.forLLM, /\[image \d of mcp:everything\/get-tiny-image: PNG, \d+×\d+ pixels, [\d,]+ bytes, shown as an image\]/);
    assert.equal(img.images?.length, 1);
    assert.equal(img.images?.[0].mimeType, 'image/png');
    const links = await call(s.rt, 'mcp_everything__get-resource-links', { count: 2 });
    assert.match(links.forLLM, /\[resource link: demo:\/\/resource\//);
    const structured = await call(s.rt, 'mcp_everything__get-structured-content', { location: 'New York' });
    assert.equal(structured.outcome, 'ok', structured.forLLM);
    assert.match(structured.forLLM, /temperature/);
  });

  it('per-server tools.allow / tools.deny: deny wins', async () => {
    const s = setup();
    mcp = s.mcp;
    const srv = stdioServer('everything', EVERYTHING, { def: { allow: ['echo', 'get-*'], deny: ['get-env'] } });
    await mcp.start([srv]);
    const names = s.rt.registry.list().map((t) => t.name).filter((n) => n.startsWith('mcp_')).sort();
    assert.ok(names.includes('mcp_everything__echo'));
    assert.ok(names.includes('mcp_everything__get-sum'));
    assert.ok(!names.includes('mcp_everything__get-env'));
    assert.ok(!names.includes('mcp_everything__trigger-long-running-operation'));
  });

  it('secrets passed in env are scrubbed from what the server prints back', async () => {
    const s = setup();
    mcp = s.mcp;
    const token = 'sk-live-0123456789abcdefXYZ';
    await mcp.start([stdioServer('everything', EVERYTHING, { env: { SERVICE_TOKEN: token }, secrets: [token] })]);
    const r = await call(s.rt, 'mcp_everything__get-env', {});
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /SERVICE_TOKEN/);
    assert.ok(!r.forLLM.includes(token));
    // The person's own environment is not handed to the server, only the configured variables.
    assert.ok(!/"MOCHA_|"npm_/.test(r.forLLM));
  });

  it('streamable HTTP (type streamable-http and type http)', async () => {
    const s = setup();
    mcp = s.mcp;
    http = await startEverythingHttp('streamableHttp');
    assert.deepEqual(await mcp.start([httpServer('sh', 'streamable-http', `${http.base}/mcp`), httpServer('auto', 'http', `${http.base}/mcp`)]), []);
    for (const name of ['mcp_sh__echo', 'mcp_auto__echo']) {
      const r = await call(s.rt, name, { message: `via ${name}` });
      assert.match(r.forLLM, new RegExp(`Echo: via ${name}`));
    }
    assert.ok(!s.log.lines.some((l) => /trying SSE/.test(l)));
  });

  it('SSE, and type http falling back to SSE; header values are registered as secrets', async () => {
    const s = setup();
    mcp = s.mcp;
    http = await startEverythingHttp('sse');
    const secret = 'hdr-secret-9f8e7d6c5b4a';
    assert.deepEqual(await mcp.start([
      httpServer('legacy', 'sse', `${http.base}/sse`),
      httpServer('auto', 'http', `${http.base}/sse`, { 'X-Api-Key': secret }, [secret]),
    ]), []);
    assert.match((await call(s.rt, 'mcp_legacy__echo', { message: 'over sse' })).forLLM, /Echo: over sse/);
    assert.match((await call(s.rt, 'mcp_auto__echo', { message: 'fell back' })).forLLM, /Echo: fell back/);
    assert.ok(s.log.lines.some((l) => /^auto: streamable HTTP failed .*trying SSE/.test(l)), s.log.lines.join('\n'));
    assert.equal(s.rt.scrubber.scrub(`key ${secret}`), 'key [REDACTED]');
  });

  it('a timeout cancels the call on the server (progress-reporting long operation)', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([stdioServer('everything', EVERYTHING, { def: { timeoutMs: 300 } })]);
    const r = await call(s.rt, 'mcp_everything__trigger-long-running-operation', { duration: 30, steps: 30 });
    assert.equal(r.outcome, 'timed-out', r.forLLM);
    // The connection stays usable after the cancelled request.
    assert.match((await call(s.rt, 'mcp_everything__echo', { message: 'still here' })).forLLM, /still here/);
  });
});

describe('MCP bridge: hostile servers', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });
  const hostile = (over: Parameters<typeof stdioServer>[2] = {}) => stdioServer('hostile', HOSTILE, over);

  it('names: path tricks cleaned, a collision resolved the same way every time, long names capped', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    const names = s.rt.registry.list().map((t) => t.name).filter((n) => n.startsWith('mcp_hostile__'));
    assert.ok(names.every((n) => PROVIDER_NAME.test(n)), names.join(', '));
    // "../../etc/passwd": each of its six dots and slashes becomes "_".
    assert.ok(names.includes('mcp_hostile________etc_passwd'), names.join(', '));
    assert.match((await call(s.rt, 'mcp_hostile________etc_passwd', {})).forLLM, /path-trick ran/);
    // "a.b" and "a_b" clean to one name: a.b sorts first and keeps it; a_b gets its hash.
    const ab = names.filter((n) => n.startsWith('mcp_hostile__a_b'));
    assert.equal(ab.length, 2);
    assert.match((await call(s.rt, 'mcp_hostile__a_b', {})).forLLM, /a\.b ran/);
    assert.match((await call(s.rt, ab.find((n) => n !== 'mcp_hostile__a_b')!, {})).forLLM, /a_b ran/);
    const long = names.find((n) => n.startsWith('mcp_hostile__long_'))!;
    assert.equal(long.length, 64);
    assert.match((await call(s.rt, long, {})).forLLM, /long ran/);
    // A second manager over the same server picks the same names.
    const again = setup();
    await again.mcp.start([hostile()]);
    assert.deepEqual(again.rt.registry.list().map((t) => t.name).filter((n) => n.startsWith('mcp_')), names);
    await again.mcp.dispose();
  });

  it('huge output is capped and secrets in output are scrubbed by the pipeline', async () => {
    const s = setup();
    mcp = s.mcp;
    const token = 'hostile-token-5a4b3c2d1e0f';
    await mcp.start([hostile({ env: { HOSTILE_TOKEN: token }, secrets: [token] })]);
    const big = await call(s.rt, 'mcp_hostile__huge', { mb: 4 });
    assert.equal(big.outcome, 'ok');
    assert.ok(big.forLLM.length <= s.rt.registry.limits.maxResultChars + 500, String(big.forLLM.length));
    assert.ok(Number(big.details?.truncatedChars) > 4_000_000);
    const leak = await call(s.rt, 'mcp_hostile__leak', {});
    assert.ok(!leak.forLLM.includes(token), leak.forLLM);
    assert.ok(!leak.forLLM.includes('AKIAIOSFODNN7EXAMPLF'), leak.forLLM);
  });

  it('a server that hangs: the timeout ends the call and the server hears the cancellation', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile({ def: { timeoutMs: 200 } })]);
    const r = await call(s.rt, 'mcp_hostile__hang', {});
    assert.equal(r.outcome, 'timed-out');
    await s.log.waitFor(/hang: cancelled by the client/);
  });

  it('Stop: the caller aborting cancels the call on the server', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    const stop = new AbortController();
    const pending = call(s.rt, 'mcp_hostile__hang', {}, { signal: stop.signal });
    await s.log.waitFor(/hang: started/);
    stop.abort();
    assert.equal((await pending).outcome, 'cancelled');
    await s.log.waitFor(/hang: cancelled by the client/);
  });

  it('outside the pipeline (a context without onAbort) the bridge hands the SDK the context\'s own signal: aborting it cancels on the server', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    const stop = new AbortController();
    const ctx = s.rt.context({ channel: 'test', sessionKey: 'mcp-test', signal: stop.signal });
    assert.equal(ctx.onAbort, undefined);
    const pending = s.rt.registry.get('mcp_hostile__hang')!.execute({}, ctx);
    await s.log.waitFor(/hang: started/);
    stop.abort();
    await assert.rejects(pending);
    await s.log.waitFor(/hang: cancelled by the client/);
  });

  it('calls under one long-lived signal (a chat turn\'s) add no listener per call to it: the SDK, which never removes its cancel listener, gets each call\'s own signal', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([stdioServer('everything', EVERYTHING)]);
    const turn = new AbortController();
    assert.equal((await call(s.rt, 'mcp_everything__echo', { message: 'first' }, { signal: turn.signal })).outcome, 'ok');
    // The pipeline hears a caller's signal through one listener shared by its calls (call-context.ts).
    assert.equal(getEventListeners(turn.signal, 'abort').length, 1);
    for (let i = 0; i < 25; i++) assert.equal((await call(s.rt, 'mcp_everything__echo', { message: `m${i}` }, { signal: turn.signal })).outcome, 'ok');
    assert.equal(getEventListeners(turn.signal, 'abort').length, 1);
  });

  it('a server that dies mid-call: a clear error at once, then it is reconnected and works', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    const r = await call(s.rt, 'mcp_hostile__die', {});
    assert.equal(r.outcome, 'error');
    assert.match(r.forLLM, /MCP server "hostile" .*the connection closed — the server stopped or crashed/);
    assert.match(r.forLLM, /die: exiting now/);
    assert.match((await call(s.rt, 'mcp_hostile__a_b', {})).forLLM, /a\.b ran/);
    assert.equal(mcp.status()[0].state, 'connected');
  });

  it('a server that stops answering pings counts as down after the misses, and is restarted', async () => {
    const rt = runtimeWith();
    const log = new Log();
    mcp = new McpManager({
      registry: rt.registry, scrubber: rt.scrubber, roots: () => [], log: log.add,
      connection: { pingEveryMs: 250, maxMissedPings: 2, reconnect: { firstDelayMs: 20, maxDelayMs: 100, attempts: 3 } },
    });
    await mcp.start([hostile()]);
    const frozen = call(rt, 'mcp_hostile__freeze', {});
    await log.waitFor(/ping missed \(2 of 2\)/);
    const r = await frozen;
    assert.equal(r.outcome, 'error');
    assert.match(r.forLLM, /the connection closed/);
    assert.match((await call(rt, 'mcp_hostile__a_b', {})).forLLM, /a\.b ran/);
  });

  it('a server that gave up reconnecting loses its tools, and starting it again brings them back', async () => {
    const rt = runtimeWith();
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], connection: { reconnect: { firstDelayMs: 20, maxDelayMs: 20, attempts: 0 } } });
    const server = hostile();
    await mcp.start([server]);
    assert.equal((await call(rt, 'mcp_hostile__die', {})).outcome, 'error');
    assert.equal(mcp.status()[0].state, 'failed');
    assert.equal(rt.registry.get('mcp_hostile__a_b'), undefined);
    assert.deepEqual(await mcp.start([server]), []);
    assert.equal(mcp.status()[0].state, 'connected');
    assert.match((await call(rt, 'mcp_hostile__a_b', {})).forLLM, /a\.b ran/);
  });

  it('a tool its server marks destructive asks first: refused where nobody answers, per the answer otherwise', async () => {
    const rt = runtimeWith();
    const log = new Log();
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalAnswer = 'deny';
    const approver: Approver = { request: async (req) => (asked.push(req), { answer }) };
    const person: { approver?: Approver } = {};
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], log: log.add, approvals: { approver: () => person.approver, approvalTimeoutMs: () => 5_000 } });
    await mcp.start([hostile()]);
    const nobody = await call(rt, 'mcp_hostile__wipe', { what: 'db' });
    assert.equal(nobody.outcome, 'denied');
    assert.match(nobody.forLLM, /marked destructive and needs a person's approval/);
    person.approver = approver;
    const denied = await call(rt, 'mcp_hostile__wipe', { what: 'db' });
    assert.equal(denied.outcome, 'rejected-by-user');
    assert.equal(asked[0].tool, 'mcp');
    assert.equal(asked[0].command, 'hostile / wipe {"what":"db"}');
    assert.ok(!log.lines.some((l) => /wipe: ran/.test(l)), 'the server never ran it');
    answer = 'once';
    assert.match((await call(rt, 'mcp_hostile__wipe', { what: 'tmp' })).forLLM, /wiped tmp/);
    // Tools without the hint never ask.
    await call(rt, 'mcp_hostile__a_b', {});
    assert.equal(asked.length, 2);
  });

  it('an isError result is an error result with the server message', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    const r = await call(s.rt, 'mcp_hostile__fail', {});
    assert.equal(r.outcome, 'error');
    assert.match(r.forLLM, /The MCP server reported an error:[\s\S]*the disk is on fire/);
  });

  it('list_changed: a tool the server adds is registered for the next request', async () => {
    const s = setup();
    mcp = s.mcp;
    await mcp.start([hostile()]);
    assert.equal(s.rt.registry.get('mcp_hostile__added'), undefined);
    const appeared = new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (s.rt.registry.get('mcp_hostile__added')) {
          clearInterval(t);
          resolve();
        }
      }, 10);
    });
    await call(s.rt, 'mcp_hostile__grow', {});
    await appeared;
    assert.match((await call(s.rt, 'mcp_hostile__added', {})).forLLM, /added ran/);
  });

  it('a server that cannot start is reported by name and the others still run', async () => {
    const s = setup();
    mcp = s.mcp;
    const missing = stdioServer('missing', EVERYTHING);
    missing.command = '/nonexistent/mcp-server';
    const crashing = stdioServer('crashing', '-e', { args: ['process.stderr.write("bad config, giving up\\n"); process.exit(2)'] });
    const failures = await mcp.start([missing, crashing, hostile()]);
    assert.deepEqual(failures.map((f) => f.server).sort(), ['crashing', 'missing']);
    assert.match(failures.find((f) => f.server === 'missing')!.error, /MCP server "missing" \(\/nonexistent\/mcp-server\): .*ENOENT/);
    assert.match(failures.find((f) => f.server === 'crashing')!.error, /connection closed.*bad config, giving up/);
    assert.match((await call(s.rt, 'mcp_hostile__a_b', {})).forLLM, /ran/);
    await mcp.stop('hostile');
    assert.equal(s.rt.registry.list().filter((t) => t.name.startsWith('mcp_')).length, 0);
  });
});
