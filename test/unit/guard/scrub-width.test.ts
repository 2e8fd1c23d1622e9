// V8 holds a string either one byte a character or, when it has a character beyond Latin-1, two
// ("wide"), and compiles a pattern once per width; the scrubber compiles the width of the text it is
// given first (scrubber.ts). What it finds must not depend on that: the same characters held in
// either width, scrubbed first in either width, give the same output, and the placeholder check
// made on the first scrub (a rule matching inside the placeholder keeps it as it is) holds when that
// first text is wide.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { buildCorpus } from '../../support/secrets/corpus';

/** The same characters held two bytes a character (a piece cut from a wide string stays wide). */
const wide = (s: string): string => `\u2014${s}`.slice(1);

describe('Scrubber on narrow and wide strings', function () {
  this.timeout(120_000);
  const corpus = buildCorpus({ seed: 909, cleanBytes: 120_000 });
  const docs: string[] = [];
  for (let i = 0; i < corpus.lines.length; i += 300) docs.push(corpus.lines.slice(i, i + 300).join('\n'));
  // Short texts too: they take the path that compiles before scrubbing (under 1,000 characters).
  const short = corpus.lines.filter((l) => l.length > 20).slice(0, 400);

  for (const first of ['narrow', 'wide'] as const) {
    it(`the same output for the same characters in either width, the first scrub ${first}`, () => {
      // A placeholder of its own: its pattern is built by this test's first scrub.
      const placeholder = `[HIDDEN-${first}]`;
      const s = new Scrubber({ placeholder });
      const reference = new Scrubber();
      const texts = [...short, ...docs];
      let changed = 0;
      for (const [i, text] of texts.entries()) {
        const order = (i === 0) === (first === 'wide') ? [wide(text), text] : [text, wide(text)];
        const [a, b] = order.map((t) => s.scrub(t));
        assert.equal(a, b);
        assert.equal(a.split(placeholder).join('[REDACTED]'), reference.scrub(text));
        if (a !== text) changed += 1;
      }
      assert.ok(changed >= docs.length, `${changed} texts changed`);
    });
  }

  it('keeps a placeholder that a static rule matches inside when the first text is wide', () => {
    const s = new Scrubber({ placeholder: 'token=Wq7mN4xK2pLs' });
    const once = s.scrub(wide('café — password=Qw3rtyUi0pAs and token=Wq7mN4xK2pLs'));
    assert.equal(once, 'café — password=token=Wq7mN4xK2pLs and token=Wq7mN4xK2pLs');
    assert.equal(s.scrub(once), once);
    assert.equal(s.scrub('password=Qw3rtyUi0pAs'), 'password=token=Wq7mN4xK2pLs');
  });
});
