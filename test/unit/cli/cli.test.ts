// The CLI from outside: a real child process running the compiled entry, real temp workspaces.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

// The store's default folder goes under a temp XDG_STATE_HOME, never the real one.
const stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-cli-xdg-'));

function pincer(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', timeout: 20_000, env: { ...process.env, XDG_STATE_HOME: stateHome } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const made: string[] = [];
after(() => [...made, stateHome].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function workspace(settings?: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-cli-'));
  made.push(dir);
  if (settings) {
    fs.mkdirSync(path.join(dir, '.vscode'));
    // JSONC, as VS Code writes it: comments and trailing commas are fine.
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), `// workspace settings\n${JSON.stringify(settings, null, 2).replace(/\n}$/, ',\n}')}`);
  }
  return dir;
}

describe('pincer CLI', () => {
  it('tools: the effective list, and why each missing tool is missing', () => {
    const r = pincer(['tools']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Profile: coding \(pincer\.tools\.profile\)|Profile: coding \(default\)/);
    assert.match(r.out, /Allowed \(23\): apply_patch, credentialed_exec, datetime, edit, exec, glob, grep, list_files, memory_expand, memory_get, memory_search, process, publish_skill, read_document, read_file, read_image, session_status, sessions_history, sessions_list, sessions_send, skill_search, use_skill, write_file/);
    const sub = pincer(['tools', '--depth', '1', '--json']);
    const d = JSON.parse(sub.out);
    assert.ok(!d.allowed.includes('session_status'));
    assert.deepEqual(d.removed.map((x: { tool: string; step: string }) => `${x.tool}:${x.step}`),
      ['browser:profile', 'memory_expand:subagent deny', 'memory_get:subagent deny', 'memory_search:subagent deny', 'publish_skill:subagent deny', 'session_status:subagent deny',
        'sessions_history:leaf deny', 'sessions_list:leaf deny', 'sessions_send:subagent deny', 'web_fetch:profile', 'web_search:profile']);
    const untrusted = JSON.parse(pincer(['tools', '--untrusted', '--json']).out);
    assert.deepEqual(untrusted.allowed, ['datetime', 'glob', 'grep', 'list_files', 'memory_expand', 'memory_get', 'memory_search', 'read_document', 'read_file', 'read_image', 'session_status', 'sessions_history', 'sessions_list', 'skill_search', 'use_skill']);
    assert.deepEqual(JSON.parse(pincer(['tools', '--profile', 'minimal', '--json']).out).allowed, ['session_status']);
  });

  it('run: one call through the pipeline, exit 0 on success', () => {
    const r = pincer(['run', 'datetime', '{"timezone":"UTC"}']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Now: .* \(UTC\)\nUTC: \d{4}-\d\d-\d\dT/);
    const j = JSON.parse(pincer(['run', 'datetime', '--json']).out);
    assert.equal(j.isError, false);
    assert.equal(typeof j.details.unix, 'number');
  });

  it('run: exit 1 on an error result (bad argument, unknown tool, policy)', () => {
    const bad = pincer(['run', 'datetime', '{"timezone": 5}']);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /Invalid arguments for datetime:\n- timezone: .*\(got number 5\)/);
    const zone = pincer(['run', 'datetime', '{"timezone":"Nowhere/Special"}']);
    assert.equal(zone.code, 1);
    assert.match(zone.out, /Unknown time zone "Nowhere\/Special"/);
    assert.equal(pincer(['run', 'nope']).code, 1);
    const ws = workspace({ 'pincer.tools.deny': ['datetime'] });
    const denied = pincer(['run', 'datetime', '--workspace', ws]);
    assert.equal(denied.code, 1);
    assert.match(denied.out, /not allowed by policy here \(deny: listed in pincer\.tools\.deny\)/);
  });

  it('reads nested settings and a --config file on top of the workspace settings', () => {
    const ws = workspace({ pincer: { tools: { profile: 'minimal' } } });
    assert.deepEqual(JSON.parse(pincer(['tools', '--workspace', ws, '--json']).out).allowed, ['session_status']);
    const cfg = path.join(ws, 'extra.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'pincer.tools.profile': 'coding' }));
    assert.ok(JSON.parse(pincer(['tools', '--workspace', ws, '--config', cfg, '--json']).out).allowed.includes('read_file'));
  });

  it('warns about invalid settings on stderr and keeps going with the default', () => {
    const ws = workspace({ 'pincer.tools.allow': 'datetime', 'pincer.tools.deny': ['red_file'] });
    const r = pincer(['tools', '--workspace', ws]);
    assert.equal(r.code, 0);
    assert.match(r.err, /Setting pincer\.tools\.allow is invalid/);
    assert.match(r.err, /"red_file" in pincer\.tools\.deny matches nothing/);
  });

  it('file tools work on the workspace; writing needs --write', () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    const read = pincer(['run', 'read_file', '{"path":"a.txt"}', '--workspace', ws]);
    assert.equal(read.code, 0, read.out + read.err);
    assert.match(read.out, /1.*one\n.*2.*two/s);
    const refused = pincer(['run', 'write_file', '{"path":"b.txt","content":"x"}', '--workspace', ws]);
    assert.equal(refused.code, 1);
    assert.match(refused.out, /--write/);
    assert.ok(!fs.existsSync(path.join(ws, 'b.txt')));
    const wrote = pincer(['run', 'write_file', '{"path":"b.txt","content":"x"}', '--workspace', ws, '--write']);
    assert.equal(wrote.code, 0, wrote.out);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'x');
    const outside = pincer(['run', 'read_file', '{"path":"../../etc/passwd"}', '--workspace', ws]);
    assert.equal(outside.code, 1);
    assert.match(outside.out, /pincer\.fs\.allowPaths|outside/);
  });

  it('scrub: stdin to stdout, secrets replaced, everything else untouched', () => {
    // A token that looks issued is replaced; a mask of one repeated character is a placeholder and stays.
    const mask = 'EXAMPLE_TOKEN=ghp_' + 'x'.repeat(36);
    const text = 'ok line\nGITHUB_TOKEN=ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW\nhash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n' + mask + '\n';
    const r = pincer(['scrub', '--secret', 'hunter2-extra'], text + 'pw hunter2-extra\n');
    assert.equal(r.code, 0);
    assert.ok(!r.out.includes('ghp_R8fK'));
    assert.ok(r.out.includes(mask + '\n'));
    assert.ok(!r.out.includes('hunter2-extra'));
    assert.match(r.out, /^ok line\n/);
    assert.match(r.out, /hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n/);
  });

  it('bad usage exits 2 with a message', () => {
    for (const args of [['frobnicate'], ['run'], ['tools', '--depth', 'x'], ['tools', '--bogus'], [], ['run', 'datetime', '--workspace', '/no/such/dir']]) {
      const r = pincer(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    }
    assert.equal(pincer(['--help']).code, 0);
  });
});
