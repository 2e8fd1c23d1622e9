// Connection health against real servers: progress notifications reach the caller's onProgress, a
// server killed with SIGKILL mid-call fails that call and is reconnected and re-listed, and the
// reconnect backoff (2 s doubling to 60 s, 10 attempts) on a held clock.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import type { PincerRuntime } from '../../../src/core/runtime';
import type { ToolProgress } from '../../../src/core/tools/types';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, HOSTILE, stdioServer } from './mcp-servers';
import { until } from '../../support/until';

const call = (rt: PincerRuntime, name: string, args: unknown, over: Record<string, unknown> = {}) =>
  rt.registry.execute(name, args, rt.context({ channel: 'test', sessionKey: 'health', ...over }));

describe('MCP connection health', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });

  it("progress notifications reach the call's onProgress, in order, with the total", async () => {
    const rt = runtimeWith();
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [] });
    await mcp.start([stdioServer('everything', EVERYTHING)]);
    const seen: ToolProgress[] = [];
    const r = await call(rt, 'mcp_everything__trigger-long-running-operation', { duration: 1, steps: 4 }, { onProgress: (p: ToolProgress) => seen.push(p) });
    assert.equal(r.outcome, 'ok', r.forLLM);
    // The SDK hands a notification on a microtask later than the response after it, so the last
    // step's may arrive after the call ended (and is dropped); the ones before it all arrive, in order.
    assert.deepEqual(seen.slice(0, 3).map((p) => [p.progress, p.total]), [[1, 4], [2, 4], [3, 4]]);
    assert.ok(seen.length <= 4);
  });

  it('a server killed with SIGKILL mid-call: that call fails clearly, the server is reconnected and its tools re-listed', async () => {
    const rt = runtimeWith();
    const lines: string[] = [];
    mcp = new McpManager({
      registry: rt.registry, scrubber: rt.scrubber, roots: () => [], log: (_s, l) => lines.push(l),
      connection: { reconnect: { firstDelayMs: 20, maxDelayMs: 100, attempts: 3 } },
    });
    await mcp.start([stdioServer('hostile', HOSTILE)]);
    // A tool added at run time: the restarted process will not have it, so its absence shows a re-list.
    await call(rt, 'mcp_hostile__grow', {});
    await until(() => rt.registry.get('mcp_hostile__added') !== undefined);
    const pid = Number(/\d+/.exec((await call(rt, 'mcp_hostile__pid', {})).forLLM.split('\n')[2])![0]);
    const pending = call(rt, 'mcp_hostile__hang', {});
    await until(() => lines.some((l) => /hang: started/.test(l)));
    process.kill(pid, 'SIGKILL');
    const r = await pending;
    assert.equal(r.outcome, 'error');
    assert.match(r.forLLM, /MCP server "hostile" .*the connection closed — the server stopped or crashed/);
    await until(() => mcp!.status()[0].state === 'connected' && rt.registry.get('mcp_hostile__added') === undefined);
    assert.ok(lines.some((l) => /reconnecting in 20 ms \(attempt 1 of 3\)/.test(l)), lines.join('\n'));
    const newPid = Number(/\d+/.exec((await call(rt, 'mcp_hostile__pid', {})).forLLM.split('\n')[2])![0]);
    assert.notEqual(newPid, pid);
    assert.ok(rt.registry.get('mcp_hostile__a_b'));
  });

  it('reconnect backoff: 2 s doubling to 60 s, 10 attempts, then failed (held clock)', async () => {
    // The server's script is removed after it starts, so every reconnect fails.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-mcp-backoff-'));
    const script = path.join(dir, 'server.js');
    fs.writeFileSync(script, `require(${JSON.stringify(HOSTILE)});`);
    const rt = runtimeWith();
    const delays: number[] = [];
    mcp = new McpManager({
      registry: rt.registry, scrubber: rt.scrubber, roots: () => [],
      // The held clock: each retry is recorded and fired at once instead of after its delay.
      connection: { after: (ms, fire) => (delays.push(ms), setImmediate(fire), () => undefined) },
    });
    try {
      await mcp.start([stdioServer('doomed', script)]);
      const pid = Number(/\d+/.exec((await call(rt, 'mcp_doomed__pid', {})).forLLM.split('\n')[2])![0]);
      fs.rmSync(dir, { recursive: true, force: true });
      process.kill(pid, 'SIGKILL');
      await until(() => mcp!.status()[0].state === 'failed');
      assert.deepEqual(delays, [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 60_000]);
      assert.equal(rt.registry.get('mcp_doomed__pid'), undefined, 'a server that gave up has no tools');
      assert.match(mcp.status()[0].error ?? '', /MCP server "doomed"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
