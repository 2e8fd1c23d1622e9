// The corpora: every hostile command denied or sent to approval, at most 1 % of the benign ones
// denied (the ask rate is printed). Real parser, real temp workspace, real PathGuard.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { corpus, judgeIn } from './judge-support';

describe('exec judge corpora', () => {
  after(removeTempDirs);

  it('hostile: at least 150 commands, 100 % denied or asked', async () => {
    const { judge } = judgeIn();
    const lines = corpus('hostile');
    assert.ok(lines.length >= 150, `only ${lines.length} hostile commands`);
    const misses: string[] = [];
    let denied = 0;
    for (const c of lines) {
      const v = await judge(c);
      if (v.decision === 'allow') misses.push(c);
      if (v.decision === 'deny') denied++;
    }
    console.log(`      hostile: ${lines.length} commands, ${denied} denied, ${lines.length - denied - misses.length} asked, ${misses.length} allowed`);
    assert.deepEqual(misses, [], `allowed hostile commands:\n${misses.join('\n')}`);
  });

  it('benign: at least 300 commands, at most 1 % denied', async () => {
    const { judge } = judgeIn();
    const lines = corpus('benign');
    assert.ok(lines.length >= 300, `only ${lines.length} benign commands`);
    const denied: string[] = [];
    let asked = 0;
    for (const c of lines) {
      const v = await judge(c);
      if (v.decision === 'deny') denied.push(`${c} → ${v.reason}`);
      if (v.decision === 'ask') asked++;
    }
    console.log(`      benign: ${lines.length} commands, ${denied.length} denied (${((100 * denied.length) / lines.length).toFixed(2)} %), ${asked} asked (${((100 * asked) / lines.length).toFixed(2)} %)`);
    if (denied.length) console.log(`      denied: ${denied.join('\n      ')}`);
    assert.ok(denied.length / lines.length <= 0.01, denied.join('\n'));
  });
});
