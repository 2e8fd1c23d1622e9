// mcp-call-overhead: a call to server-everything's `echo` through the bridge (Registry.execute →
// bridge tool → SDK client) against the SDK client calling the same tool directly, on the same
// server and transport, in the same run, batches interleaved. Over stdio the reference is the
// bridge connection's own SDK client (a stdio server has one client; two server processes of the
// same build differ by more than the bridge costs on a busy machine, so a client with a server of
// its own is recorded beside it as `extra`), and over streamable HTTP one server with two sessions.
// On a loaded machine the times follow the scheduler more than the code, so the CPU time this
// process spends per call on each side is recorded beside them (`extra.cpuUs`), and its context
// switches per call (`extra.contextSwitchesPerCall`: a call that sleeps until the answer comes is a
// voluntary switch; one preempted when its write wakes the server, an involuntary one, and a process
// preempted that often runs on cold caches, so its CPU per call grows with it). Goal: ratio <= 1.1.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', process.env.PINCER_OUT ?? 'out');
const { PincerRuntime } = require(path.join(OUT, 'src/core/runtime.js'));
const { readConfig } = require(path.join(OUT, 'src/core/config.js'));
const { McpManager } = require(path.join(OUT, 'src/core/mcp/mcp-manager.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const BATCH = 100;
const ROUNDS = 9;
const loadBefore = os.loadavg();

function definition(transport, over) {
  return { name: 'everything', source: { file: 'bench', workspace: false }, transport, args: [], env: {}, headers: {}, disabled: false, ...over };
}

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function httpServer() {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve) => child.stderr.on('data', (b) => /listening on port/i.test(String(b)) && resolve()));
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

async function measure(transport, resolved, directTransport) {
  const settings = { 'tools.profile': 'full', 'rateLimit.enabled': false, 'loopDetection.enabled': false };
  const rt = new PincerRuntime({ config: readConfig((k) => settings[k]) });
  const mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], clientVersion: 'bench' });
  const failed = await mcp.start([resolved]);
  if (failed.length) throw new Error(failed[0].error);
  const direct = new Client({ name: 'bench-direct', version: '1' });
  await direct.connect(directTransport);
  // The bridge connection's SDK client (a private field, read here only to measure against it).
  const own = mcp.entries.get('everything').conn.client;
  const ctx = rt.context({ channel: 'bench', sessionKey: 'bench' });
  const cpu = new Map();
  const switches = new Map();
  const batch = async (fn) => {
    const r0 = process.resourceUsage();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) await fn(i);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6 / BATCH; // ms per call
    const c = process.cpuUsage(c0);
    const r1 = process.resourceUsage();
    if (!cpu.has(fn)) cpu.set(fn, []);
    cpu.get(fn).push((c.user + c.system) / BATCH); // µs of this process per call
    if (!switches.has(fn)) switches.set(fn, { voluntary: [], involuntary: [] });
    switches.get(fn).voluntary.push((r1.voluntaryContextSwitches - r0.voluntaryContextSwitches) / BATCH);
    switches.get(fn).involuntary.push((r1.involuntaryContextSwitches - r0.involuntaryContextSwitches) / BATCH);
    return ms;
  };
  const viaDirect = (i) => direct.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  const viaOwn = (i) => own.callTool({ name: 'echo', arguments: { message: `m${i}` } });
  const reference = transport === 'stdio' ? viaOwn : viaDirect;
  const viaBridge = async (i) => {
    const r = await rt.registry.execute('mcp_everything__echo', { message: `m${i}` }, ctx);
    if (r.isError) throw new Error(r.forLLM);
  };
  for (let w = 0; w < 2; w++) { await batch(reference); await batch(viaBridge); }
  cpu.clear();
  switches.clear();
  const d = [], b = [], other = [];
  for (let r = 0; r < ROUNDS; r++) {
    d.push(await batch(reference));
    b.push(await batch(viaBridge));
    if (transport === 'stdio') other.push(await batch(viaDirect));
  }
  await direct.close();
  await mcp.dispose();
  const value = median(b);
  const referenceValue = median(d);
  const cpuUs = { bridge: Math.round(median(cpu.get(viaBridge))), reference: Math.round(median(cpu.get(reference))) };
  const perCall = (fn) => ({ voluntary: median(switches.get(fn).voluntary), involuntary: median(switches.get(fn).involuntary) });
  record({
    name: `mcp-call-overhead-${transport}`, unit: 'ms', value, referenceValue,
    reference: transport === 'stdio' ? 'the same connection\'s SDK client calling echo directly (stdio)' : `SDK client calling echo directly (${transport})`,
    extra: {
      cpuUs,
      contextSwitchesPerCall: { bridge: perCall(viaBridge), reference: perCall(reference) },
      ...(transport === 'stdio' ? { separateServerDirectMs: median(other), separateServerRatio: Math.round((value / median(other)) * 1000) / 1000 } : {}),
    },
    goal: 'ratio <= 1.1', pass: value / referenceValue <= 1.1, runs: ROUNDS, statistic: 'median',
    corpus: `${BATCH} sequential echo calls per run, server-everything ${require('@modelcontextprotocol/server-everything/package.json').version}`, loadBefore,
  });
}

await measure('stdio',
  { def: definition('stdio', { command: process.execPath, args: [EVERYTHING] }), command: process.execPath, args: [EVERYTHING], env: {}, headers: {}, secrets: [] },
  new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
const http = await httpServer();
try {
  await measure('http', { def: definition('streamable-http', { url: http.url }), url: http.url, args: [], env: {}, headers: {}, secrets: [] },
    new StreamableHTTPClientTransport(new URL(http.url)));
} finally {
  http.child.kill();
}
