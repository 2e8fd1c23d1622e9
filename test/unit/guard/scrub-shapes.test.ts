import * as assert from 'node:assert/strict';
import { PEM_MAX } from '../../../src/core/guard/scrub-patterns';
import { Scrubber } from '../../../src/core/guard/scrubber';

const s = new Scrubber();
const same = (text: string): void => assert.equal(s.scrub(text), text, `changed: ${text}`);
const becomes = (text: string, expected: string): void => assert.equal(s.scrub(text), expected);
const a = (n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8'): string =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');

describe('Scrubber shape rules', () => {
  it('vendor tokens keep only their kind prefix', () => {
    const cases: [string, string][] = [
      [`sk-${a(48)}`, 'sk-'], [`sk-proj-${a(40)}_${a(8)}`, 'sk-'], [`sk-ant-api03-${a(60)}-${a(8)}AA`, 'sk-'],
      [`sk_live_${a(24)}`, 'sk_live_'], [`sk_test_${a(24)}`, 'sk_test_'], [`rk_live_${a(24)}`, 'rk_live_'],
      [`whsec_${a(32)}`, 'whsec_'], [`ghp_${a(36)}`, 'ghp_'], [`gho_${a(36)}`, 'gho_'], [`ghu_${a(36)}`, 'ghu_'],
      [`ghs_${a(36)}`, 'ghs_'], [`ghr_${a(36)}`, 'ghr_'], [`github_pat_11${a(20)}_${a(59)}`, 'github_pat_'],
      [`glpat-${a(20)}`, 'glpat-'], [`npm_${a(36)}`, 'npm_'], [`hf_${a(34)}`, 'hf_'], ['AKIAIOSFODNN7EXAMPLE', 'AKIA'],
      ['ASIAY34FZKBOKMUTVV7A', 'ASIA'], [`AIza${a(35, 'Sy-_abcXYZ01895')}`, 'AIza'], [`ya29.${a(60)}`, 'ya29.'],
      [`GOCSPX-${a(28)}`, 'GOCSPX-'], [`xoxb-1234-5678-${a(24)}`, 'xoxb-'], [`xoxp-${a(40)}`, 'xoxp-'],
      [`xapp-1-${a(30)}`, 'xapp-'], [`SG.${a(22)}.${a(43)}`, 'SG.'],
    ];
    for (const [token, kind] of cases) {
      for (const [before, after] of [['', ''], ['key: ', ' and more'], ['"', '",'], ['(', ')'], ['=', '\n']]) {
        becomes(`${before}${token}${after}`, `${before}${kind}[REDACTED]${after}`);
      }
    }
  });

  it('vendor prefixes inside longer tokens or words are not keys', () => {
    for (const text of [`task-${a(30)}`, `disk-${a(30)}`, `mask_live_${a(20)}`, `xghp_${a(36)}`, `Xnpm_${a(36)}`,
      `ZAKIAIOSFODNN7EXAMPLE`, `AKIAIOSFODNN7EXAMPLEX`, `sha512-abcAIza${a(35)}`, `my_hf_${a(34)}`, `sk-short`, `ghp_tooShort`,
      'eyJhbGciOiJIUzI1NiJ9', 'the SG.1 release', 'ya29.short', 'xoxb-', 'AccountKey=short']) same(text);
  });

  it('JWTs, bare or labelled, but not eyJ inside base64', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    becomes(`cookie: session=${jwt}; Path=/`, 'cookie: session=eyJ[REDACTED]; Path=/');
    becomes(`id_token ${jwt}`, 'id_token eyJ[REDACTED]');
    becomes('alg none: eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'alg none: eyJ[REDACTED]');
    same('sha512-QmFzZTY0eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc');
  });

  it('PEM private keys: whole, JSON-escaped, and cut off without END', () => {
    const body = `${a(64)}\n${a(64)}\n${a(20)}==`;
    for (const kind of ['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', 'DSA ', '']) {
      const pem = `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`;
      becomes(`x\n${pem}\ny`, `x\n-----BEGIN ${kind}PRIVATE KEY-----\n[REDACTED]\n-----END ${kind}PRIVATE KEY-----\ny`);
    }
    becomes('-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF' + a(60) + '\n=ab12\n-----END PGP PRIVATE KEY BLOCK-----',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n[REDACTED]\n-----END PGP PRIVATE KEY BLOCK-----');
    const enc = '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B2C\n\n' + a(64) + '\n-----END RSA PRIVATE KEY-----';
    becomes(enc, '-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----');
    becomes(`"-----BEGIN PRIVATE KEY-----\\n${a(64)}\\n-----END PRIVATE KEY-----\\n"`,
      '"-----BEGIN PRIVATE KEY-----\\n[REDACTED]\\n-----END PRIVATE KEY-----\\n"');
    becomes(`-----BEGIN PRIVATE KEY-----\n${a(64)}\n${a(30)}`, '-----BEGIN PRIVATE KEY-----\n[REDACTED]');
    becomes(`-----BEGIN PRIVATE KEY-----\n${a(64)}\n...(truncated)`, '-----BEGIN PRIVATE KEY-----\n[REDACTED]\n...(truncated)');
  });

  it('a BEGIN without END redacts a bounded amount', () => {
    const huge = `-----BEGIN PRIVATE KEY-----\n${a(PEM_MAX + 5000, 'ABCDEFGH')}`;
    const out = s.scrub(huge);
    assert.ok(out.startsWith('-----BEGIN PRIVATE KEY-----\n[REDACTED]'));
    assert.ok(out.length < huge.length - PEM_MAX + 100);
  });

  it('public keys and certificates are not secrets', () => {
    same(`-----BEGIN PUBLIC KEY-----\n${a(64)}\n-----END PUBLIC KEY-----`);
    same(`-----BEGIN CERTIFICATE-----\n${a(64)}\n-----END CERTIFICATE-----`);
    same(`ssh-ed25519 ${a(68)} dev@laptop`);
  });

  it('URL userinfo: scheme, user and host stay, the password goes', () => {
    becomes('postgres://user:pass1234@db.example.com:5432/app', 'postgres://user:[REDACTED]@db.example.com:5432/app');
    becomes('redis://:redispw99@cache:6379/0', 'redis://:[REDACTED]@cache:6379/0');
    becomes('amqp://guest:p@ss@word@rabbit:5672/', 'amqp://guest:[REDACTED]@rabbit:5672/');
    becomes('mongodb+srv://app:Zx9%40q@cluster0.mongodb.net/db', 'mongodb+srv://app:[REDACTED]@cluster0.mongodb.net/db');
    becomes('https://x-access-token:abc@github.com/o/r', 'https://x-access-token:[REDACTED]@github.com/o/r');
    becomes('jdbc:mysql://db:3306/app?user=app&password=hunter22', 'jdbc:mysql://db:3306/app?user=app&password=[REDACTED]');
  });

  it('URLs without a password, and templates, stay', () => {
    for (const text of ['ssh://git@github.com:22/o/r.git', 'http://localhost:3000/api', 'https://user@example.com/',
      'const url = `postgres://${user}:${password}@${host}/db`;', 'mongodb+srv://<username>:<password>@cluster0.example.net',
      'postgres://app:$PGPASSWORD@db/app', 'http://[::1]:8080/x', 'see https://example.com:443/path?q=a@b',
      'redis://user:pass@localhost:6379', 'mongodb://username:password@host:1234', 'https://x-access-token:password@github.com/o/r',
      'https://x-access-token:***@github.com/o/r']) same(text);
  });

  it('webhooks, Azure keys and bare bearer tokens', () => {
    becomes(`https://hooks.slack.com/services/T000/B000/${a(24)}`, 'https://hooks.slack.com/services/[REDACTED]');
    becomes(`DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${a(86)}==;EndpointSuffix=core.windows.net`,
      'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=[REDACTED];EndpointSuffix=core.windows.net');
    becomes(`Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=${a(44)}=`,
      'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=[REDACTED]');
    becomes('sent header "Bearer abc123.def-456_ghi" upstream', 'sent header "Bearer [REDACTED]" upstream');
    same('Bearer tokens are described in RFC 6750');
  });

  it('digests, commit ids and UUIDs are not secrets', () => {
    const hex64 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    for (const text of [hex64, `sha256:${hex64}`, `${hex64}${hex64}`, 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      '550e8400-e29b-41d4-a716-446655440000', `integrity="sha512-${a(86, 'ABCDEFabcdef0123456789+/')}=="`]) same(text);
  });
});
