// Calls from VS Code's own agent go through the one pipeline: channel `lm` (its per-channel policy),
// only the tools pincer.lm.offeredTools names, the scrubber, the path guard and the command judge.
// A real runtime and toolset (the CLI's ports) on a temp workspace; no editor needed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runtimeFor, type CliRuntime } from '../../../src/cli/cli-run';
import { callFromLm } from '../../../src/core/lm/lm-call';
import type { CallStart } from '../../../src/core/tools/call-record';

/** A GitHub token's shape: the scrubber knows it without being told. */
const SECRET = 'ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW';

describe('VS Code agent tools: calls through Registry.execute', () => {
  let top: string;
  let ws: string;
  let c: CliRuntime;
  const starts: CallStart[] = [];
  const signal = new AbortController().signal;
  const deps = (offered: string[], trusted = true) => ({ rt: c.rt, offered: () => offered, workspaceRoot: () => ws, trusted: () => trusted });

  function start(settings: Record<string, unknown> = {}) {
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify(settings));
    c = runtimeFor({ workspace: ws, state: path.join(top, 'state') });
    c.rt.registry.onCallStart.on((s) => starts.push(s));
  }

  beforeEach(() => {
    top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-lm-')));
    ws = path.join(top, 'ws');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'hello.txt'), 'hello from the workspace\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), `deploy notes\nGITHUB_TOKEN=${SECRET}\n`);
    fs.writeFileSync(path.join(top, 'outside.txt'), 'plans beyond the root\n');
    starts.length = 0;
  });

  afterEach(async () => {
    await c.jobs.dispose();
    await c.store.close();
    fs.rmSync(top, { recursive: true, force: true });
  });

  it('runs an offered tool on channel lm and returns what the model would see', async () => {
    start();
    const r = await callFromLm(deps(['read_file']), 'pincer_read_file', { path: 'hello.txt' }, signal);
    assert.equal(r.outcome, 'ok');
    assert.match(r.forLLM, /hello from the workspace/);
    assert.equal(starts.at(-1)?.channel, 'lm');
    assert.equal(starts.at(-1)?.tool, 'read_file');
  });

  it('never hands a secret to the agent', async () => {
    start();
    const r = await callFromLm(deps(['read_file']), 'pincer_read_file', { path: 'notes.txt' }, signal);
    assert.equal(r.outcome, 'ok');
    assert.match(r.forLLM, /deploy notes/);
    assert.ok(!r.forLLM.includes(SECRET));
  });

  it('refuses a tool the setting does not offer, and a name that is not Pincer\'s', async () => {
    start();
    const r = await callFromLm(deps(['grep']), 'pincer_read_file', { path: 'hello.txt' }, signal);
    assert.equal(r.outcome, 'denied');
    assert.ok(!r.forLLM.includes('hello from the workspace'));
    const other = await callFromLm(deps(['read_file']), 'copilot_readFile', { path: 'hello.txt' }, signal);
    assert.notEqual(other.outcome, 'ok');
  });

  it('applies pincer.tools.byChannel.lm', async () => {
    start({ 'pincer.tools.byChannel': { lm: { deny: ['read_file'] } } });
    const denied = await callFromLm(deps(['read_file', 'list_files']), 'pincer_read_file', { path: 'hello.txt' }, signal);
    assert.equal(denied.outcome, 'denied');
    assert.match(denied.forLLM, /byChannel\.lm/);
    const allowed = await callFromLm(deps(['read_file', 'list_files']), 'pincer_list_files', {}, signal);
    assert.equal(allowed.outcome, 'ok');
  });

  it('keeps the path guard: a read outside the workspace is refused', async () => {
    start();
    const r = await callFromLm(deps(['read_file']), 'pincer_read_file', { path: '../outside.txt' }, signal);
    assert.equal(r.isError, true);
    assert.ok(!r.forLLM.includes('plans beyond the root'));
  });

  it('keeps the command judge: a destructive command is denied, a harmless one runs', async () => {
    start();
    const denied = await callFromLm(deps(['exec']), 'pincer_exec', { command: 'rm -rf /' }, signal);
    assert.equal(denied.outcome, 'denied');
    const ran = await callFromLm(deps(['exec']), 'pincer_exec', { command: 'cat hello.txt' }, signal);
    assert.equal(ran.outcome, 'ok');
    assert.match(ran.forLLM, /hello from the workspace/);
  });

  it('a critical loop refuses the call that hit it, and the next call starts a new run', async () => {
    start({ 'pincer.loopDetection.thresholds': { sameCall: { warn: 2, critical: 3 } } });
    const same = () => callFromLm(deps(['read_file']), 'pincer_read_file', { path: 'hello.txt' }, signal);
    const results = [await same(), await same(), await same()];
    assert.deepEqual(results.map((r) => r.outcome), ['ok', 'ok', 'error']);
    assert.match(results[2].forLLM, /\[Pincer stopped this run\]/);
    const next = await callFromLm(deps(['read_file']), 'pincer_read_file', { path: 'notes.txt' }, signal);
    assert.equal(next.outcome, 'ok', next.forLLM);
    assert.match(next.forLLM, /deploy notes/);
  });

  it('cancellation reaches the tool: a running command is stopped and the call ends cancelled', async () => {
    start();
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => c.rt.registry.onCallStart.on((s) => s.tool === 'exec' && resolve()));
    const call = callFromLm(deps(['exec']), 'pincer_exec', { command: 'sleep 30' }, controller.signal);
    await started;
    controller.abort(new Error('cancelled in VS Code'));
    const r = await call;
    assert.equal(r.outcome, 'cancelled', r.forLLM);
  });

  it('runs only read-only tools in an untrusted workspace', async () => {
    start();
    const r = await callFromLm(deps(['write_file', 'read_file'], false), 'pincer_write_file', { path: 'new.txt', content: 'x' }, signal);
    assert.equal(r.outcome, 'denied');
    assert.ok(!fs.existsSync(path.join(ws, 'new.txt')));
    assert.equal((await callFromLm(deps(['write_file', 'read_file'], false), 'pincer_read_file', { path: 'hello.txt' }, signal)).outcome, 'ok');
  });
});
