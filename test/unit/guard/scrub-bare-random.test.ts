// Secrets with nothing in front of them (scrub-bare-random.ts, scrub-bare-tokens.ts): random tokens
// standing alone, Mailchimp keys, and vendor tokens whose documented shapes were too narrow
// (percent-encoded webhook URLs, base64url bodies, Slack configuration tokens). Hostile: each goes
// wherever a value stands. Benign: digests, ids, identifiers, encoded text, public keys and
// pieces of paths and URLs of the same outline stay.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { lcgString } from '../../support/rng';

const s = new Scrubber();
const same = (text: string): void => assert.equal(s.scrub(text), text, `changed: ${text}`);
const becomes = (text: string, expected: string): void => assert.equal(s.scrub(text), expected, `for: ${text}`);

const random = lcgString;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64U = `${ALNUM}_-`;
const HEX = '0123456789abcdef';
const an = (n: number, seed: number): string => random(n, ALNUM, seed);

/** The places a bare value stands in tool output. */
const PLACES: [string, string][] = [
  ['2026-11-10T00:34:06.142Z ERROR request failed: 401 for credential ', ''],
  ['Use this one: ', ' (rotated last week)'],
  ['["', '"]'],
  ['client.login("', '")'],
  ["const key = '", "';"],
  ['the key is ', '.'],
  ['<code>', '</code>'],
  ['| prod | ', ' |'],
];

describe('Scrubber random tokens standing alone', () => {
  it('a random token goes wherever a value stands', () => {
    const tokens = [an(32, 1), an(40, 2), an(84, 3), random(64, B64U, 4),
      // Three dotted parts (`<id>.<time>.<hmac>`), the first not decoding to anything known.
      `N${an(25, 5)}.${random(6, B64U, 6)}.${random(38, B64U, 7)}`,
      `${an(30, 8)}.${an(30, 9)}`];
    for (const token of tokens) {
      for (const [before, after] of PLACES) becomes(`${before}${token}${after}`, `${before}[REDACTED]${after}`);
    }
  });

  it('base64 padding goes with the token; the text around it stays', () => {
    const token = an(43, 11);
    becomes(`{"k": "${token}="}`, '{"k": "[REDACTED]"}');
    becomes(`${token}==\nnext line`, '[REDACTED]\nnext line');
    becomes(`a ${token}, b ${an(36, 12)}; c`, 'a [REDACTED], b [REDACTED]; c');
  });

  it('where a vendor rule matches inside the run, the rule wins and keeps the prefix', () => {
    becomes(`key: "AIza${random(35, B64U, 13)}"`, 'key: "AIza[REDACTED]"');
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${random(43, B64U, 14)}`;
    becomes(`got ${jwt} back`, 'got eyJ[REDACTED] back');
    becomes(`use ghp_${an(36, 15)} here`, 'use ghp_[REDACTED] here');
  });

  it('a token of the shortest length is found at every alignment, beside words, runs and other tokens', () => {
    // The scan looks at one position in 32 and measures the run of token characters there: a token
    // must be found wherever it falls against those positions, after a long run that was refused,
    // after a word that ends just before it, and as the first or last thing in the text.
    const token = an(32, 50);
    const digest = random(40, HEX, 51);
    for (let pad = 0; pad <= 40; pad++) {
      const word = 'w'.repeat(pad);
      becomes(`${word} ${token}`, `${word} [REDACTED]`);
      becomes(`${token} ${word}`, `[REDACTED] ${word}`);
      becomes(`${digest}${word ? ` ${word}` : ''} ${token} end`, `${digest}${word ? ` ${word}` : ''} [REDACTED] end`);
      becomes(`a.b ${word}, ${token}, ${an(33, 52)}`, `a.b ${word}, [REDACTED], [REDACTED]`);
    }
  });

  it('the start tests read the token in place: a prefix counts only inside the token', () => {
    // Refused by their start, in any case, wherever they stand.
    for (const prefix of ['sha512-', 'SHA256_', 'md5-', 'pk_live_', 'pk_test_', 'phc_', 'Build_', 'task-', 'ABC.']) {
      same(`value ${prefix}${an(40, 53)} here`);
    }
    // A full stop after the token ends a sentence: it is no separator of a word prefix, and the
    // token before it goes.
    const token = `Ab${an(38, 54)}`;
    becomes(`the key is ${token}.`, 'the key is [REDACTED].');
    becomes(`the key is ${token}... next`, 'the key is [REDACTED]... next');
  });

  it('Mailchimp keys (32 hex, -us and the data centre) go bare', () => {
    for (const key of [`${random(32, HEX, 16)}-us20`, `${random(32, HEX, 17)}-us4`]) {
      for (const [before, after] of PLACES) becomes(`${before}${key}${after}`, `${before}[REDACTED]${after}`);
    }
    // Inside a longer run (a file name, a dotted path): the key part still goes.
    const inRun = `${random(32, HEX, 55)}-us7`;
    becomes(`backup_${inRun} done`, `backup_[REDACTED] done`);
    // Not a key: no data centre, a longer suffix, a digest alone.
    same(`${random(32, HEX, 18)}-usage`);
    same(`${random(32, HEX, 19)}-us123`);
    same(`commit ${random(40, HEX, 20)}`);
  });

  it('digests, ids, identifiers and encoded text of the same length stay', () => {
    const texts = [
      `commit ${random(40, HEX, 21)}`,
      `image@sha256:${random(64, HEX, 22)}`,
      'id 123e4567-e89b-12d3-a456-426614174000 and 9F1C2A3B-4D5E-6F70-8192-A3B4C5D6E7F8',
      `"integrity": "sha512-${an(86, 23)}=="`,
      `integrity sha1-${an(27, 24)}=`,
      `<img src="data:image/png;base64,${an(80, 25)}">`,
      // Base64 of plain text decodes to text, not to key bytes.
      '"payload": "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3QgbWVzc2FnZSBudW1iZXIgMjE="',
      'publishableKey: "pk_test_TYooMQauvdEDq54NiTphI7jx"',
      // Identifiers and words: long lower-case runs.
      'getUserProfileByIdAndOrganization2024Version',
      'const result = await fetchOrganizationMembersWithRoles2FA(orgId);',
      'com.example.payments.internal.CheckoutServiceImpl2Test',
      // One or two kinds of character only.
      'ABCDEFGHIJ1234567890KLMNOPQRSTUVWX',
      random(40, 'abcdefghijklmnopqrstuvwxyz0123456789', 26),
      random(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 27),
      // Too short, too repetitive.
      an(31, 28),
      `x ${'aB3'.repeat(14)} y`,
      // A word in front: an id under a name, or a vendor prefix in a longer word.
      `task-${an(30, 29)}`, `my_hf_${an(34, 30)}`, `Build_${an(34, 31)}`,
      // Pieces of a path, a URL, a name=value pair, a base64 blob.
      `/var/cache/${an(40, 32)}/index`,
      `https://cdn.example.com/assets/${an(40, 33)}`,
      `GET /items?cursor=${an(40, 34)}&page=2`,
      `blob ${an(40, 35)}+${an(40, 36)}/${an(10, 37)}`,
      `x:${an(40, 38)}`,
      // Public keys: OpenSSH, and a PEM block's lines.
      `ssh-ed25519 ${an(68, 39)} dev@laptop`,
      `host.example ecdsa-sha2-nistp256 ${an(140, 40)}`,
      `-----BEGIN CERTIFICATE-----\n${an(64, 41)}\n${an(64, 42)}\n${an(20, 43)}==\n-----END CERTIFICATE-----`,
      `-----BEGIN PUBLIC KEY-----\n${an(64, 44)}\n-----END PUBLIC KEY-----`,
      // Values whose label says they are ids or digests.
      `x-amz-id-2: ${an(64, 45)}`, `X-Request-ID: ${an(40, 46)}`, `"requestId": "${an(40, 47)}"`, `ETag "${an(40, 48)}"`,
      `commit ${an(40, 49)}`,
    ];
    for (const text of texts) same(text);
  });
});

describe('Scrubber vendor shapes found bare', () => {
  it('percent-encoded webhook URLs (a URL inside a query parameter) go', () => {
    const cases: [string, string][] = [
      [`hooks.slack.com%2Fservices%2FT${an(10, 50)}%2FB${an(10, 51)}%2F${an(24, 52)}`, 'hooks.slack.com%2Fservices%2F'],
      [`discord.com%2Fapi%2Fwebhooks%2F${random(19, '0123456789', 53)}%2F${random(68, B64U, 54)}`, 'discord.com%2Fapi%2Fwebhooks%2F'],
      [`hooks.zapier.com%2fhooks%2fcatch%2f${random(8, '0123456789', 55)}%2f${an(7, 56)}%2f`, 'hooks.zapier.com%2fhooks%2fcatch%2f'],
      [`acme.webhook.office.com%2Fwebhookb2%2Fde481d2a-d873-40ba-a341-358ebafdb4b8%40c202a39d-1111-2222-3333-444455556666`,
        'acme.webhook.office.com%2Fwebhookb2%2F'],
    ];
    for (const [url, kept] of cases) {
      becomes(`GET https://api.example.com/v1/items?page=2&hook=https%3A%2F%2F${url} 200 OK`,
        `GET https://api.example.com/v1/items?page=2&hook=https%3A%2F%2F${kept}[REDACTED] 200 OK`);
    }
    // The encoded host alone, and another host's encoded path, stay.
    same('see https%3A%2F%2Fhooks.slack.com%2F for docs');
    same('next=https%3A%2F%2Fexample.com%2Fservices%2Fbilling');
  });

  it('documented bodies with base64url characters, shorter Twitter bearer tokens, Slack configuration tokens', () => {
    becomes(`for credential dG9rOj${random(48, B64U, 60)}=`, 'for credential dG9rOj[REDACTED]');
    becomes(`token pat.${random(22, B64U, 61)}.${random(24, HEX, 62)}.${an(20, 63)} end`, 'token pat.[REDACTED] end');
    becomes(`Use this one: live_${random(40, B64U, 64)} (rotated)`, 'Use this one: live_[REDACTED] (rotated)');
    becomes(`Use this one: sandbox_${random(40, B64U, 65)} (rotated)`, 'Use this one: sandbox_[REDACTED] (rotated)');
    becomes(`["AAAAAAAAAAAAAAAAAAAAA${an(20, 66)}%3D${an(50, 67)}"]`, '["AAAAAAAAAAAAAAAAAAAAA[REDACTED]"]');
    becomes(`client.login("xoxe.xoxp-1-${random(150, B64U, 68)}")`, 'client.login("xoxe.xoxp-[REDACTED]")');
    becomes(`xapp-1-A${an(10, 69)}-${random(13, '0123456789', 70)}-${random(64, `${HEX}_`, 71)}`, 'xapp-[REDACTED]');
    // Still not keys: a word after the prefix, a short body.
    same('live_reload_enabled = True');
    same('sandbox_environment_name');
    same('AAAAAAAAAAAAAAAAAAAAA is a run of letters');
  });
});
