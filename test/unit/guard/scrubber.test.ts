import * as assert from 'node:assert/strict';
import { MIN_REGISTERED_LENGTH, prepareScrubber, Scrubber, scrubberPrepared } from '../../../src/core/guard/scrubber';

describe('Scrubber', () => {
  describe('placeholder', () => {
    it('defaults to [REDACTED]', () => {
      assert.equal(new Scrubber().scrub('api_key=abc123def456'), 'api_key=[REDACTED]');
    });

    it('can be chosen, and the labels stay around it', () => {
      const s = new Scrubber({ placeholder: '***' });
      assert.equal(s.scrub('postgres://u:secretpw@h/db'), 'postgres://u:***@h/db');
      assert.equal(s.scrub('password="hunter2hunter2"'), 'password="***"');
    });

    it('leaves empty text and text without secrets untouched', () => {
      const s = new Scrubber();
      assert.equal(s.scrub(''), '');
      const text = 'nothing to see here: just a sentence, a path /usr/bin and 42.';
      assert.equal(s.scrub(text), text);
    });
  });

  describe('registered values', () => {
    it('redacts an exact value anywhere, even inside other text', () => {
      const s = new Scrubber();
      s.register('Zq7-internal-creds');
      assert.equal(s.scrub('log: connecting with Zq7-internal-creds now'), 'log: connecting with [REDACTED] now');
      assert.equal(s.scrub('prefixZq7-internal-credssuffix'), 'prefix[REDACTED]suffix');
      assert.equal(s.registeredCount, 1);
    });

    it(`ignores values shorter than ${MIN_REGISTERED_LENGTH} characters`, () => {
      const s = new Scrubber();
      s.register('abc');
      s.register('12345');
      s.register('');
      assert.equal(s.registeredCount, 0);
      assert.equal(s.scrub('abc 12345'), 'abc 12345');
      s.register('123456');
      assert.equal(s.registeredCount, 1);
      assert.equal(s.scrub('pin 123456'), 'pin [REDACTED]');
    });

    it('counts a value once and forgets it on unregister', () => {
      const s = new Scrubber();
      s.register('value-one-1');
      s.register('value-one-1');
      s.register('value-two-2');
      assert.equal(s.registeredCount, 2);
      s.unregister('value-one-1');
      s.unregister('never-registered');
      assert.equal(s.registeredCount, 1);
      assert.equal(s.scrub('value-one-1 value-two-2'), 'value-one-1 [REDACTED]');
      s.unregister('value-two-2');
      assert.equal(s.registeredCount, 0);
      assert.equal(s.scrub('value-one-1 value-two-2'), 'value-one-1 value-two-2');
    });

    it('escapes regex syntax in values', () => {
      const s = new Scrubber();
      const weird = 'a.b*c+(d)|[e]^$\\f{2}?/g';
      s.register(weird);
      assert.equal(s.scrub(`x ${weird} y`), 'x [REDACTED] y');
      assert.equal(s.scrub('x aXb*c+(d)|[e]^$\\f{2}?/g y'), 'x aXb*c+(d)|[e]^$\\f{2}?/g y');
      assert.equal(s.scrub('abbbbc'), 'abbbbc');
    });

    it('takes group and backreference syntax in values literally (the combined pattern numbers its groups)', () => {
      const s = new Scrubber();
      for (const v of ['(?<gen>x)\\k<gen>', '(b)\\1(c)', '[(?<a>]']) s.register(v);
      assert.equal(s.scrub('1 (?<gen>x)\\k<gen> 2 (b)\\1(c) 3 [(?<a>] 4'), '1 [REDACTED] 2 [REDACTED] 3 [REDACTED] 4');
      assert.equal(s.scrub('xx bb (b)(c) password=Qw3rtyUi0pAs'), 'xx bb (b)(c) password=[REDACTED]');
    });

    it('prefers the longest value when one is a prefix of another', () => {
      const s = new Scrubber();
      s.register('tok-abcdef');
      s.register('tok-abcdef-extended-part');
      assert.equal(s.scrub('use tok-abcdef-extended-part now'), 'use [REDACTED] now');
      assert.equal(s.scrub('use tok-abcdef-other'), 'use [REDACTED]-other');
    });

    it('handles values with newlines and non-ASCII', () => {
      const s = new Scrubber();
      s.register('line1\nline2-secret');
      s.register('pässwörd-ü');
      assert.equal(s.scrub('a line1\nline2-secret b pässwörd-ü c'), 'a [REDACTED] b [REDACTED] c');
    });

    it('stays idempotent when a value occurs inside the placeholder', () => {
      const s = new Scrubber();
      s.register('REDACTED');
      const once = s.scrub('x REDACTED y');
      assert.equal(once, 'x [REDACTED] y');
      assert.equal(s.scrub(once), once);
    });

    it('works together with the static rules in the same pass', () => {
      const s = new Scrubber();
      s.register('Corp-Vault-Token-77');
      assert.equal(s.scrub('X_HEADER=Corp-Vault-Token-77 ghp_' + 'a1B2c3D4e5F6g7H8i9'.repeat(2)), 'X_HEADER=[REDACTED] ghp_[REDACTED]');
      assert.equal(s.scrub('password=Corp-Vault-Token-77'), 'password=[REDACTED]');
    });

    it('handles many registered values', () => {
      const s = new Scrubber();
      const values = Array.from({ length: 300 }, (_, i) => `secret-value-${i}-${(i * 7919).toString(36)}`);
      for (const v of values) s.register(v);
      assert.equal(s.registeredCount, 300);
      const out = s.scrub(values.join(' | '));
      for (const v of values) assert.ok(!out.includes(v), v);
      // 300 values do not make a long text a blow-up (the test's timeout is the bound).
      assert.equal(s.scrub('x'.repeat(200_000)), 'x'.repeat(200_000));
    });
  });

  it('prepareScrubber builds the pattern at the next turn of the event loop, not on the caller\'s path, and changes no output', async () => {
    // A placeholder of its own: no other test has built its pattern.
    const placeholder = '[PREPARED]';
    assert.equal(scrubberPrepared(placeholder), false);
    prepareScrubber(placeholder);
    assert.equal(scrubberPrepared(placeholder), false, 'nothing is compiled before the call returns');
    // Immediates run in the order they were queued: this one runs after prepareScrubber's.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(scrubberPrepared(placeholder), true);
    const text = 'export DB_PASSWORD=Qw3rtyUi0pAs9\nplain line: nothing here\nurl postgres://app:Zx8cVb7nM6@db/prod';
    const out = new Scrubber({ placeholder }).scrub(text);
    assert.equal(out, new Scrubber().scrub(text).split('[REDACTED]').join(placeholder));
    assert.equal(out, `export DB_PASSWORD=${placeholder}\nplain line: nothing here\nurl postgres://app:${placeholder}@db/prod`);
  });

  it('offers no way to write anything: only scrub, scrubFrom (part of a text), register, unregister and registeredCount', () => {
    const own = Object.getOwnPropertyNames(Scrubber.prototype).filter((n) => n !== 'constructor' && n !== 'rebuild').sort();
    assert.deepEqual(own, ['register', 'registeredCount', 'scrub', 'scrubFrom', 'unregister']);
  });
});
