// use_skill, skill_search and publish_skill through the execute pipeline, on real folders: the list
// in use_skill's description, instructions and files on use, a skill's files read only inside its
// folder (../, absolute, ~, links out, denied names, huge, binary and special files refused), BM25
// ranking, and publishing only with the person's yes, as plain files, whole or not at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_SKILL_ASSET_BYTES } from '../../../src/core/skills/skill-files';
import { describeSkills, LISTING_BUDGET_CHARS } from '../../../src/core/skills/use-skill-tool';
import type { Skill } from '../../../src/core/skills/skill-file';
import { link, removeTempDirs, tempDir, writeTree } from '../../support/fs-fixtures';
import { skillMd, skillRig, type SkillRig } from './skill-fixtures';

after(removeTempDirs);

const call = (r: SkillRig, name: string, args: unknown, over: Record<string, unknown> = {}) =>
  r.rt.registry.execute(name, args, r.rt.context({ channel: 'test', sessionKey: 'skills', ...over }));

const WS = {
  '.pincer/skills/db-migrate/SKILL.md': skillMd('db-migrate', 'Writes a database migration for schema changes.', 'Use template.sql. Then run the tests.'),
  '.pincer/skills/db-migrate/template.sql': 'create table t ();\n',
  '.pincer/skills/db-migrate/scripts/check.sh': 'echo checking\n',
  '.claude/skills/changelog/SKILL.md': skillMd('changelog', 'Updates CHANGELOG.md.', 'Mention every database migration by name.'),
};
const HOME = { '.pincer/skills/release-notes/SKILL.md': skillMd('release-notes', 'Writes release notes.', 'Group by feature.') };

describe('use_skill', () => {
  it('its description lists every skill, sorted by name, name and description only', () => {
    const r = skillRig({ ws: WS, home: HOME });
    const d = r.rt.registry.get('use_skill')!.description;
    assert.match(d, /Skills:\n- changelog: Updates CHANGELOG\.md\.\n- db-migrate: Writes a database migration for schema changes\.\n- release-notes: Writes release notes\.$/);
    assert.ok(!d.includes('Group by feature'), 'instructions are not in the description');
  });

  it('a long list stops at its budget and points to skill_search for the rest', () => {
    const skills = Array.from({ length: 400 }, (_, i) => ({ name: `skill-${String(i).padStart(3, '0')}`, description: 'x'.repeat(60) }) as Skill);
    const d = describeSkills(skills);
    const listed = d.split('\n').filter((l) => l.startsWith('- skill-')).length;
    assert.ok(listed > 50 && listed < 400, String(listed));
    assert.ok(d.length < LISTING_BUDGET_CHARS + 1000);
    assert.ok(d.endsWith(`(${400 - listed} more skills: find them with skill_search.)`));
    assert.match(describeSkills([]), /No skills are installed now\.$/);
  });

  it('loads the instructions, lists the files beside them, says where the skill is from', async () => {
    const r = skillRig({ ws: WS, home: HOME });
    const res = await call(r, 'use_skill', { name: 'db-migrate' });
    assert.equal(res.outcome, 'ok', res.forLLM);
    assert.equal(res.forLLM, [
      `# Skill "db-migrate" from the workspace (${path.join(r.ws, '.pincer', 'skills')})`, '', 'Use template.sql. Then run the tests.', '',
      'Files of this skill (read one with use_skill {"name": "db-migrate", "file": "<path>"}):', '- scripts/check.sh', '- template.sql',
    ].join('\n'));
    assert.equal(res.narrowTools, undefined, 'no allowed-tools: the turn keeps its tools');
    assert.deepEqual(res.details, { skill: 'db-migrate', source: 'workspace', file: path.join(r.ws, '.pincer/skills/db-migrate/SKILL.md'), files: 2 });
    const mine = await call(r, 'use_skill', { name: 'release-notes' });
    assert.match(mine.forLLM, /^# Skill "release-notes" from your skills \(/);
  });

  it('an unknown name: an error with similar skills', async () => {
    const r = skillRig({ ws: WS, home: HOME });
    const res = await call(r, 'use_skill', { name: 'migration' });
    assert.equal(res.outcome, 'error');
    assert.match(res.forLLM, /There is no skill "migration"\. Similar: db-migrate, changelog\./);
  });

  it('reads a file of the skill, relative to its folder, cut at the result limit', async () => {
    const r = skillRig({ ws: { ...WS, '.pincer/skills/db-migrate/long.md': 'y'.repeat(5000) }, maxChars: 1000 });
    const res = await call(r, 'use_skill', { name: 'db-migrate', file: 'template.sql' });
    assert.equal(res.forLLM, 'create table t ();\n');
    assert.deepEqual(res.details, { skill: 'db-migrate', file: 'template.sql', truncated: false });
    const long = await call(r, 'use_skill', { name: 'db-migrate', file: './long.md' });
    assert.ok(long.forLLM.startsWith('y'.repeat(1000)));
    assert.match(long.forLLM, /\[cut at 1000 characters\]$/);
  });

  it('hostile: a file outside the skill\'s folder is refused however it is named', async () => {
    const outside = tempDir('skills-outside');
    writeTree(outside, { 'id_rsa': 'PRIVATE KEY' });
    const r = skillRig({ ws: { ...WS, 'secret.txt': 'WORKSPACE SECRET', '.pincer/skills/db-migrate/.git/config': '[core]' } });
    link(path.join(outside, 'id_rsa'), path.join(r.ws, '.pincer/skills/db-migrate/key'));
    link(outside, path.join(r.ws, '.pincer/skills/db-migrate/dir'));
    writeTree(r.home, { '.ssh/id_rsa': 'HOME KEY' });
    for (const file of ['../../../secret.txt', '../changelog/SKILL.md', path.join(outside, 'id_rsa'), '~/.ssh/id_rsa', 'key', 'dir/id_rsa', '.git/config']) {
      const res = await call(r, 'use_skill', { name: 'db-migrate', file });
      assert.equal(res.isError, true, `${file}: ${res.forLLM}`);
      assert.ok(!/PRIVATE|SECRET|HOME KEY|\[core\]/.test(res.forLLM), `${file}: ${res.forLLM}`);
      assert.notEqual(res.outcome, 'ok');
    }
  });

  it('hostile: huge, binary, special and missing files are refused with a reason', async () => {
    const r = skillRig({ ws: WS });
    const dir = path.join(r.ws, '.pincer/skills/db-migrate');
    fs.writeFileSync(path.join(dir, 'huge.txt'), Buffer.alloc(MAX_SKILL_ASSET_BYTES + 1, 0x61));
    fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0x50, 0x4b, 0, 1, 2]));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const reason = async (file: string) => (await call(r, 'use_skill', { name: 'db-migrate', file })).forLLM;
    assert.match(await reason('huge.txt'), new RegExp(`is ${MAX_SKILL_ASSET_BYTES + 1} bytes, more than the ${MAX_SKILL_ASSET_BYTES}-byte limit`));
    assert.match(await reason('blob.bin'), /is a binary file/);
    assert.match(await reason('pipe'), /is not a regular file/);
    assert.match(await reason('scripts'), /is not a regular file/);
    assert.match(await reason('nope.md'), /"nope\.md" is not a file of the skill "db-migrate"/);
  });
});

describe('skill_search', () => {
  it('ranks by name, then description, then instructions; no match says so', async () => {
    const r = skillRig({ ws: WS, home: HOME });
    const res = await call(r, 'skill_search', { query: 'database migration' });
    assert.deepEqual(res.details, { found: ['db-migrate', 'changelog'] });
    assert.match(res.forLLM, /^2 skills found; load one with use_skill:\n- db-migrate \(workspace\): Writes a database migration/);
    assert.deepEqual((await call(r, 'skill_search', { query: 'release', limit: 1 })).details, { found: ['release-notes'] });
    const none = await call(r, 'skill_search', { query: 'kubernetes' });
    assert.match(none.forLLM, /No skill matches "kubernetes"/);
    assert.equal(r.rt.registry.get('skill_search')!.group, 'knowledge');
  });
});

describe('publish_skill', () => {
  it('copies a workspace skill into the person\'s skills after a yes; the catalog then has it as theirs', async () => {
    const r = skillRig({ ws: WS, confirm: true });
    const res = await call(r, 'publish_skill', { name: 'db-migrate' });
    assert.equal(res.outcome, 'ok', res.forLLM);
    const dest = path.join(r.home, '.pincer/skills/db-migrate');
    assert.deepEqual(r.asked.map((a) => [a.skill.name, a.dest, a.files, a.replacing]), [['db-migrate', dest, ['SKILL.md', 'scripts/check.sh', 'template.sql'], false]]);
    assert.equal(fs.readFileSync(path.join(dest, 'scripts/check.sh'), 'utf8'), 'echo checking\n');
    assert.equal(r.catalog.get('db-migrate')?.source, 'user');
    assert.deepEqual(fs.readdirSync(path.dirname(dest)), ['db-migrate'], 'no temporary folder left behind');
    const again = await call(r, 'publish_skill', { name: 'changelog' });
    assert.equal(again.outcome, 'ok');
    assert.match((await call(r, 'publish_skill', { name: 'db-migrate' })).forLLM, /already one of the person's skills/);
  });

  it('a no leaves nothing behind; with no one to ask it refuses', async () => {
    const no = skillRig({ ws: WS, confirm: false });
    const res = await call(no, 'publish_skill', { name: 'db-migrate' });
    assert.equal(res.outcome, 'rejected-by-user');
    assert.equal(fs.existsSync(path.join(no.home, '.pincer/skills/db-migrate')), false);
    const cli = skillRig({ ws: WS });
    assert.match((await call(cli, 'publish_skill', { name: 'db-migrate' })).forLLM, /needs a person to confirm/);
  });

  it('replacing an existing skill of the person needs replace: true and a yes', async () => {
    const r = skillRig({ ws: WS, confirm: true });
    const dest = path.join(r.home, '.pincer/skills/db-migrate');
    writeTree(dest, { 'old.txt': 'old' });
    const first = await call(r, 'publish_skill', { name: 'db-migrate' });
    assert.match(first.forLLM, /Call again with replace: true/);
    assert.equal(r.asked.length, 0);
    const res = await call(r, 'publish_skill', { name: 'db-migrate', replace: true });
    assert.equal(res.outcome, 'ok', res.forLLM);
    assert.equal(r.asked[0].replacing, true);
    assert.equal(fs.existsSync(path.join(dest, 'old.txt')), false);
    assert.ok(fs.existsSync(path.join(dest, 'template.sql')));
  });

  it('hostile: a link in the skill is never copied (it could point at anything on this machine)', async () => {
    const outside = tempDir('skills-outside');
    writeTree(outside, { 'id_rsa': 'PRIVATE' });
    const r = skillRig({ ws: WS, confirm: true });
    link(path.join(outside, 'id_rsa'), path.join(r.ws, '.pincer/skills/db-migrate/key'));
    const res = await call(r, 'publish_skill', { name: 'db-migrate' });
    assert.equal(res.isError, true);
    assert.match(res.forLLM, /cannot be published: key is a link/);
    assert.equal(r.asked.length, 0, 'the person is not asked about something that will not be done');
    assert.equal(fs.existsSync(path.join(r.home, '.pincer/skills')), false);
  });

  it('policy: owner only, not in an untrusted workspace, not for subagents', async () => {
    const r = skillRig({ ws: WS, confirm: true });
    for (const over of [{ isOwner: false }, { workspaceTrusted: false }, { subagentDepth: 1, channel: 'subagent' }]) {
      const res = await call(r, 'publish_skill', { name: 'db-migrate' }, over);
      assert.equal(res.outcome, 'denied', `${JSON.stringify(over)}: ${res.forLLM}`);
    }
    assert.equal(r.asked.length, 0);
    assert.equal((await call(r, 'use_skill', { name: 'db-migrate' }, { workspaceTrusted: false, isOwner: false })).outcome, 'ok', 'reading a skill stays allowed');
  });
});
