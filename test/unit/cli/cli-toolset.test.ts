// The CLI has the editor's toolset and a store of its own: memory, context files, sessions,
// checkpoints and "always" approvals work from `pincer run`, kept in a database under --state (by
// default a per-workspace folder under the person's state directory, never in the repository).
// Real child processes on real temp folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CheckpointStore } from '../../../src/core/fs/checkpoint-store';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { defaultStateDir } from '../../../src/cli/cli-state';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');
const WORKER = path.join(__dirname, '..', '..', '..', 'src', 'core', 'storage', 'storage-worker.js');
const made: string[] = [];
after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Each test's default state directory is a temp folder (XDG_STATE_HOME), never the real one. */
function pincer(args: string[], stateHome: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, XDG_STATE_HOME: stateHome } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('pincer CLI: the one toolset and its store', () => {
  it('tools lists what the editor offers: memory, sessions, files, exec', () => {
    const r = pincer(['tools', '--json'], tempDir('pincer-xdg-'));
    assert.equal(r.code, 0, r.err);
    const allowed: string[] = JSON.parse(r.out).allowed;
    for (const t of ['memory_search', 'memory_get', 'memory_expand', 'sessions_list', 'sessions_history', 'sessions_send', 'read_file', 'exec', 'process', 'credentialed_exec', 'datetime', 'session_status']) {
      assert.ok(allowed.includes(t), `${t} in ${allowed.join(', ')}`);
    }
  });

  it('SOUL.md and MEMORY.md written through the CLI land in the store, not on disk, and memory_search finds them later', () => {
    const ws = tempDir('pincer-cli-ws-');
    const state = tempDir('pincer-cli-state-');
    const xdg = tempDir('pincer-xdg-');
    const soul = pincer(['run', 'write_file', JSON.stringify({ path: 'SOUL.md', content: 'I answer briefly.' }), '--workspace', ws, '--state', state], xdg);
    assert.equal(soul.code, 0, soul.out + soul.err);
    assert.match(soul.out, /not on disk/);
    const mem = pincer(['run', 'write_file', JSON.stringify({ path: 'MEMORY.md', content: 'The release branch is called trunk-stable.' }), '--workspace', ws, '--state', state], xdg);
    assert.equal(mem.code, 0, mem.out + mem.err);
    assert.deepEqual(fs.readdirSync(ws), [], 'nothing was written to the workspace');
    assert.ok(fs.existsSync(path.join(state, 'pincer.journal')) || fs.existsSync(path.join(state, 'pincer.db')), 'the store is in --state');

    const read = pincer(['run', 'read_file', '{"path":"SOUL.md"}', '--workspace', ws, '--state', state], xdg);
    assert.match(read.out, /I answer briefly\./);
    const found = pincer(['run', 'memory_search', '{"query":"release branch"}', '--workspace', ws, '--state', state, '--json'], xdg);
    assert.equal(found.code, 0, found.out + found.err);
    assert.match(JSON.parse(found.out).forLLM, /trunk-stable/);
    const none = pincer(['run', 'memory_search', '{"query":"x"}', '--workspace', ws, '--state', tempDir('pincer-cli-state-')], xdg);
    assert.equal(none.code, 0, none.out + none.err);
    assert.match(none.out, /No memory matches "x"/);
  });

  it('without --state the store is a per-workspace folder under $XDG_STATE_HOME/pincer, outside the workspace', () => {
    const ws = tempDir('pincer-cli-ws-');
    const xdg = tempDir('pincer-xdg-');
    const r = pincer(['run', 'sessions_list', '{}', '--workspace', ws], xdg);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /no sessions yet/);
    const dir = defaultStateDir(ws, { XDG_STATE_HOME: xdg }, 'linux');
    assert.equal(path.dirname(dir), path.join(xdg, 'pincer'));
    assert.ok(fs.readdirSync(dir).length > 0, `the database is in ${dir}`);
    assert.deepEqual(fs.readdirSync(ws), []);
    assert.notEqual(defaultStateDir(tempDir('pincer-cli-ws-'), { XDG_STATE_HOME: xdg }, 'linux'), dir, 'another workspace, another store');
    assert.equal(defaultStateDir('/w', { XDG_STATE_HOME: 'relative/path' }, 'linux', '/home/p').startsWith('/home/p/.local/state/pincer/'), true, 'a relative XDG_STATE_HOME is ignored, as the spec says');
    assert.equal(defaultStateDir('/w', {}, 'darwin', '/Users/p').startsWith('/Users/p/Library/Application Support/pincer/'), true);
  });

  it('the file tools cannot read or list the store, even when --state is inside the workspace', () => {
    const ws = tempDir('pincer-cli-ws-');
    const xdg = tempDir('pincer-xdg-');
    const state = path.join(ws, 'state');
    assert.equal(pincer(['run', 'write_file', JSON.stringify({ path: 'MEMORY.md', content: 'secret note' }), '--workspace', ws, '--state', state], xdg).code, 0);
    const read = pincer(['run', 'read_file', JSON.stringify({ path: 'state/pincer.journal' }), '--workspace', ws, '--state', state], xdg);
    assert.equal(read.code, 1);
    assert.match(read.out, /Pincer's own storage/);
    const grep = pincer(['run', 'grep', '{"pattern":"secret note"}', '--workspace', ws, '--state', state], xdg);
    assert.doesNotMatch(grep.out, /pincer\.journal/);
  });

  it('"always" answered with --approve is remembered in the store for later runs of that workspace', () => {
    const ws = tempDir('pincer-cli-ws-');
    const xdg = tempDir('pincer-xdg-');
    // Writing outside the workspace asks; whether the write then succeeds is the executor's business.
    const outside = path.join(tempDir('pincer-cli-marker-'), 'made');
    const args = ['run', 'exec', JSON.stringify({ command: `touch ${outside}` }), '--workspace', ws];
    const first = pincer(args, xdg);
    assert.equal(first.code, 1, 'asks, and nobody said yes');
    assert.match(first.out, /denied/);
    const always = pincer([...args, '--approve', 'always'], xdg);
    assert.match(always.err, /approval needed/);
    assert.match(always.out, /Approved by the user \(always: 1 rule\(s\) saved for this workspace\)/);
    const later = pincer(args, xdg);
    assert.doesNotMatch(later.err, /approval needed/);
    assert.doesNotMatch(later.out, /denied/);
    const elsewhere = pincer(['run', 'exec', JSON.stringify({ command: `touch ${outside}` }), '--workspace', tempDir('pincer-cli-ws-')], xdg);
    assert.match(elsewhere.err, /approval needed/, 'another workspace has its own store');
  });

  it('--json results say how the call ended: the judge denied it, or the write was refused without --write', () => {
    const ws = tempDir('pincer-cli-ws-');
    const xdg = tempDir('pincer-xdg-');
    const denied = JSON.parse(pincer(['run', 'exec', '{"command":"rm -rf /"}', '--workspace', ws, '--json'], xdg).out);
    assert.equal(denied.outcome, 'denied');
    assert.equal(denied.isError, true);
    const refused = JSON.parse(pincer(['run', 'write_file', '{"path":"a.txt","content":"x"}', '--workspace', ws, '--json'], xdg).out);
    assert.equal(refused.outcome, 'rejected-by-user');
    const fine = JSON.parse(pincer(['run', 'datetime', '--json'], xdg).out);
    assert.equal(fine.outcome, 'ok');
  });

  it('a write with --write keeps the original as a checkpoint in the store', async () => {
    const ws = tempDir('pincer-cli-ws-');
    const state = tempDir('pincer-cli-state-');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'first version\n');
    const r = pincer(['run', 'write_file', JSON.stringify({ path: 'notes.txt', content: 'second version\n' }), '--workspace', ws, '--state', state, '--write'], tempDir('pincer-xdg-'));
    assert.equal(r.code, 0, r.out + r.err);
    assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'second version\n');
    const db = await Database.open({ dir: state, workerPath: WORKER, migrations: WORKSPACE_MIGRATIONS });
    try {
      const store = new CheckpointStore(db);
      const [latest] = await store.list();
      assert.ok(latest, 'a checkpoint exists');
      const files = await store.files(latest.id);
      assert.deepEqual(files.map((f) => path.basename(f.path)), ['notes.txt']);
    } finally {
      await db.close();
    }
  });
});
