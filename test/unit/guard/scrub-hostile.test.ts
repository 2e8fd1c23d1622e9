// Complexity guard: V8's regex engine backtracks, so one careless alternative can turn a 100k-char
// tool output into seconds of CPU (measured here: 8 s on one 100k-char word). Each input below is
// built to make some rule start at every position of a long run and scan to its end, or to
// backtrack over it. Each input is its own test, bounded by a timeout ten times what a linear scrub
// needs on a loaded machine, where a quadratic rule takes minutes. Speed itself is bench/scrub-throughput.mjs.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';

const N = 100_000;
/** Each input's timeout: generous for a linear scrub on a busy machine, far short of a quadratic one. */
const GUARD_MS = 5000;

/** `unit` repeated to N characters, then `tail`. */
const run = (unit: string, tail = '!'): string => unit.repeat(Math.ceil(N / unit.length)).slice(0, N) + tail;

const HOSTILE: Record<string, string[]> = {
  'plain runs': [run('a'), run('A'), run('0'), run('_'), run('-'), run('.'), run(' '), run('\t'), run('"'), run("'"),
    run(':'), run('='), run('/'), run('@'), run('\\'), run('+/'), run('aB3'), run('\n')],
  'openai / anthropic (sk-)': [run('sk-'), run('k-'), run('ask-'), `sk-${run('a', '')}`, run('sk-ant-'), run('sk', ' ')],
  'stripe': [run('sk_live_'), run('_live_'), `rk_test_${run('Z')}`, run('k_test_')],
  'github / gitlab / npm / hf': [run('ghp_'), run('gh_'), `ghp_${run('a')}`, run('github_pat_'), run('glpat-'), run('g'),
    run('npm_'), run('hf_'), run('whsec_'), run('ec_'), `_${run('a')}`],
  'aws': [run('AKIA'), run('ASIA'), `AKIA${run('A')}`, run('KIA'), run('SIA')],
  'google': [run('AIza'), run('za'), `AIza${run('a')}`, run('ya29.'), `ya29.${run('a')}`, run('GOCSPX-'), run('X-')],
  'slack': [run('xoxb-'), run('xox'), `xoxb-${run('a')}`, run('xapp-'), run('hooks.slack.com/services/'), run('k.com/services/')],
  'sendgrid': [run('SG.'), `SG.${run('a')}`, `SG.${'a'.repeat(30)}.${run('b')}`, run('G.')],
  'jwt (eyJ)': [run('eyJ'), `eyJ${run('a')}`, run('eyJaaaaaa.'), `eyJaaaaaa.eyJ${run('b')}`, run('yJ'), `eyJ${run('a.')}`],
  'pem': [run('-----BEGIN '), run('-----BEGIN RSA PRIVATE KEY-----'), `-----BEGIN PRIVATE KEY-----${run('A')}`,
    `-----BEGIN PRIVATE KEY-----${run('-')}`, `-----BEGIN PRIVATE KEY-----${run('----A')}`, `-----BEGIN${run(' A')}`,
    run('-----BEGIN PRIVATE KEY-----\nAAAA\n')],
  'uri userinfo (://)': [run('://'), `://${run('a')}`, `://a:${run('b')}`, run('://a:b'), run('x://u:p'), `://${run(':')}`,
    run('://a@'), `://${'a'.repeat(100)}:${run('@')}`],
  'query parameters': [run('?token='), run('&token='), `?token=${run('a')}`, run('&'), run('?'), run('&sig=&'),
    run('?X-Amz-Signature=')],
  'generic keyword': [run('password='), run('password: '), `password=${run('a.')}`, `password: "${run('a')}`, `token=${run('a')}(`,
    run('token=token='), run('x_password_'), run('PasswordPassword'), `password=${run('a1')}(`, run('token:a::'), run('token: '),
    `token:${run(' ')}x`, run('apiKey = "'), run('secret => '), `password${run(' ')}=x`, run('password :'), run('\\"token\\":\\"'),
    run('token=abcdefgh1('), run('token: x.'), run('rd:'), run('en='), run('ey: ')],
  'env assignments': [run('API_KEY='), run('KEY_'), `${run('KEY_', '')}=x`, run('A_'), `${run('A', '')}_KEY=x`, run('DB_PASSWORD="'),
    run('TOKEN=$'), run('SECRET_KEY_BASE_FILE='), run('AB='), run('PGPASSWORD=')],
  'authorization headers': [run('Authorization: Bearer '), run('Authorization: '), `Authorization: Bearer abcd, ${run('a')}`,
    `Authorization: AWS4-HMAC-SHA256 ${run('a=b, ')}`, run('AUTHORIZATION=basic '), run('Bearer '), `Bearer ${run('a')}`,
    `Bearer ${run('a.')}`],
  'azure': [run('AccountKey='), `AccountKey=${run('a')}`, run('SharedAccessKey=')],
  'xml attributes and elements': [run('value="'), run('value = \''), `value=${run(' ')}"`, run('<add key="token" value="a'),
    run('<password>a'), `<password>${run('a')}`, run('>x'), run('d>a')],
  'call pairs': [run('("token", "'), run(', "'), `("api_key", "${run('a')}`, run('rd", "'), `rd"${run(' ')},`],
  'keyword guard forms': [run('token: string = '), run("ENV['API_KEY'] = "), run('token ::= '), run('"token":'), run('en"]:'),
    `token${run(' ')}: string =`, run('[]byte = ')],
  'config directives': [`identified by${run(' ')}x`, `Y${run('\t')}"`, `PASSWORD${run(' ')}'`, `#define A${run(' ')}(`,
    `SetEnv A${run(' ')}x`, `add_header a${run(' ')}b`, `Header set a${run(' ')}`, `name: TOKEN\nvalue=${run(' ')}"`, `Cookie: a=${run('a')};`],
  'program password options': [`redis-cli${run(' -a')}`, `mongosh -p${run(' ')}x`, `htpasswd -b${run(' f')}`, `rabbitmqctl add_user${run(' u')}`,
    `smbclient -U${run(' a')}%`, `7z a -p${run('"')}`, `keytool -storepass${run('\t')}x`, `net use${run(' /user:a')}`,
    run('net use /user:a b '), `net use /user:${run('a')} x`],
  'inner-shape tokens': [`LS0tLS1CRUdJTi${run('A')}`, run('123456789:AA'), `x:APA91b${run('a')}`, run('pat12345678901234.'),
    `.atlasv1.${run('a')}`, run('a8Q~'), `1/${run('1')}:`, run('MTEyMjMzNDQ1NTY2Nzc4ODk5.abcdef.')],
};

describe('Scrubber on hostile input (linear time)', function () {
  this.timeout(60_000);
  const scrubber = new Scrubber();
  const withValues = new Scrubber();
  for (const v of ['aaaaaaab', 'sk-registered-value-1', 'token=abcdef', '-----BEGIN X']) withValues.register(v);

  for (const [rule, inputs] of Object.entries(HOSTILE)) {
    for (const [i, text] of inputs.entries()) {
      it(`${rule} #${i} (${JSON.stringify(text.slice(0, 20))}…): 100k chars without a blow-up`, function () {
        this.timeout(GUARD_MS);
        for (const s of [scrubber, withValues]) assert.equal(typeof s.scrub(text), 'string');
      });
    }
  }

  const parts = [...new Set(Object.values(HOSTILE).flat().map((t) => t.slice(0, 12)))];
  let seed = 11;
  for (let k = 0; k < 8; k++) {
    let text = '';
    while (text.length < N) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += parts[seed % parts.length];
    }
    it(`random 100k-char soup #${k} of rule fragments, without a blow-up`, function () {
      this.timeout(GUARD_MS);
      assert.equal(typeof scrubber.scrub(text), 'string');
    });
  }

  it('all hostile inputs concatenated, 2.7M chars, without a blow-up', function () {
    this.timeout(10 * GUARD_MS);
    const all = Object.values(HOSTILE).flat().join('\n');
    assert.equal(typeof scrubber.scrub(all), 'string');
  });
});
