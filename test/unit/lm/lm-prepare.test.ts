// What VS Code shows before its agent calls a Pincer tool: exactly what will happen, and a VS Code
// confirmation only where Pincer itself asks nobody (one prompt for the person, never two). A real
// path guard on a temp workspace and the real judge under the default command policy.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryApprovalStore } from '../../../src/core/exec/approval-store';
import { DEFAULT_COMMAND_POLICY } from '../../../src/core/exec/command-policy';
import { PathGuard } from '../../../src/core/fs/path-guard';
import type { ReviewMode } from '../../../src/core/fs/review-policy';
import { prepareLmCall, type LmPrepareDeps } from '../../../src/core/lm/lm-prepare';
import type { Capability } from '../../../src/core/tools/types';

describe('VS Code agent tools: prepareInvocation', () => {
  let top: string;
  let ws: string;
  let store: MemoryApprovalStore;
  const deps = (capability: Capability, mode: ReviewMode = 'always', autoApprove: string[] = []): LmPrepareDeps => ({
    capability,
    guard: new PathGuard({ roots: [ws], workspaceOnly: true, allowPaths: [], denyPaths: [], alwaysDeny: [], home: os.homedir() }),
    review: { mode, autoApprove, home: os.homedir() },
    exec: { policy: DEFAULT_COMMAND_POLICY, host: 'process', store, home: os.homedir() },
  });

  beforeEach(() => {
    top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-lm-prepare-')));
    ws = path.join(top, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    store = new MemoryApprovalStore();
  });
  afterEach(() => fs.rmSync(top, { recursive: true, force: true }));

  it('a read-only tool runs without a confirmation, saying what it reads', async () => {
    const p = await prepareLmCall('read_file', { path: 'a.txt' }, deps('read-only'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /read_file `a\.txt`/);
  });

  it('a command the judge allows runs without a confirmation', async () => {
    const p = await prepareLmCall('exec', { command: 'ls -la' }, deps('mutating'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /Running `ls -la` \(Pincer's judge allows it/);
  });

  it('a command the judge asks about goes to Pincer\'s approval, not to a second VS Code prompt; each part has its verdict', async () => {
    const p = await prepareLmCall('exec', { command: 'ls && npm install left-pad' }, deps('mutating'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /needs your approval in Pincer's prompt/);
    assert.match(p.invocationMessage, /- allow: `ls`/);
    assert.match(p.invocationMessage, /- ask: `npm install left-pad` — .*package/);
  });

  it('a denied command is announced as refused, without asking anyone', async () => {
    const p = await prepareLmCall('exec', { command: 'rm -rf /' }, deps('mutating'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /^Pincer will refuse `rm -rf \/`/);
  });

  it('reads stored approvals without touching them (VS Code may prepare a call it never makes)', async () => {
    const npm = process.env.PATH!.split(path.delimiter).map((d) => path.join(d, 'npm')).find((f) => fs.existsSync(f))!;
    const entry = await store.add({ executable: fs.realpathSync(npm), args: 'install left-pad' }, 'npm install left-pad');
    await store.touch(entry.id);
    const touched = (await store.list()).find((a) => a.id === entry.id)!;
    const p = await prepareLmCall('exec', { command: 'npm install left-pad' }, deps('mutating'));
    assert.match(p.invocationMessage, /^Running/);
    const after = (await store.list()).find((a) => a.id === entry.id)!;
    assert.equal(after.lastUsedAt, touched.lastUsedAt);
  });

  it('an edit under diff review is announced with its summary; the review is the one prompt', async () => {
    const p = await prepareLmCall('edit', { path: 'a.txt', old_string: 'one\n', new_string: 'uno\ndos\n' }, deps('mutating', 'always'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /edit a\.txt: 1 replacement\(s\), −1 \+2 lines; review it in Pincer's diff/);
  });

  it('an edit the review settings let land unreviewed gets VS Code\'s confirmation with the file and the summary', async () => {
    const p = await prepareLmCall('write_file', { path: 'b.txt', content: 'x\ny\n' }, deps('mutating', 'auto-approve-globs', ['*.txt']));
    assert.ok(p.confirmation);
    assert.match(p.confirmation.message, /write b\.txt \(2 lines/);
    const never = await prepareLmCall('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n two\n*** Add File: c.txt\n+c\n*** End Patch' }, deps('mutating', 'never'));
    assert.ok(never.confirmation);
    assert.match(never.confirmation.message, /update a\.txt \(−1 \+1 lines\); add c\.txt \(\+1 lines\)/);
  });

  it('an edit outside the workspace is announced as refused', async () => {
    const p = await prepareLmCall('write_file', { path: '../elsewhere.txt', content: 'x' }, deps('mutating', 'never'));
    assert.equal(p.confirmation, undefined);
    assert.match(p.invocationMessage, /^Pincer will refuse to write \.\.\/elsewhere\.txt/);
  });

  it('process asks VS Code before it writes to or stops a job, not before it reads one', async () => {
    assert.equal((await prepareLmCall('process', { action: 'poll', id: 'j1' }, deps('mutating'))).confirmation, undefined);
    const kill = await prepareLmCall('process', { action: 'kill', id: 'j1' }, deps('mutating'));
    assert.match(kill.confirmation!.message, /`process kill j1`/);
  });
});
