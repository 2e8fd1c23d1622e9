import * as assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';

const s = new Scrubber();
const same = (text: string): void => assert.equal(s.scrub(text), text, `changed: ${text}`);
const becomes = (text: string, expected: string): void => assert.equal(s.scrub(text), expected);

describe('Scrubber keyword rules', () => {
  describe('keeps the label, redacts the value', () => {
    it('the spec examples', () => {
      becomes('password=hunter2hunter2', 'password=[REDACTED]');
      becomes('Authorization: Bearer abc123def456ghi', 'Authorization: Bearer [REDACTED]');
      becomes('postgres://user:pw12345@host/db', 'postgres://user:[REDACTED]@host/db');
      becomes('GET /x?token=abc123&page=2', 'GET /x?token=[REDACTED]&page=2');
    });

    it('every keyword, in snake, kebab, camel, Title and UPPER spellings', () => {
      const words = ['password', 'passwd', 'passphrase', 'pass', 'secret', 'token', 'credential', 'auth', 'authorization',
        'api key', 'access key', 'secret key', 'private key', 'signing key', 'encryption key', 'master key'];
      const cap = (w: string): string => w[0].toUpperCase() + w.slice(1);
      for (const w of words) {
        const parts = w.split(' ');
        const spellings = [parts.join('_'), parts.join('-'), parts.join(''), `my_${parts.join('_')}`, `x-${parts.join('-')}`,
          parts[0] + parts.slice(1).map(cap).join(''), `stripe${parts.map(cap).join('')}`, parts.join('_').toUpperCase(),
          `DB_${parts.join('_').toUpperCase()}`, `config.${parts.join('_')}`];
        for (const key of spellings) {
          for (const [sep, value, expected] of [['=', 'v4lue-8f7d6e5c', '[REDACTED]'], [': ', '"v4lue-8f7d6e5c"', '"[REDACTED]"'],
            [' := ', "'v4lue-8f7d6e5c'", "'[REDACTED]'"], [' => ', 'v4lue-8f7d6e5c', '[REDACTED]']]) {
            becomes(`${key}${sep}${value}`, `${key}${sep}${expected}`);
          }
          becomes(`{"${key}": "v4lue-8f7d6e5c"}`, `{"${key}": "[REDACTED]"}`);
          becomes(`{\\"${key}\\":\\"v4lue-8f7d6e5c\\"}`, `{\\"${key}\\":\\"[REDACTED]\\"}`);
        }
      }
    });

    it('catches DB_PASSWORD and client_secret, which a \\b-anchored keyword misses', () => {
      becomes('DB_PASSWORD=s3cr3tpw', 'DB_PASSWORD=[REDACTED]');
      becomes('client_secret: 0a1b2c3d4e5f6a7b', 'client_secret: [REDACTED]');
      becomes('client_secret=0a1b2c3d4e5f6a7b', 'client_secret=[REDACTED]');
    });

    it('catches camelCase keys', () => {
      becomes('stripeSecret: "rk_9a8b7c6d5e4f"', 'stripeSecret: "[REDACTED]"');
      becomes("githubToken = 'abcDEF123456xyz'", "githubToken = '[REDACTED]'");
      becomes('openAIApiKey: "0123456789abcdef"', 'openAIApiKey: "[REDACTED]"');
    });

    it('quoted values of 8+ characters, even letters only', () => {
      becomes('password = "correcthorsebatterystaple"', 'password = "[REDACTED]"');
      becomes('"password": "postgres"', '"password": "[REDACTED]"');
      becomes("auth: 'user:pass1'", "auth: '[REDACTED]'");
      becomes('token: `abcdefgh`', 'token: `[REDACTED]`');
    });

    it('unquoted values of 8+ characters that are not code', () => {
      becomes('token: 0123456789', 'token: [REDACTED]');
      becomes('api_key=abc-def-123', 'api_key=[REDACTED]');
      becomes('password: P@ss/w0rd+=', 'password: [REDACTED]');
      becomes('SECRET: dGhpcyBpcyBiYXNlNjQ=', 'SECRET: [REDACTED]');
      becomes('credential: user:pass123', 'credential: [REDACTED]');
    });

    it('a base64 value starting with +, and a flag value of UPPER letters and digits mixed', () => {
      becomes('  encryption_key: +eowvgpb1twzeZ5xZGL3vXKTjaqQvK/V23lEcbZk3rM=', '  encryption_key: [REDACTED]');
      becomes('deploy-tool --ssh-password J6G52KOA3W_849 host1', 'deploy-tool --ssh-password [REDACTED] host1');
      becomes('run --api-key Q7ZK2P9XW4_R8 now', 'run --api-key [REDACTED] now');
    });

    it('a value led by !, @, # or % when it has letters and digits (generated passwords); tags, decorators and comments stay', () => {
      becomes('smtp_password := !Xq9pL2vB7wZ', 'smtp_password := [REDACTED]');
      becomes('mail.smtp.password: @Xq9pL2vB7wZ', 'mail.smtp.password: [REDACTED]');
      becomes('redis_password ?= #Kx9mQ2pL7vB', 'redis_password ?= [REDACTED]');
      becomes('  admin_password: !Xq9pL2vB7wZ', '  admin_password: [REDACTED]');
      for (const line of ['password: !ImportValue SharedDbPassword', 'api_key: #TODO-fill-in-later', 'token = @injectedTokenValue',
        'password: %(db_password)s', 'password = !isValidPassword(x)', 'secret: !!binary', 'token: # set by the pipeline']) same(line);
    });

    it('env-style UPPER names take any value, letters only too', () => {
      becomes('SECRET_KEY_BASE=mysecretkeybase', 'SECRET_KEY_BASE=[REDACTED]');
      becomes('AWS_SECRET_ACCESS_KEY=abc', 'AWS_SECRET_ACCESS_KEY=[REDACTED]');
      becomes('export GH_TOKEN=abcdef', 'export GH_TOKEN=[REDACTED]');
      becomes('PGPASSWORD="two words"', 'PGPASSWORD="[REDACTED]"');
      becomes('DSN=https://key@sentry.io/1', 'DSN=[REDACTED]');
      becomes('MONGODB_URI=mongodb+srv://u:p@c0.mongodb.net', 'MONGODB_URI=[REDACTED]');
      becomes('docker run -e API_KEY=abc123 app', 'docker run -e API_KEY=[REDACTED] app');
    });

    it('Authorization headers with any scheme', () => {
      becomes('authorization: Basic dXNlcjpwYXNz', 'authorization: Basic [REDACTED]');
      becomes('"Authorization": "token ghx_abc123def"', '"Authorization": "token [REDACTED]"');
      becomes('AUTHORIZATION=Bearer ab12', 'AUTHORIZATION=Bearer [REDACTED]');
      becomes('Authorization: AWS4-HMAC-SHA256 Credential=AKID/2024/s3, SignedHeaders=host, Signature=abc123',
        'Authorization: AWS4-HMAC-SHA256 [REDACTED]');
    });

    it('token-like query parameters anywhere in a URL', () => {
      for (const name of ['access_token', 'refresh_token', 'id_token', 'token', 'api_key', 'apikey', 'client_secret', 'sig',
        'X-Amz-Signature', 'X-Amz-Security-Token', 'X-Goog-Signature', 'password']) {
        becomes(`https://h/p?a=1&${name}=abc%2Fdef&b=2#f`, `https://h/p?a=1&${name}=[REDACTED]&b=2#f`);
      }
    });
  });

  describe('leaves code that only names a secret', () => {
    it('identifiers, paths, calls, types', () => {
      for (const line of ['password: userPassword', 'token = undefined', 'apiKey: this.config.apiKey', 'token = x?.y?.token',
        'secret: Secret::new()', 'let token = Token::Bearer;', 'password = getPassword(user)', 'token = tokens[0]',
        'token: Array<string>', 'password: string | null', 'token = user!.token', 'auth = require("./auth")',
        'password = password', 'secret_key: Optional[str] = None', 'token = await fetchToken(url)']) same(line);
    });

    it('unary plus and UPPER_CASE names with digits only at segment ends', () => {
      for (const line of ['token = +count', 'secret = +1', 'password: +value', 'token += +offsetValue',
        'deploy --token RESET_PASSWORD_V2 now', 'run --secret AES256_GCM_2024 now']) same(line);
    });

    it('comparisons and paths are not assignments', () => {
      for (const line of ['if (token == "abcdefgh12") {}', 'if (token === "abcdefgh12") {}', 'token =~ /abcdefgh12/',
        'Token::abcdefgh12', 'password != abcdefgh12', 'token >= 12345678901', 'token <= 12345678901']) same(line);
    });

    it('references, templates, placeholders and prose', () => {
      for (const line of ['password="$DB_PASSWORD"', 'token: "${TOKEN}"', 'api_key = "<your-api-key>"', 'secret: "{{ .Values.secret }}"',
        'password: "%s"', 'password: "Please enter your password"', 'password: "Passwort"', ':password="form.password"',
        'API_KEY=$(vault read -field=key secret/app)', 'TOKEN=${GITHUB_TOKEN}', 'SECRET=%APP_SECRET%', 'token: ${{ secrets.TOKEN }}',
        "password: 'required|string|min:8'", 'DEBUG_AUTH=true', 'TOKEN_TTL=3600', 'DB_PASSWORD_FILE=/run/secrets/db',
        'API_KEY_ID=12345678', 'SECRET_NAME=app-secret', 'Bearer authentication is required', 'password:', 'token =']) same(line);
    });

    it('quoted names: identifiers, constants, event names', () => {
      for (const line of ['const REFRESH_TOKEN = "refresh_token";', 'PASSWORD: "password",', 'AUTHORIZATION: "authorization",',
        'const AcquireTokenByRefreshToken = "acquireTokenByRefreshToken";', 'GetToken: "GetToken",', "token: 'mock-token'",
        "clientSecret: 'client-secret'", "'X-TOKEN-SECRET': 'SuperSecretToken'", 'TOKEN: "TOKEN_STRING"',
        'password: "[type=password]"', 'type ArrowToken = ArrowToken$1;', 'submitPassword: SIGN_IN_V2_SUBMIT_PASSWORD,',
        '$token = Get-AzAccessToken @params', 'token: oauth2Token,', '"authorization": "Bearer token"',
        'Authorization: Bearer YOUR_TOKEN', '--env KEY=VALUE', 'API_KEY=YOUR_API_KEY']) same(line);
    });

    it('keywords inside longer words or followed by more identifier', () => {
      for (const line of ['monkey=bananas123', 'bypass=abcdefgh123', 'oauth=abcdefgh123', 'password_hash = "abcdefgh123"',
        'tokenizer = "abcdefgh123"', 'tokenUrl: "https://x.y/abcdefgh"', 'keyboard=us', 'passwords: ["abcdefgh123"]',
        'token_type: "abcdefgh123"', 'KEYBOARD_LAYOUT=us', 'MONKEY=bananas123', 'author: abcdefgh123']) same(line);
    });

    it('an unquoted all-lowercase passphrase of 12+ letters is redacted; shorter letter words are taken for identifiers', () => {
      becomes('password: mysecretpassword', 'password: [REDACTED]');
      becomes('db_password=hunterhunterhunter', 'db_password=[REDACTED]');
      // Documented limitation: a shorter all-letters value reads like an identifier and is left.
      same('db_password=hunterhunt');
      same('password: userPasswordFromTheEnvironment');
    });
  });
});
