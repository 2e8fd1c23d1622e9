// Keyed values whose first character or inner punctuation once decided too much: a value starting
// with `$`, `%`, `~`, `.` or `+` was taken for a reference, and `?`, `;`, `|`, `(` and other brackets
// ended a value early (the rest leaked). A reference is now recognised by its whole shape, code by a
// call or statement after a name, and a value is redacted whole or not at all.
import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { looksLikeCode, looksSecret } from '../../../src/core/guard/scrub-value';

const s = new Scrubber();
const same = (text: string): void => assert.equal(s.scrub(text), text, `changed: ${text}`);
const becomes = (text: string, expected: string): void => assert.equal(s.scrub(text), expected);

describe('Scrubber value shapes', () => {
  describe('values led by $ % ~ . + that are secrets, in every keyed syntax', () => {
    const values = ['%C7!^RFAj-SFwZIzQ!gX', '$ecretP4ss!x9Lm2', '~Xk9#pQ2vL7wZ3mR', '.fBZpYf83KXv-K_KSTB', '+Z#4_KXOt2DVbNF9q',
      '$2a$10$N9qo8uLOickgx2ZMRZoMye', '%EFjHA5y1%hpLCgHJ2nONjA'];
    const forms: [string, (v: string) => string, string][] = [
      ['KEY=value', (v) => `SMTP_PASSWORD=${v}`, 'SMTP_PASSWORD=[REDACTED]'],
      ['lowercase key=value', (v) => `smtp_pass=${v} env=prod`, 'smtp_pass=[REDACTED] env=prod'],
      ['key: value', (v) => `  keystore_password: ${v}`, '  keystore_password: [REDACTED]'],
      ['quoted key: value', (v) => `smtp_pass='${v}'`, "smtp_pass='[REDACTED]'"],
      ['JSON', (v) => `{"api_token": "${v}"}`, '{"api_token": "[REDACTED]"}'],
      ['Makefile ::=', (v) => `SMTP_PASS ::= ${v}`, 'SMTP_PASS ::= [REDACTED]'],
      ['Makefile ?=', (v) => `REDIS_PASSWORD ?= ${v}`, 'REDIS_PASSWORD ?= [REDACTED]'],
      ['properties', (v) => `redis.password=${v}`, 'redis.password=[REDACTED]'],
      ['flag', (v) => `deploy --db-password ${v} --verbose`, 'deploy --db-password [REDACTED] --verbose'],
    ];
    for (const [form, write, expected] of forms) {
      it(form, () => {
        // `=~` glued is a regex match in Perl and Ruby (`name =~ /x/`), not an assignment: left alone.
        for (const v of values) if (!(v.startsWith('~') && /=$/.test(write('').trimEnd().split(' ')[0]))) becomes(write(v), expected);
      });
    }
    it('SQL PASSWORD and Authorization headers', () => {
      becomes("ALTER ROLE app WITH LOGIN PASSWORD '%bKT4+a*OPecW2rH';", "ALTER ROLE app WITH LOGIN PASSWORD '[REDACTED]';");
      becomes('Authorization: Bearer %EFjHA5y1%hpLCgHJ2nONjA', 'Authorization: Bearer [REDACTED]');
    });
  });

  describe('references stay where they are clearly references', () => {
    it('shell, Windows and template variables', () => {
      for (const ref of ['$HOME', '${VAR}', '${DB_PASSWORD:-x}', '$(cat /run/secrets/db)', '$GITHUB_TOKEN', '$env:API_KEY',
        '%APPDATA%', '%UserProfile%\\keys', '%(password)s', '%-12s', '$HOME/.ssh/id_rsa', '$1']) {
        same(`DB_PASSWORD=${ref}`);
        same(`password: ${ref}`);
        same(`{"token": "${ref}"}`);
        same(`deploy --token ${ref} --verbose`);
      }
    });

    it('home, relative and dot-file paths', () => {
      for (const ref of ['~/.ssh/config', '~deploy/.netrc', './relative/path', '../secrets/db.txt', '.env', '.config.json']) {
        same(`password_file: ${ref}`);
        same(`token: ${ref}`);
        same(`API_TOKEN=${ref}`);
      }
    });

    it('code: unary plus, calls, indexes, statements and ternaries after a key', () => {
      for (const code of ['+count;', 'getToken(opts)', 'request.POST.get("password")', 'create(len, x)', 'cfg[key]', 'tokens[0]',
        'loadSecret();', 'isProd?prodToken:devToken', 'a||b', 'user?.token', 'Config{Token: x}', 'pwd_from_env)']) {
        same(`const token = ${code}`);
        same(`password=${code}`);
        same(`f(password=${code}`);
      }
    });

    it('connection strings keep the part after the password', () => {
      becomes('Server=db;User ID=sa;Password=hvY4ciZleU!055;Encrypt=true', 'Server=db;User ID=sa;Password=[REDACTED];Encrypt=true');
    });
  });

  describe('values with brackets, ; | ? are redacted whole', () => {
    const values = ['XGib-:(2:x7.KMsjC.eV', 'IYG+iJ4(AlXqvbp90ldN', '5_y{P1+uq8+}g:0-1;WC', 'w)6:Ysd04I1xO5qFbgew', 'p(kc.n:nOW}Z8hg(w)bO',
      'uu{R3RaSXxNlNX+qRUQp', 'ab|Xk9#pQ2vL7?wZ3;mR', 'x9(mn4rl4xub0k2)'];
    it('unquoted after a key, whatever the separator', () => {
      for (const v of values) {
        for (const [k, sep] of [['OCI_AUTH_TOKEN', ' := '], ['OCI_AUTH_TOKEN', ' ::= '], ['OciAuthToken', ' = '], ['oci.auth.token', ': '],
          ['secrets.ociAuthToken', '='], ['//registry.example.com/:_authToken', '=']]) {
          becomes(`${k}${sep}${v}`, `${k}${sep}[REDACTED]`);
        }
        becomes(`$ ./bin/release --oci-auth-token=${v} --verbose`, '$ ./bin/release --oci-auth-token=[REDACTED] --verbose');
      }
    });

    it('a trailing ; stays with the code', () => {
      becomes('OCI_AUTH_TOKEN = w}7VfcuI_qrsh3kuj96;', 'OCI_AUTH_TOKEN = [REDACTED];');
    });

    it('quoted and in directives', () => {
      for (const v of ['Mp;eBHTc6RwLXO1(kmEy', 'wv(U2dx0yF;qpIyNl+{X', 'Wm3e1s4aSlo3Hbi39R;{']) {
        becomes(`private const string OciAuthToken = "${v}";`, 'private const string OciAuthToken = "[REDACTED]";');
        becomes(`let ociAuthToken = "${v}"`, 'let ociAuthToken = "[REDACTED]"');
        becomes(`#define OCI_AUTH_TOKEN "${v}"`, '#define OCI_AUTH_TOKEN "[REDACTED]"');
      }
      becomes('    SetEnv OCI_AUTH_TOKEN p(kc.n:nOW}Z8hg(w)bO', '    SetEnv OCI_AUTH_TOKEN [REDACTED]');
      same('#define API_TOKEN get_token()');
    });

    it('dotted multi-word keys (properties files)', () => {
      becomes('secret.key.base=de0a5a85336957fa774086bdd8e71009a9d1cd01', 'secret.key.base=[REDACTED]');
      becomes('jwt.signing.key: 89c906b6e308b7bad5fc6e66feb2', 'jwt.signing.key: [REDACTED]');
    });

    it('kebab values of random letters are not taken for names', () => {
      becomes('travis_token=mfTIYqkj-gkSwTThMTByMJ env=production', 'travis_token=[REDACTED] env=production');
      same('token: Get-AzAccessToken');
      same('auth_token=application-json-content');
    });

    it('a quoted flag value may start with -, an unquoted one is the next option', () => {
      becomes("curl --ibmcloud-api-key '-VmLm2bvVus_GqRxJJJKgkSNIOE' https://x", "curl --ibmcloud-api-key '[REDACTED]' https://x");
      becomes('deploy --alibaba-cloud-access-key-secret vHKEXUSwpw7g17qoPpHaJ1m5 --region x',
        'deploy --alibaba-cloud-access-key-secret [REDACTED] --region x');
      same('mytool --token -v --password --stdin');
    });
  });

  describe('look-alikes stay: public keys, placeholder DSNs, ellipsis masks, `your` placeholders', () => {
    it('benign', () => {
      for (const line of ['STRIPE_PUBLISHABLE_KEY=pk_test_4eC39HqLyjWDarjtT1zdp7dc', 'NEXT_PUBLIC_MAPBOX_TOKEN=pk.eyJ1IjoiYWNtZSIsImEiOiJjbHh4In0',
        'ANTHROPIC_API_KEY=sk-ant-...', "token: 'sk_live_...6536'", 'DATABASE_URL=postgres://user:password@localhost:5432/dbname',
        'SLACK_BOT_TOKEN=xoxb-your-bot-token', 'HF_TOKEN=hf_xxx', 'api_key: YOUR_API_KEY']) same(line);
    });
    it('hostile: the same syntaxes with real-looking values', () => {
      becomes('STRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'STRIPE_SECRET_KEY=[REDACTED]');
      becomes('DATABASE_URL=postgres://app:Xk9pQ2vL7wZ3@db:5432/app', 'DATABASE_URL=[REDACTED]');
      becomes('HF_TOKEN=hf_Xk9pQ2vL7wZ3mR8tY6uI0oP4aS1dF5gH', 'HF_TOKEN=[REDACTED]');
      becomes('api_key: Y0urKx9pQ2vL7wZ3', 'api_key: [REDACTED]');
    });
  });

  describe('the value checks themselves', () => {
    it('looksLikeCode', () => {
      for (const c of ['getToken(opts)', 'fn(a', 'get(', 'a.b.c(x)[0]', 'x;y', 'p?a:b', 'a||b', 'tokens[0]']) assert.ok(looksLikeCode(c), c);
      for (const c of ['w)6:Ysd04I1xO5q', 'XGib-:(2:x7', 'p(kc.n:nOW}Z8', 'uu{R3RaSXxNlNX', 'iJ4(AlXqvbp', 'plain']) assert.ok(!looksLikeCode(c), c);
    });
    it('looksSecret tells references by their whole shape', () => {
      for (const r of ['$HOME', '${X}', '%APPDATA%', '~/.ssh/config', './x', '.env']) assert.ok(!looksSecret(r), r);
      for (const v of ['$ecretP4ss!x9', '%C7!^RFAj-SF', '~Xk9#pQ2vL7', '.fBZpYf83KXv']) assert.ok(looksSecret(v), v);
    });
  });
});
