// Skill usage: use_skill reports each load of a skill's instructions (not a file read, not a refusal),
// and the count the Skills view shows grows by one per load.
import assert from 'node:assert/strict';
import { countUse, usageLabel, type SkillUsage } from '../../../src/core/skills/skill-usage';
import { removeTempDirs } from '../../support/fs-fixtures';
import { skillMd, skillRig } from './skill-fixtures';

after(removeTempDirs);

describe('skill usage', () => {
  it('use_skill reports a load of instructions, not a file read or a refusal', async () => {
    const r = skillRig({ ws: {
      '.pincer/skills/db-migrate/SKILL.md': skillMd('db-migrate', 'Writes a migration.'),
      '.pincer/skills/db-migrate/template.sql': 'create table t ();\n',
    } });
    const call = (args: unknown) => r.rt.registry.execute('use_skill', args, r.rt.context({ channel: 'test', sessionKey: 'usage' }));
    assert.equal((await call({ name: 'db-migrate' })).isError, false);
    assert.equal((await call({ name: 'db-migrate', file: 'template.sql' })).isError, false);
    assert.equal((await call({ name: 'db-migrate', file: '../../../etc/passwd' })).isError, true);
    assert.equal((await call({ name: 'no-such-skill' })).isError, true);
    assert.equal((await call({ name: 'db-migrate' })).isError, false);
    assert.deepEqual(r.used, ['db-migrate', 'db-migrate']);
  });

  it('counts loads and keeps the latest time; names that are also Object members are plain keys', () => {
    let u: SkillUsage = {};
    assert.equal(usageLabel(u, 'constructor'), undefined, 'never loaded: no label, even for an Object member name');
    u = countUse(u, 'release-notes', 1000);
    u = countUse(u, 'release-notes', 2000);
    u = countUse(u, 'constructor', 3000);
    assert.deepEqual(u, { 'release-notes': { count: 2, lastUsedAt: 2000 }, constructor: { count: 1, lastUsedAt: 3000 } });
    assert.equal(usageLabel(u, 'release-notes'), 'used 2×');
    assert.equal(usageLabel(u, 'changelog'), undefined);
  });
});
