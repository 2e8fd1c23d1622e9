// mcp-serve-overhead: `read_file` of one file through Pincer's MCP server (`pincer mcp` over stdio,
// the SDK's client) against the same call in one warm process (the runtime `pincer run` builds,
// Registry.execute directly), batches interleaved in the same run. Both sides use the same build and
// settings (rate limit and loop detection off: a benchmark repeats one call on purpose). Goal: the
// server adds at most 1 ms per call (median). On a loaded machine the times follow the scheduler (a
// served call wakes two processes), so the CPU each side spends per call is recorded beside them
// (`extra.cpuUs`: this process's from process.cpuUsage, the server's main thread's from
// /proc/<pid>/schedstat).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', process.env.PINCER_OUT ?? 'out');
const { runtimeFor } = require(path.join(OUT, 'src/cli/cli-run.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const BATCH = 100;
const ROUNDS = 9;
const loadBefore = os.loadavg();

const top = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-serve-'));
const ws = path.join(top, 'ws');
fs.mkdirSync(ws);
const text = Array.from({ length: 100 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join('\n');
fs.writeFileSync(path.join(ws, 'sample.txt'), text);
const config = path.join(top, 'settings.json');
fs.writeFileSync(config, JSON.stringify({ 'pincer.rateLimit.enabled': false, 'pincer.loopDetection.enabled': false }));
const flags = { workspace: ws, config, state: path.join(top, 'state') };

try {
  const local = runtimeFor(flags);
  const ctx = local.rt.context({ channel: 'cli', sessionKey: 'bench', workspaceRoot: local.root });
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath, args: [path.join(OUT, 'src/cli/main.js'), 'mcp', '--workspace', ws, '--config', config, '--state', flags.state],
    env: { ...process.env, XDG_STATE_HOME: path.join(top, 'xdg') }, stderr: 'ignore',
  });
  await client.connect(transport);
  const serverCpuNs = () => Number(fs.readFileSync(`/proc/${transport.pid}/schedstat`, 'utf8').split(' ')[0]);
  const args = { path: 'sample.txt' };
  const inProcess = async () => {
    const r = await local.rt.registry.execute('read_file', args, ctx);
    if (r.isError) throw new Error(r.forLLM);
  };
  const overMcp = async () => {
    const r = await client.callTool({ name: 'read_file', arguments: args });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  const cpu = new Map([[inProcess, { own: [], server: [] }], [overMcp, { own: [], server: [] }]]);
  const batch = async (fn) => {
    const s0 = serverCpuNs();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) await fn();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6 / BATCH; // ms per call
    const c = process.cpuUsage(c0);
    cpu.get(fn).own.push((c.user + c.system) / BATCH); // µs per call
    cpu.get(fn).server.push((serverCpuNs() - s0) / 1e3 / BATCH);
    return ms;
  };
  for (let w = 0; w < 3; w++) { await batch(inProcess); await batch(overMcp); }
  for (const c of cpu.values()) c.own.length = c.server.length = 0;
  const direct = [], served = [];
  for (let r = 0; r < ROUNDS; r++) { direct.push(await batch(inProcess)); served.push(await batch(overMcp)); }
  await client.close();
  await local.jobs.dispose();
  await local.store.close();
  const value = median(served);
  const referenceValue = median(direct);
  const addedMs = value - referenceValue;
  record({
    name: 'mcp-serve-overhead', unit: 'ms', value, reference: 'the same read_file through Registry.execute in one warm process', referenceValue,
    goal: 'added time per call <= 1 ms (median)', pass: addedMs <= 1, runs: ROUNDS, statistic: 'median of per-call means of batches',
    corpus: `${BATCH} sequential read_file calls of a ${text.length}-character file per batch, pincer mcp over stdio (SDK client)`, loadBefore,
    extra: {
      addedMs: Math.round(addedMs * 1000) / 1000,
      cpuUs: {
        inProcess: Math.round(median(cpu.get(inProcess).own)),
        served: { client: Math.round(median(cpu.get(overMcp).own)), server: Math.round(median(cpu.get(overMcp).server)) },
      }, servedRounds: served.map((x) => Math.round(x * 1000) / 1000), directRounds: direct.map((x) => Math.round(x * 1000) / 1000) },
  });
} finally {
  fs.rmSync(top, { recursive: true, force: true });
}
