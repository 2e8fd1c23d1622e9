import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { CLEAN_CASES } from './scrub-corpus-clean';
import { SECRET_CASES } from './scrub-corpus-secrets';

/** Fragments that start, label or end secrets, glued at random by the idempotence property test. */
const SOUP = ['password', 'token', 'API_KEY', 'DB_PASSWORD', 'Authorization', 'Bearer', 'Basic', 'secret', 'x-api-key', '=',
  ':', ': ', ' = ', '"', "'", '`', '\\"', '//', '://', '@', '?', '&', 'token=', 'sk-', 'ghp_', 'AKIA', 'eyJ', '.',
  '-----BEGIN PRIVATE KEY-----', '-----END PRIVATE KEY-----', '\n', ' ', 'abc123', 'ABCDEFGHIJKLMNOP', 'hunter2hunter2',
  '0123456789abcdef', 'https', 'user', 'host', '/', '$', '{', '}', '(', ')', '[REDACTED]', 'AccountKey=',
  'hooks.slack.com/services/', 'xoxb-', 'SG.', 'AIza', 'ya29.', '_live_', 'sk_', 'glpat-', 'npm_', 'hf_', 'a'.repeat(20),
  'Zz9'.repeat(8), '=='];

describe('Scrubber on realistic tool output', () => {
  const scrubber = new Scrubber();

  describe('planted secrets: zero leaks, labels kept', () => {
    for (const c of SECRET_CASES) {
      it(c.name, () => {
        const out = scrubber.scrub(c.text);
        for (const secret of c.secrets) {
          assert.ok(c.text.includes(secret), `test bug: ${secret} not planted`);
          assert.ok(!out.includes(secret), `leaked ${JSON.stringify(secret)} in:\n${out}`);
        }
        for (const label of c.kept) assert.ok(out.includes(label), `lost ${JSON.stringify(label)} in:\n${out}`);
        assert.ok(out.includes('[REDACTED]'));
      });
    }

    it('covers at least twelve kinds of secret in at least ten kinds of output', () => {
      const planted = SECRET_CASES.reduce((n, c) => n + c.secrets.length, 0);
      assert.ok(SECRET_CASES.length >= 10, `${SECRET_CASES.length} cases`);
      assert.ok(planted >= 40, `${planted} secrets`);
    });

    it('also scrubs all of them concatenated into one output', () => {
      const all = SECRET_CASES.map((c) => c.text).join('\n');
      const out = scrubber.scrub(all);
      for (const c of SECRET_CASES) for (const secret of c.secrets) assert.ok(!out.includes(secret), `leaked ${secret}`);
    });
  });

  describe('clean text: byte-identical output', () => {
    for (const c of CLEAN_CASES) {
      it(c.name, () => {
        const out = scrubber.scrub(c.text);
        if (out !== c.text) {
          const a = c.text.split('\n');
          const b = out.split('\n');
          const i = a.findIndex((line, k) => line !== b[k]);
          assert.fail(`changed line ${i + 1}:\n  in:  ${a[i]}\n  out: ${b[i]}`);
        }
      });
    }
  });

  describe('idempotence', () => {
    it('holds on 12,000 random mixes of keywords, separators, prefixes and quotes', () => {
      let seed = 7;
      const rnd = (n: number): number => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      for (const placeholder of ['[REDACTED]', '***', '<secret>', 'X']) {
        const s = new Scrubber({ placeholder });
        for (let i = 0; i < 3000; i++) {
          let text = '';
          for (let j = 1 + rnd(12); j > 0; j--) text += SOUP[rnd(SOUP.length)];
          const once = s.scrub(text);
          assert.equal(s.scrub(once), once, `input ${JSON.stringify(text)}`);
        }
      }
    });

    const inputs = [...SECRET_CASES.map((c) => c.text), ...CLEAN_CASES.map((c) => c.text)];
    for (const placeholder of ['[REDACTED]', '***', '<secret>', 'REDACTED']) {
      it(`scrubbing twice equals scrubbing once (placeholder ${placeholder})`, () => {
        const s = new Scrubber({ placeholder });
        for (const text of inputs) {
          const once = s.scrub(text);
          assert.equal(s.scrub(once), once);
        }
      });
    }
  });
});
