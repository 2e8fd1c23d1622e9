// Custom tools in the CLI, as a real `pincer` process: the workspace's tools only with
// --trust-workspace (never with --untrusted), the person's from --config always, secrets from
// PINCER_TOOL_SECRET_<NAME>, and a broken definition reported on stderr with its file and field.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';

after(removeTempDirs);

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

function pincer(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, XDG_STATE_HOME: tempDir('custom-xdg'), ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function workspace(): string {
  const ws = tempDir('custom-cli');
  fs.mkdirSync(path.join(ws, '.pincer', 'tools'), { recursive: true });
  const tool = (name: string, command: string[]) => ({ name, description: `${name} for tests.`, parameters: { type: 'object', properties: { text: { type: 'string' } } }, command });
  fs.writeFileSync(path.join(ws, '.pincer', 'tools', 'echo.json'), JSON.stringify(tool('ws_echo', ['printf', '<%s>', '{{text}}'])));
  fs.writeFileSync(path.join(ws, '.pincer', 'tools', 'broken.json'), JSON.stringify({ ...tool('ws_broken', ['printf']), command: 'printf' }));
  fs.writeFileSync(path.join(ws, 'config.json'), JSON.stringify({ 'pincer.tools.custom': [{ ...tool('my_env', ['node', 'env.js']), env: { TOKEN: '${secret:my_token}' } }] }));
  fs.writeFileSync(path.join(ws, 'env.js'), 'process.stdout.write(`token=${process.env.TOKEN}`);\n');
  return ws;
}

describe('pincer CLI: custom tools', () => {
  it('tools: the workspace\'s only with --trust-workspace, never with --untrusted; the person\'s always', () => {
    const ws = workspace();
    const config = path.join(ws, 'config.json');
    const plain = pincer(['tools', '--workspace', ws, '--config', config, '--json']);
    assert.equal(plain.code, 0, plain.err);
    assert.ok(JSON.parse(plain.out).allowed.includes('my_env'));
    assert.ok(!JSON.parse(plain.out).allowed.includes('ws_echo'));
    assert.match(plain.err, /custom tools in .*echo\.json not loaded: .*pass --trust-workspace/);
    const trusted = pincer(['tools', '--workspace', ws, '--config', config, '--json', '--trust-workspace']);
    assert.equal(trusted.code, 0, trusted.err);
    assert.ok(JSON.parse(trusted.out).allowed.includes('ws_echo'));
    assert.ok(!JSON.parse(trusted.out).allowed.includes('ws_broken'));
    assert.match(trusted.err, /broken\.json: command: /);
    const untrusted = pincer(['tools', '--workspace', ws, '--json', '--trust-workspace', '--untrusted']);
    assert.ok(!JSON.parse(untrusted.out).allowed.includes('ws_echo'));
    assert.match(untrusted.err, /not with --untrusted/);
  });

  it('run: a workspace tool runs with --trust-workspace, arguments as one element; a secret comes from the environment and is scrubbed', () => {
    const ws = workspace();
    const r = pincer(['run', 'ws_echo', JSON.stringify({ text: 'a; b $(c)' }), '--workspace', ws, '--trust-workspace']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /<a; b \$\(c\)>/);
    const refused = pincer(['run', 'ws_echo', JSON.stringify({ text: 'x' }), '--workspace', ws]);
    assert.equal(refused.code, 1, 'not registered without the flag');
    const secret = pincer(['run', 'my_env', '{}', '--workspace', ws, '--config', path.join(ws, 'config.json')], { PINCER_TOOL_SECRET_MY_TOKEN: 'tok-abcdef-0123456789' });
    assert.equal(secret.code, 0, secret.out + secret.err);
    assert.match(secret.out, /token=/);
    assert.ok(!secret.out.includes('tok-abcdef-0123456789'), secret.out);
  });
});
