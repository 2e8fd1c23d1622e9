// Linear time, measured as growth: for each rule family, a hostile input built to make the rule
// start at every position of a long run (or be refused and rescanned there) is scrubbed at 20k and
// at 200k characters. Ten times the input must take well under a hundred times as long — a
// quadratic rule takes about a hundred times; a linear one about ten. The bound is on the ratio of
// two runs on the same machine, so a busy machine slows both.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';

const SMALL = 20_000;
const unitRun = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

const HOSTILE: Record<string, string[]> = {
  'vendor tokens, `_` anchor': ['ghp_', 'ghp_a', 'sk_live_', 'github_pat_a_', 'dckr_pat_', 'pscale_tkn_', 'hf_aBcDeF', 'live_'],
  'vendor tokens, `-` anchor': ['sk-', 'glpat-', 'xoxb-1-', 'pplx-', 'PMAK-a-', 'access-production-', 'v1.0-a-', 'key-'],
  'vendor tokens, `.` anchor': ['hvs.', 'dp.pt.', 'dp.st.prd.', 'ya29.', 'sl.', 't1.', 'SG.a.', 'api_live.'],
  'vendor tokens, letter anchors': ['AKIA', 'AIza', 'ATBB', 'AKCp', 'EZAK', 'SK0', 'oy2a', 'hooks.slack.com/services/', 'eyJrIjoi'],
  'masks and identifiers after prefixes': ['ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx ', 'hf_requiredCharacteristic', 'sk-your-key-here-'],
  'keyword assignments': ['password=', 'token: ', 'api_key = "', 'SECRET_KEY=', 'DB_PASSWORD ?= ', '$password .= \'', 'var token string = "',
    'password := ', 'ENV["API_KEY"] = "', 'dd_app_key: ', 'token=abcdefgh1(', 'password=********', 'KEY_FORMAT=pem '],
  'refused candidates': ['password: "changeme" ', 'token=xxxxxxxxxxxx ', 'secret: ${VAR} ', 'api_key=EXAMPLE ', 'token: userPassword '],
  'xml': ['<add key="DbPassword" value="', '<password>', '<password>abc', 'key="token" value="a', 'value="'],
  'calls and dashes': ['setProperty("db.password", "', '("token", "', '("token", "abcdefgh', 'api token - \'', 'token - "abc'],
  'cli flags': ['--password ', '--token abc', 'mysql -p', 'mysql -u root -pabc ', 'curl -u a:', '-u user:pass', '--user '],
  'copies on a line': ['password=abcdefgh12 abcdefgh12 ', 'TOKEN=Zx9qL2pvB7w Zx9qL2pv ', 'x=1 password=Qw3rtyUi0p '],
  'urls and headers': ['://a:b@', '://user:', 'Authorization: Bearer ', '?token=', 'AccountKey='],
  'config directives': ["IDENTIFIED BY '", 'identified by ', "PASSWORD '", '#define API_KEY ', '#define API_KEY abcdefgh1(',
    'SetEnv API_KEY ', 'proxy_set_header X-Api-Key ', '- name: API_KEY\n  value: ', '"name": "TOKEN", "value": "', 'Set-Cookie: a=',
    'password "', 'token \'abcdefghij '],
  'command-line passwords': ['redis-cli -a ', 'mongosh -p ', '7z a -p', 'htpasswd -b f u ', 'rabbitmqctl add_user u ', 'smbclient -U u%',
    'keytool -storepass ', 'ldapsearch -w ', 'net use /user:u '],
  'inner shapes and fallback anchors': ['LS0tLS1CRUdJTi', '123456789:AA', ':APA91b', 'MTAabcdefghijklmnopqrstuvwx.abcdef.', '.atlasv1.',
    'a8Q~', '1/1234567890', 'tskey-auth-', 'LTAI', 'EAA', '1//0', 'sha256~', 's.a1', 'Q~'],
  // One endless run, runs one short of a token (every sampled position lands in one), and runs of
  // token length that are refused (too repetitive), so each is measured and checked.
  'bare tokens (scan lane)': ['a7', `${'b'.repeat(51)} `, `${'k3'.repeat(26)} `, `${'Zq'.repeat(42)}.`, 'smtp://a@b:'],
  // Random-looking runs: one short of a token, tokens found one after another, one endless run with
  // no place to end, runs refused for what follows them, and runs with a refused vendor candidate
  // inside (the fallback waits past it).
  'random bare tokens (scan lane)': ['k3ZqW9xR7mP2vB5nL8tY4hJ6cD1fG0s ', 'k3ZqW9xR7mP2vB5nL8tY4hJ6cD1fG0sA ',
    'aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY', 'k3ZqW9xR7mP2vB5nL8tY4hJ6cD1fG0sAx/', 'k3Zq-W9xR.7mP2_vB5nL8tY4hJ6cD1fG0sA=',
    '"NTAwMDAwMDAwMDAwMDAwMDAw.aB1cD2.Xq9Lm2Vb7Nc4Tz8Kw1Rj5Hs3Gd6Fp0Qe2Ya4" ', 'N0aB1cD2eF3gH4iJ5kL6mN7oP.aB1cD2.',
    '-----BEGIN PUBLIC KEY-----\naB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY\n', 'ssh-rsa aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY '],
};

function cpuMs(s: Scrubber, text: string): number {
  // Best of three, so one stall of a busy machine does not decide.
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const c0 = process.cpuUsage();
    s.scrub(text);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return best;
}

describe('Scrubber grows linearly on hostile input (10x input, < 100x time)', function () {
  this.timeout(300_000);
  const scrubber = new Scrubber();
  const withValues = new Scrubber();
  for (const v of ['aaaaaaab', 'token=abcdef', 'sk-registered-1']) withValues.register(v);

  for (const [family, units] of Object.entries(HOSTILE)) {
    it(family, () => {
      for (const unit of units) {
        for (const s of [scrubber, withValues]) {
          const small = unitRun(unit, SMALL);
          const large = unitRun(unit, SMALL * 10);
          const t1 = cpuMs(s, small);
          const t10 = cpuMs(s, large);
          // 2 ms of slack: a 20k input can take under a millisecond, below the clock's resolution.
          assert.ok(t10 < 100 * Math.max(t1, 2), `${JSON.stringify(unit)}: 20k ${t1.toFixed(1)} ms, 200k ${t10.toFixed(1)} ms`);
        }
      }
    });
  }
});
