// Tokens with no prefix and no key name (scrub-bare-tokens.ts): Azure DevOps PATs, legacy (52
// characters of lower-case base32) and new-format (84 characters, `AZDO` at offset 76), wherever
// they stand; and the digests, ids and blobs of the same outline that must stay.
import * as assert from 'node:assert/strict';
import { BareTokenScanner, isLegacyAzurePat, isNewAzurePat } from '../../../src/core/guard/scrub-bare-tokens';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { lcgString } from '../../support/rng';

const s = new Scrubber();
const same = (text: string): void => assert.equal(s.scrub(text), text, `changed: ${text}`);

const random = lcgString;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const legacy = (seed: number): string => random(52, BASE32, seed);
const newFormat = (seed: number): string => `${random(76, ALNUM, seed)}AZDO${random(4, ALNUM, seed + 1)}`;

describe('Scrubber bare tokens (Azure DevOps PATs)', () => {
  it('the generated tokens have the documented shape', () => {
    for (let seed = 1; seed <= 200; seed++) {
      assert.ok(isLegacyAzurePat(legacy(seed)), legacy(seed));
      assert.ok(isNewAzurePat(newFormat(seed)), newFormat(seed));
    }
  });

  it('a legacy PAT goes wherever it stands, with no key name in front', () => {
    const pat = legacy(11);
    const cases: [string, string][] = [
      [pat, '[REDACTED]'],
      [`2024-05-10T12:00:01Z INFO pipeline auth ok with ${pat} for org`, '2024-05-10T12:00:01Z INFO pipeline auth ok with [REDACTED] for org'],
      [`Use this one: "${pat}".`, 'Use this one: "[REDACTED]".'],
      [`git clone https://${pat}@dev.azure.com/org/proj/_git/repo`, 'git clone https://[REDACTED]@dev.azure.com/org/proj/_git/repo'],
      [`curl "https://example.com/hook?code=1&x=${pat}&y=2"`, 'curl "https://example.com/hook?code=1&x=[REDACTED]&y=2"'],
      [`["${pat}", "other"]`, '["[REDACTED]", "other"]'],
      [`helm install x --set pipelines.unusualName=${pat}`, 'helm install x --set pipelines.unusualName=[REDACTED]'],
      [`az_devops_thing: ${pat}\nnext: line`, 'az_devops_thing: [REDACTED]\nnext: line'],
    ];
    for (const [text, expected] of cases) assert.equal(s.scrub(text), expected);
  });

  it('a new-format PAT goes too, and every token of a long text is found', () => {
    const pat = newFormat(5);
    assert.equal(s.scrub(`token ${pat} end`), 'token [REDACTED] end');
    const filler = 'build step ok: compiled 12 files in 3.2s, cache hit ratio 0.93\n'.repeat(40);
    const tokens = Array.from({ length: 30 }, (_, i) => (i % 3 ? legacy(100 + i) : newFormat(100 + i)));
    const text = tokens.map((t, i) => `${filler.slice(0, 37 * i)}[${t}]`).join('\n');
    const out = s.scrub(text);
    for (const t of tokens) assert.ok(!out.includes(t), `kept ${t}`);
    assert.equal(out.split('[[REDACTED]]').length - 1, tokens.length);
  });

  it('digests, ids and blobs of a similar outline stay', () => {
    const texts = [
      `commit ${random(40, HEX, 3)}`,
      `sha256:${random(64, HEX, 4)}`,
      // Hex without 0, 1, 8, 9 has only the letters a-f: not base32 beyond f.
      random(52, 'abcdef234567', 5),
      'id 123e4567-e89b-12d3-a456-426614174000',
      `"integrity": "sha512-${random(86, `${ALNUM}+/`, 6)}=="`,
      `data: ${random(400, `${ALNUM}+/`, 7)}=`,
      // A Nix base32 SHA-256 (its alphabet has no e, o, t, u).
      `sha256 = "${random(52, '23456abcdfghijklmnpqrsvwxyz', 8)}";`,
      // Lower-case letters only, too few digits, too long, too short.
      'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz',
      `x ${random(51, 'abcdefghijklmnopqrstuvwxyz', 9)}2 y`,
      `x ${random(53, BASE32, 10)} y`,
      `x ${random(51, BASE32, 11)} y`,
      // Upper case, an onion address (56), a CIDv1 (59), inside a longer alphanumeric run.
      random(52, BASE32.toUpperCase(), 12),
      `http://${random(56, BASE32, 13)}.onion/`,
      `ipfs://bafy${random(55, BASE32, 14)}`,
      `A${legacy(15)}`,
      `${legacy(16)}9`,
      // The signature in a run that is not random.
      `${'ab'.repeat(38)}AZDO1234`,
    ];
    for (const text of texts) same(text);
  });

  it('the scan resumes where it is told and reports where each token starts', () => {
    const a = legacy(21);
    const b = legacy(22);
    const text = `x ${a} y ${b}`;
    const scanner = new BareTokenScanner();
    const first = scanner.exec(text);
    assert.deepEqual([first?.index, first?.[0]], [2, a]);
    scanner.lastIndex = 3;
    const second = scanner.exec(text);
    assert.deepEqual([second?.index, second?.[0]], [text.indexOf(b), b]);
    assert.equal(scanner.exec(text), null);
    assert.equal(scanner.lastIndex, 0);
  });
});

describe('Scrubber URL credentials with an e-mail address as the user (SMTP)', () => {
  it('the password goes, the user and host stay', () => {
    assert.equal(s.scrub('SMTP_URL=smtp://alerts@example.com:Vq7mK2pLx9Rt@smtp.example.com:587'),
      'SMTP_URL=smtp://alerts@example.com:[REDACTED]@smtp.example.com:587');
    assert.equal(s.scrub('mailer: smtps://ops@corp.example:p@ss;W0rd@mail.corp.example:465/'),
      'mailer: smtps://ops@corp.example:[REDACTED]@mail.corp.example:465/');
  });

  it('URLs with a user and a port but no password stay', () => {
    for (const text of ['ssh://git@github.com:22/org/repo.git', 'pip install git+ssh://git@github.com:org/repo.git@v1.2.3',
      'https://user@example.com:8080/path', 'smtp://alerts@example.com:password@smtp.example.com']) same(text);
  });
});
