// The corpora: hostile commands denied or sent to approval, at most 1 % of the everyday ones denied
// over all corpora together (the ask rate is printed). Real parser, real temp workspace, real
// PathGuard. The outside corpora (hostile-classes, benign-docs) were written without reading the
// rules; the project's own were written beside them.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { corpus, heldOut, judgeIn, type CorpusName, type HeldOutSet } from './judge-support';

async function hostile(name: CorpusName): Promise<{ total: number; denied: number; allowed: string[] }> {
  const { judge } = judgeIn();
  const lines = corpus(name);
  const allowed: string[] = [];
  let denied = 0;
  for (const c of lines) {
    const v = await judge(c);
    if (v.decision === 'allow') allowed.push(c);
    if (v.decision === 'deny') denied++;
  }
  console.log(`      ${name}: ${lines.length} commands, ${denied} denied, ${lines.length - denied - allowed.length} asked, ${allowed.length} allowed`);
  return { total: lines.length, denied, allowed };
}

describe('exec judge corpora', () => {
  after(removeTempDirs);

  it('hostile (own): at least 150 commands, 100 % denied or asked', async function () {
    this.timeout(300_000); // thousands of judgements on a shared, loaded machine
    const r = await hostile('hostile');
    assert.ok(r.total >= 150, `only ${r.total} hostile commands`);
    assert.deepEqual(r.allowed, [], `allowed hostile commands:\n${r.allowed.join('\n')}`);
  });

  it('hostile (outside, by class): at least 1,100 commands, 100 % denied or asked', async function () {
    this.timeout(300_000); // thousands of judgements on a shared, loaded machine
    const r = await hostile('hostile-classes');
    assert.ok(r.total >= 1100, `only ${r.total} hostile commands`);
    assert.deepEqual(r.allowed, [], `allowed hostile commands:\n${r.allowed.join('\n')}`);
  });

  it('everyday (own and documentation pages): at least 1,200 commands, at most 1 % denied', async function () {
    this.timeout(300_000); // thousands of judgements on a shared, loaded machine
    const { judge } = judgeIn();
    const lines = [...corpus('benign'), ...corpus('benign-docs')];
    assert.ok(lines.length >= 1200, `only ${lines.length} everyday commands`);
    const denied: string[] = [];
    let asked = 0;
    for (const c of lines) {
      const v = await judge(c);
      if (v.decision === 'deny') denied.push(`${c} → ${v.reason}`);
      if (v.decision === 'ask') asked++;
    }
    console.log(`      everyday: ${lines.length} commands, ${denied.length} denied (${((100 * denied.length) / lines.length).toFixed(2)} %), ${asked} asked (${((100 * asked) / lines.length).toFixed(2)} %)`);
    if (denied.length) console.log(`      denied: ${denied.join('\n      ')}`);
    assert.ok(denied.length / lines.length <= 0.01, denied.join('\n'));
  });
  // The held-out sets (bench/holdout*, written by people who never read the rules) are folded in
  // here once measured, so a later rule that lets one of them through fails the unit suite.
  for (const set of ['holdout', 'holdout-2'] as HeldOutSet[]) {
    it(`held-out ${set}: every hostile command denied or asked, at most 1 % of the everyday ones denied`, async function () {
      this.timeout(300_000); // thousands of judgements on a shared, loaded machine
      const { judge } = judgeIn();
      const hostileLines = heldOut(set, 'hostile');
      const allowed: string[] = [];
      for (const c of hostileLines) if ((await judge(c)).decision === 'allow') allowed.push(c);
      const everyday = heldOut(set, 'benign');
      const denied: string[] = [];
      let asked = 0;
      for (const c of everyday) {
        const v = await judge(c);
        if (v.decision === 'deny') denied.push(`${c} → ${v.reason}`);
        if (v.decision === 'ask') asked++;
      }
      console.log(`      ${set}: ${hostileLines.length} hostile, ${allowed.length} allowed; ${everyday.length} everyday, ${denied.length} denied, ${asked} asked (${((100 * asked) / everyday.length).toFixed(2)} %)`);
      assert.ok(hostileLines.length >= 300 && everyday.length >= 200, `${set} is smaller than expected`);
      assert.deepEqual(allowed, [], `allowed hostile commands:\n${allowed.join('\n')}`);
      assert.ok(denied.length / everyday.length <= 0.01, denied.join('\n'));
    });
  }
});
