// The first tool call after activation: the runtime loads on it (dist/host-core.js) and the chat
// stack does not (dist/host-chat.js: the model SDKs, the chat view), nor do the libraries only some
// tools need (dist/lazy-*.js, the web converter's worker), so a tool never waits for them.
// bench/first-tool-call.mjs runs this file alone in fresh hosts and records the wall time.
import * as assert from 'assert';
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { EXT_ID, api, core, recordFact } from './host-util';

/** Starts V8's CPU profiler in this extension host; the answer stops it and writes dir/first-tool-call.cpuprofile. */
async function startProfile(dir: string | undefined): Promise<(() => Promise<void>) | undefined> {
  if (!dir) return undefined;
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) =>
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = await post('Profiler.stop') as { profile: unknown };
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'first-tool-call.cpuprofile'), JSON.stringify(profile));
  };
}

suite('first tool call', () => {
  test('read_file answers without loading the chat stack', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext, 'extension present');
    // Cold only when no earlier test of this host has loaded the runtime (the bench runs this file alone).
    const cold = !ext.isActive;
    const a = await api();
    const coreBefore = a.activation.coreLoadMs;
    // The extension host's CPU time beside the wall time: on a loaded machine the wall time is mostly
    // waiting for a core, while the CPU time is the work the call did (the host is otherwise idle here).
    // PINCER_FIRST_CALL_PROFILE=<dir>: a CPU profile of the call (V8's sampler in this process), to see
    // where the time goes; it slows the call, so the bench never sets it.
    const profile = cold ? await startProfile(process.env.PINCER_FIRST_CALL_PROFILE) : undefined;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'read_file', { path: 'package.json' }, { show: false });
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    await profile?.();
    assert.ok(r && !r.isError, `read_file answered: ${r?.forLLM.slice(0, 200)}`);
    assert.match(r.forLLM, /"name"/, 'the file content came back');
    const loaded = await core();
    if (cold) {
      assert.ok(coreBefore === undefined && a.activation.coreLoadMs !== undefined, 'the call loaded the runtime');
      assert.strictEqual(loaded.chat.isLoaded(), false, 'a tool call must not load the chat stack');
      // Nor the bundles that only some calls need: the web page converter, luxon, croner, linkedom, pdf.js.
      const lazy = Object.keys(require.cache).filter((f) => /[\\/]dist[\\/](lazy-[\w-]+|web-convert-worker|pdf-extract)\.js$/.test(f));
      assert.deepStrictEqual(lazy, [], 'a read_file call loads none of the lazily required bundles');
      // Where the time went: the runtime's load in its stages, and the call through the pipeline after it.
      recordFact('firstToolCall', {
        wallMs, cpuMs: (cpu.user + cpu.system) / 1000, coreLoadMs: a.activation.coreLoadMs, fromCache: a.activation.coreFromCache,
        stages: a.activation.coreStages, createStages: loaded.createStages, afterLoadMs: wallMs - a.activation.coreLoadMs!,
      });
    }
    // The chat is still one use away: its session tools were there before it loaded.
    assert.ok(loaded.services.rt.registry.get('sessions_list'), 'session tools registered with the runtime');
    // The database opens after the call, and the log writes the call it kept meanwhile.
    await loaded.storageReady();
    const db = await loaded.storage.database();
    assert.ok(db, 'database opened');
    const rows = await db.query<{ record: string }>('SELECT record FROM tool_calls');
    assert.ok(rows.some((row) => (JSON.parse(row.record) as { tool: string }).tool === 'read_file'), 'the first call is in the database');
  });
});
