// The pattern machinery of scrub-combine.ts. The static rules are split into a few patterns by
// anchor ("lanes") and the registered values have a small pattern of their own, all walked in step;
// they must find exactly what ONE pattern finds — with the values' alternatives first — on the generated secrets
// corpus, with registered values that overlap the static rules' matches, each other and the
// placeholder, and with a placeholder that a static rule matches inside (the keep alternative).
import * as assert from 'node:assert/strict';
import { combine, lookbehindBody, numberGroups, runCombined } from '../../../src/core/guard/scrub-combine';
import { combineLanes } from '../../../src/core/guard/scrub-lanes';
import type { ScrubRule } from '../../../src/core/guard/scrub-rule';
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

describe('guards of one anchor tried behind one lookbehind', function () {
  this.timeout(120_000);

  it('takes the body of a single lookbehind only', () => {
    assert.equal(lookbehindBody(String.raw`(?<=(?<![a-z])ab[)(]\)\.)`), String.raw`(?<![a-z])ab[)(]\)\.`);
    assert.equal(lookbehindBody('(?<=a)(?<=b)'), undefined);
    assert.equal(lookbehindBody('(?=a)'), undefined);
    assert.equal(lookbehindBody('(?<=a)b'), undefined);
  });

  it('each rule still needs its own guard: a match behind the other guard is not taken', () => {
    const rules: ScrubRule[] = [
      { name: 'x', anchor: '\\.', guard: '(?<=x\\.)', source: '[a-z]{3}', render: (_g, p) => `X${p}` },
      { name: 'y', anchor: '\\.', guard: '(?<=y\\.)', source: '[a-z]{3}', render: (_g, p) => `Y${p}` },
      { name: 'z', anchor: '\\.', source: '[0-9]{3}' },
    ];
    const c = combine(rules);
    // The two guards are tried once, together, before either rule.
    assert.match(c.re.source, /^\\.\(\?:\(\?<=\(\?:x\\.\)\|\(\?:y\\.\)\)/);
    assert.equal(runCombined([c], 'x.abc y.abc w.abc z.123', '#'), 'x.X# y.Y# w.abc z.#');
  });

  it('finds what the same rules find with each guard written into its rule, on the generated corpus', () => {
    const corpus = buildCorpus({ seed: 616, cleanBytes: 300_000 });
    const docs: string[] = [];
    for (let i = 0; i < corpus.lines.length; i += 400) docs.push(corpus.lines.slice(i, i + 400).join('\n'));
    // Dots after long runs and vendor prefixes, where the `.` group's guards hold or nearly hold.
    docs.push('MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWsAbCd abcdefghijklmn.atlasv1.' + 'Ab9'.repeat(25) +
      ' hvs.' + 'Qx7'.repeat(32) + ' patAbCdEfGhIjKlMn.' + 'ab12'.repeat(16) + ' abcdefghijklm.x ya29.short');
    const rules = staticRules('[REDACTED]');
    const inline = rules.map((r) => (r.guard === undefined ? r : { ...r, guard: undefined, source: r.guard + r.source }));
    const merged = combineLanes(rules);
    const plain = combineLanes(inline);
    let changed = 0;
    for (const doc of docs) {
      const expected = runCombined(plain, doc, '[REDACTED]');
      assert.equal(runCombined(merged, doc, '[REDACTED]'), expected);
      if (expected !== doc) changed += 1;
    }
    assert.ok(changed >= docs.length - 1, `${changed} documents changed`);
  });
});
