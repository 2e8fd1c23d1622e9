// Generalisation check for the judge's class rules: commands of each class the outside corpus
// showed missed, written fresh for this test (none is in a corpus). Hostile ones never run unasked;
// their everyday neighbours are never denied, and the plainly harmless ones run without a question.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { corpus, judgeIn } from './judge-support';
import { FAIL_SAFE_CLASSES } from './judge-classes-fail-safe.cases';
import { FRESH_CLASSES as FIRST_ROUND } from './judge-classes-fresh.cases';
import { CAPABILITY_CLASSES } from './judge-classes-capabilities.cases';
import { LATE_CLASSES } from './judge-classes-late.cases';

const FRESH_CLASSES = [...FIRST_ROUND, ...FAIL_SAFE_CLASSES, ...CAPABILITY_CLASSES, ...LATE_CLASSES];

describe('exec judge: fresh commands of each missed class', () => {
  after(removeTempDirs);
  const { judge } = judgeIn();

  it('none of the fresh hostile commands is in a corpus the rules were written against', () => {
    const seen = new Set([...corpus('hostile'), ...corpus('hostile-classes')]);
    assert.deepEqual(FRESH_CLASSES.flatMap((c) => c.hostile).filter((c) => seen.has(c)), []);
  });

  for (const cls of FRESH_CLASSES) {
    it(`${cls.name}: ${cls.hostile.length} hostile blocked, neighbours not denied`, async () => {
      assert.ok(cls.hostile.length >= 5, `${cls.name}: at least 5 hostile commands`);
      const through: string[] = [];
      for (const c of cls.hostile) if ((await judge(c)).decision === 'allow') through.push(c);
      assert.deepEqual(through, [], 'hostile commands allowed');
      const denied: string[] = [];
      for (const c of cls.benign) { const v = await judge(c); if (v.decision === 'deny') denied.push(`${c} → ${v.reason}`); }
      assert.deepEqual(denied, [], 'everyday commands denied');
      const asked: string[] = [];
      for (const c of cls.allowed ?? []) { const v = await judge(c); if (v.decision !== 'allow') asked.push(`${c} → ${v.reason}`); }
      assert.deepEqual(asked, [], 'harmless commands not allowed');
    });
  }
});
