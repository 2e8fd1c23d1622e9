// The pattern machinery of scrub-combine.ts. The static rules are split into a few patterns by
// anchor ("lanes") and the registered values have a small pattern of their own, all walked in step;
// they must find exactly what ONE pattern finds — with the values' alternatives first — on the generated secrets
// corpus, with registered values that overlap the static rules' matches, each other and the
// placeholder, and with a placeholder that a static rule matches inside (the keep alternative).
import * as assert from 'node:assert/strict';
import { combine, combineLanes, numberGroups, runCombined } from '../../../src/core/guard/scrub-combine';
import { staticRules } from '../../../src/core/guard/scrub-patterns';
import { Scrubber, valuesRules } from '../../../src/core/guard/scrubber';
import { buildCorpus } from '../../support/secrets/corpus';

describe('numberGroups', () => {
  it('numbers named and plain groups, rewrites backreferences, and leaves classes, escapes and lookarounds alone', () => {
    const { source, numbers } = numberGroups(String.raw`(?<a>x)(y)(?:z)(?<=z)(?<b>[(?<c>)\]])\k<a>(?!q)\(?<d>\\k<b>`);
    assert.equal(source, String.raw`(x)(y)(?:z)(?<=z)([(?<c>)\]])(?:\1)(?!q)\(?<d>\\k<b>`);
    assert.deepEqual([...numbers], [['a', 1], ['b', 3]]);
    const m = new RegExp(source).exec('xyz]x(<d>\\k<b>');
    assert.deepEqual(m && [m[1], m[2], m[3]], ['x', 'y', ']']);
  });

  it('refuses a backreference to a group that does not exist', () => {
    assert.throws(() => numberGroups(String.raw`(?<a>x)\k<b>`), /unknown group b/);
  });
});

describe('registered values walked in step with the static rules', function () {
  this.timeout(120_000);
  const corpus = buildCorpus({ seed: 515, cleanBytes: 200_000 });
  const docs: string[] = [];
  for (let i = 0; i < corpus.lines.length; i += 400) docs.push(corpus.lines.slice(i, i + 400).join('\n'));
  const planted = [...corpus.planted.values()].map((p) => p.secret);
  // Values that start inside static matches, contain one another, sit inside the placeholder, or
  // are ordinary words that occur everywhere in the clean output.
  const registered = [planted[3], planted[40].slice(2), planted[41], planted[41].slice(0, 9), 'REDACTED', 'ACTED] ',
    'password', 'request', 'Zx9qL2pvB7wQ', corpus.lines[7].slice(4, 16)].filter((v) => v.length >= 6);

  for (const placeholder of ['[REDACTED]', 'token=Zx9qL2pvB7wQ']) {
    for (const values of [registered, registered.slice(0, 3), ['REDACTED']]) {
      it(`placeholder ${JSON.stringify(placeholder)}, ${values.length} registered: the same output as one pattern`, () => {
        const statics = combineLanes(staticRules(placeholder));
        const hits = statics.some((c) => c.re.test(placeholder));
        const keep = hits || values.some((v) => placeholder.includes(v));
        const one = combine([...valuesRules(placeholder, values, keep), ...staticRules(placeholder)]);
        const inStep = combine(valuesRules(placeholder, values, keep));
        let changed = 0;
        for (const doc of docs) {
          // Twice: the second round scrubs text full of placeholders.
          for (const text of [doc, runCombined([one], doc, placeholder)]) {
            const expected = runCombined([one], text, placeholder);
            assert.equal(runCombined([inStep, ...statics], text, placeholder), expected);
            assert.equal(runCombined(statics, text, placeholder), runCombined([combine(staticRules(placeholder))], text, placeholder));
            if (expected !== text) changed += 1;
          }
        }
        assert.ok(changed >= docs.length, `${changed} documents changed`);
      });
    }
  }

  it('a placeholder that a static rule matches inside stays as it is when scrubbed again', () => {
    const s = new Scrubber({ placeholder: 'token=Zx9qL2pvB7wQ' });
    const once = s.scrub('password=Qw3rtyUi0pAs and token=Zx9qL2pvB7wQ');
    assert.equal(once, 'password=token=Zx9qL2pvB7wQ and token=Zx9qL2pvB7wQ');
    assert.equal(s.scrub(once), once);
  });

  it('a value registered after the first scrub is redacted by the next one, and forgotten after unregister', () => {
    const s = new Scrubber();
    assert.equal(s.scrub('id Kq8-late-value here'), 'id Kq8-late-value here');
    s.register('Kq8-late-value');
    assert.equal(s.scrub('id Kq8-late-value here'), 'id [REDACTED] here');
    s.unregister('Kq8-late-value');
    assert.equal(s.scrub('id Kq8-late-value here'), 'id Kq8-late-value here');
  });
});
