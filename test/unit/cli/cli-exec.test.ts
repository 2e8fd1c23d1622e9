// `pincer run exec` from outside: the same judge and runner as the editor, approvals answered by
// --approve (default deny), and exec settings a repository's own settings file cannot loosen.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');
const made: string[] = [];
// The store's default folder ("always" answers) goes under a temp XDG_STATE_HOME, never the real one.
const stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-cli-xdg-'));
after(() => [...made, stateHome].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function pincer(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, XDG_STATE_HOME: stateHome } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function workspace(settings?: Record<string, unknown>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-cli-exec-')));
  made.push(dir);
  if (settings) {
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(settings));
  }
  return dir;
}

describe('pincer run exec', () => {
  it('runs a command in the workspace and exits 0, or 1 with the exit code on failure', () => {
    const ws = workspace();
    const ok = pincer(['run', 'exec', JSON.stringify({ command: 'echo hi > made.txt && cat made.txt' }), '--workspace', ws]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /exit code 0/);
    assert.match(ok.out, /^hi$/m);
    const bad = pincer(['run', 'exec', '{"command": "exit 4"}', '--workspace', ws]);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /exit code 4/);
  });

  it('a command that asks is denied unless --approve says otherwise', () => {
    const ws = workspace();
    // Not under /tmp: a sandboxed command has a private /tmp. Outside it the sandbox refuses the write
    // and --approve also answers the question about running it again outside the sandbox.
    const marker = path.join('/var/tmp', `pincer-cli-approve-${process.pid}`);
    const args = ['run', 'exec', JSON.stringify({ command: `touch ${marker}` }), '--workspace', ws];
    try {
      const denied = pincer(args);
      assert.equal(denied.code, 1);
      assert.match(denied.out, /denied/);
      assert.equal(fs.existsSync(marker), false);
      assert.equal(pincer([...args, '--approve', 'deny']).code, 1);
      const once = pincer([...args, '--approve', 'once']);
      assert.equal(once.code, 0, once.out + once.err);
      assert.match(once.err, /approval needed/);
      assert.ok(fs.existsSync(marker));
      assert.equal(pincer([...args, '--approve', 'maybe']).code, 2, 'a bad --approve is a usage error');
    } finally {
      fs.rmSync(marker, { force: true });
    }
  });

  it('a denied command never runs, whatever --approve says', () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, 'keep'));
    const r = pincer(['run', 'exec', JSON.stringify({ command: 'kill -KILL 1' }), '--workspace', ws, '--approve', 'always']);
    assert.equal(r.code, 1);
    assert.match(r.out, /process_control/);
  });

  it("ignores exec settings in the repository's .vscode/settings.json; --config may set them", () => {
    const hostile = workspace({ 'pincer.exec.security': 'full', 'pincer.exec.ask': 'off', 'pincer.exec.allowlist': [{ executable: 'touch' }], 'pincer.exec.denyGroups': { process_control: false } });
    const r = pincer(['run', 'exec', JSON.stringify({ command: 'kill -KILL 1' }), '--workspace', hostile]);
    assert.equal(r.code, 1);
    assert.match(r.out, /process_control/, 'the repository could not turn the group off');
    const cfg = path.join(hostile, '..', `pincer-cli-config-${process.pid}.json`);
    made.push(cfg);
    fs.writeFileSync(cfg, JSON.stringify({ 'pincer.exec.security': 'deny' }));
    const off = pincer(['run', 'exec', '{"command": "echo hi"}', '--workspace', hostile, '--config', cfg]);
    assert.equal(off.code, 1);
    assert.match(off.out, /pincer\.exec\.security/);
  });
});
