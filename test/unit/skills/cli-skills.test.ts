// Skills in the CLI, as a real `pincer` process: the person's always, the workspace's only with
// --trust-workspace (never with --untrusted), a broken skill reported on stderr with its file and
// field, and publish_skill refusing because no one can confirm it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { removeTempDirs, tempDir, writeTree } from '../../support/fs-fixtures';
import { skillMd } from './skill-fixtures';

after(removeTempDirs);

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

function setup() {
  const home = tempDir('skills-cli-home');
  const ws = tempDir('skills-cli-ws');
  writeTree(home, { '.pincer/skills/mine/SKILL.md': skillMd('mine', 'The person\'s skill.', 'Mine first.') });
  writeTree(ws, {
    '.claude/skills/theirs/SKILL.md': skillMd('theirs', 'The workspace\'s skill.', 'Theirs next.'),
    '.github/skills/bad/SKILL.md': '---\nname: bad\n---\n',
  });
  const pincer = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: home, XDG_STATE_HOME: tempDir('skills-xdg') } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  return { home, ws, pincer };
}

describe('pincer CLI: skills', () => {
  it('the skill tools are there; the workspace\'s skills only with --trust-workspace; broken ones on stderr', () => {
    const { ws, pincer } = setup();
    const tools = pincer(['tools', '--json']);
    assert.equal(tools.code, 0, tools.err);
    const allowed: string[] = JSON.parse(tools.out).allowed;
    for (const n of ['use_skill', 'skill_search', 'publish_skill']) assert.ok(allowed.includes(n), n);
    assert.match(tools.err, /skills in .*\.claude\/skills not loaded: .*pass --trust-workspace/);

    const mine = pincer(['run', 'use_skill', '{"name":"mine"}']);
    assert.equal(mine.code, 0, mine.err);
    assert.match(mine.out, /Mine first\./);
    const refused = pincer(['run', 'use_skill', '{"name":"theirs"}']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.out, /There is no skill "theirs"/);

    const trusted = pincer(['run', 'use_skill', '{"name":"theirs"}', '--trust-workspace']);
    assert.equal(trusted.code, 0, trusted.err);
    assert.match(trusted.out, /Theirs next\./);
    assert.ok(trusted.err.includes(`skill: ${path.join(ws, '.github/skills/bad/SKILL.md')}: description: is missing or not a string`), trusted.err);
    const untrusted = pincer(['run', 'use_skill', '{"name":"theirs"}', '--trust-workspace', '--untrusted']);
    assert.notEqual(untrusted.code, 0);
    assert.match(untrusted.err, /not with --untrusted/);
  });

  it('publish_skill refuses: no one can confirm it here', () => {
    const { pincer } = setup();
    const r = pincer(['run', 'publish_skill', '{"name":"theirs"}', '--trust-workspace']);
    assert.notEqual(r.code, 0);
    assert.match(r.out, /needs a person to confirm/);
  });
});
