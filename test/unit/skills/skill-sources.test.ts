// Where skills come from: the person's ~/.pincer/skills, then each trusted workspace folder's
// .pincer/skills, .github/skills and .claude/skills. The first of a name wins; duplicates and broken
// skills are reported with file and field; an untrusted workspace's skills are not read; a link that
// leads a workspace skill outside the workspace, or a SKILL.md outside its folder, is refused. The
// catalog sees new and changed skills after invalidate() and says so once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SkillCatalog } from '../../../src/core/skills/skill-catalog';
import { discoverSkills } from '../../../src/core/skills/skill-sources';
import { link, removeTempDirs, tempDir, writeTree } from '../../support/fs-fixtures';
import { skillMd } from './skill-fixtures';

after(removeTempDirs);

function setup() {
  const home = tempDir('skills-home');
  const ws = tempDir('skills-ws');
  writeTree(home, {
    '.pincer/skills/release-notes/SKILL.md': skillMd('release-notes', 'Writes release notes from the git log.'),
    '.pincer/skills/shared/SKILL.md': skillMd('shared', 'The person\'s own version.'),
  });
  writeTree(ws, {
    '.pincer/skills/db-migrate/SKILL.md': skillMd('db-migrate', 'Writes a database migration.'),
    '.pincer/skills/db-migrate/template.sql': 'create table t ();\n',
    '.github/skills/shared/SKILL.md': skillMd('shared', 'The workspace\'s version.'),
    '.claude/skills/broken/SKILL.md': '---\nname: Broken Name\ndescription: d\n---\n',
    '.claude/skills/not-a-skill/README.md': 'no SKILL.md here',
    '.claude/skills/stray.md': 'a file, not a folder',
  });
  return { home, ws };
}

describe('skill discovery', () => {
  it('finds every place in order, sorted by name; the person\'s skill wins a name; duplicates and broken ones are reported', () => {
    const { home, ws } = setup();
    const r = discoverSkills({ workspaceFolders: [ws], home, workspaceTrusted: true });
    assert.deepEqual(r.skills.map((s) => [s.name, s.source]), [['db-migrate', 'workspace'], ['release-notes', 'user'], ['shared', 'user']]);
    assert.equal(r.skills.find((s) => s.name === 'shared')!.description, 'The person\'s own version.');
    assert.equal(r.skills[0].from, path.join(ws, '.pincer', 'skills'));
    assert.equal(r.skills[0].dir, path.join(ws, '.pincer', 'skills', 'db-migrate'));
    assert.deepEqual(r.problems, [
      `${path.join(ws, '.github/skills/shared/SKILL.md')}: name: "shared" is already a skill from ${path.join(home, '.pincer/skills/shared/SKILL.md')}; this one is not loaded`,
      `${path.join(ws, '.claude/skills/broken/SKILL.md')}: name: must be lowercase letters, digits and single hyphens (e.g. "pdf-forms")`,
    ]);
    assert.deepEqual(r.skipped, []);
  });

  it('an untrusted workspace: only the person\'s skills, and each workspace place is reported as skipped', () => {
    const { home, ws } = setup();
    const r = discoverSkills({ workspaceFolders: [ws], home, workspaceTrusted: false });
    assert.deepEqual(r.skills.map((s) => s.name), ['release-notes', 'shared']);
    assert.deepEqual(r.skipped.map((s) => s.dir), ['.pincer', '.github', '.claude'].map((d) => path.join(ws, d, 'skills')));
    assert.match(r.skipped[0].reason, /not trusted/);
  });

  it('hostile links: a workspace skill folder leading outside the workspace, a SKILL.md leading outside its folder', () => {
    const home = tempDir('skills-home');
    const ws = tempDir('skills-ws');
    const outside = tempDir('skills-outside');
    writeTree(outside, { 'secrets/SKILL.md': skillMd('secrets', 'Looks harmless.'), 'secrets/id_rsa': 'PRIVATE', 'loose.md': skillMd('loose', 'Outside.') });
    link(path.join(outside, 'secrets'), path.join(ws, '.pincer/skills/secrets'));
    fs.mkdirSync(path.join(ws, '.pincer/skills/loose'), { recursive: true });
    link(path.join(outside, 'loose.md'), path.join(ws, '.pincer/skills/loose/SKILL.md'));
    // Links that stay inside the workspace are fine (a shared folder of skills).
    writeTree(ws, { 'tools/skills/inside/SKILL.md': skillMd('inside', 'Linked from inside.') });
    link(path.join(ws, 'tools/skills/inside'), path.join(ws, '.claude/skills/inside'));
    const r = discoverSkills({ workspaceFolders: [ws], home, workspaceTrusted: true });
    assert.deepEqual(r.skills.map((s) => s.name), ['inside']);
    assert.deepEqual(r.problems, [
      `${path.join(ws, '.pincer/skills/loose/SKILL.md')}: (file): leads outside the skill's folder (a link); not loaded`,
      `${path.join(ws, '.pincer/skills/secrets')}: (folder): leads outside the workspace folder (a link); not loaded`,
    ]);
  });

  it('the person\'s own skills may be links to anywhere (their machine, their choice)', () => {
    const home = tempDir('skills-home');
    const clone = tempDir('skills-clone');
    writeTree(clone, { 'mine/SKILL.md': skillMd('mine', 'From a cloned repository.') });
    link(path.join(clone, 'mine'), path.join(home, '.pincer/skills/mine'));
    const r = discoverSkills({ workspaceFolders: [], home, workspaceTrusted: true });
    assert.deepEqual(r.skills.map((s) => [s.name, s.dir]), [['mine', path.join(clone, 'mine')]]);
  });
});

describe('SkillCatalog', () => {
  it('sees an added, a changed and a removed skill after invalidate(), firing once per real change', () => {
    const { home, ws } = setup();
    let trusted = true;
    const catalog = new SkillCatalog({ folders: () => [ws], home, trusted: () => trusted });
    const changes: string[][] = [];
    catalog.onDidChange.on((r) => changes.push(r.skills.map((s) => s.name)));
    assert.deepEqual(catalog.enabled().map((s) => s.name), ['db-migrate', 'release-notes', 'shared']);

    writeTree(ws, { '.claude/skills/new-one/SKILL.md': skillMd('new-one', 'Just added.') });
    assert.equal(catalog.get('new-one'), undefined, 'nothing is read again until something says it changed');
    catalog.invalidate();
    assert.equal(catalog.get('new-one')?.description, 'Just added.');
    catalog.invalidate();
    writeTree(ws, { '.claude/skills/new-one/SKILL.md': skillMd('new-one', 'Changed.') });
    catalog.invalidate();
    assert.equal(catalog.get('new-one')?.description, 'Changed.');
    fs.rmSync(path.join(ws, '.claude/skills/new-one'), { recursive: true });
    catalog.invalidate();
    assert.equal(catalog.get('new-one'), undefined);
    assert.equal(changes.length, 3, JSON.stringify(changes));

    // Trust taken away: the next look has only the person's skills, without waiting for a watcher.
    trusted = false;
    assert.deepEqual(catalog.enabled().map((s) => s.name), ['release-notes', 'shared']);
  });

  it('disabled skills are out of the list, get and search', () => {
    const { home, ws } = setup();
    const catalog = new SkillCatalog({ folders: () => [ws], home, trusted: () => true, disabled: () => ['db-migrate'] });
    assert.deepEqual(catalog.enabled().map((s) => s.name), ['release-notes', 'shared']);
    assert.equal(catalog.get('db-migrate'), undefined);
    assert.deepEqual(catalog.search('database migration', 5).map((s) => s.name), []);
    assert.equal(catalog.current().skills.length, 3, 'still known, for a view that can enable it again');
  });
});
