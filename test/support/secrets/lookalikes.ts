// Lines that look like secrets and are not: placeholders, masks, references, digests, ids,
// identifiers sharing a vendor prefix, key-named settings with ordinary values, base64 of
// non-secrets, ordinary code naming secrets. Scrubbing must leave every one unchanged.
import { type Rand } from './random';
import { SYNTAXES } from './syntaxes';

const PLACEHOLDERS = ['<your-token>', '<YOUR_API_KEY>', 'YOUR_API_KEY_HERE', 'your-secret-here', 'changeme', 'change_me', 'EXAMPLE',
  'REPLACE_ME', '********', '****************', 'xxxxxxxxxxxxxxxx', 'XXXXXXXXXXXXXXXXXXXX', '${API_TOKEN}', '${{ secrets.NPM_TOKEN }}',
  '{{ .Values.apiKey }}', '{{ api_key }}', '$API_KEY', '%API_KEY%', 'process.env.API_KEY', 'os.environ["API_KEY"]',
  '<redacted>', '[REDACTED]', 'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'AKIAXXXXXXXXXXXXXXXX', 'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx', 'xoxb-xxxxxxxxxxxx-xxxxxxxxxxxx', 'dummy-password', 'placeholder',
  'not-set', 'your_password', 'ExampleToken', 'test-token', '#{DB_PASSWORD}', '@{apiKey}', 'op://vault/item/password'];

/** Key-named settings whose values are plainly not secrets. */
const SETTINGS = ['KEY_FORMAT=pem', 'CREDENTIAL_PROVIDER=aws-sso-profile', 'PRIVATE_NETWORK_CIDR=10.0.0.0/8', 'TOKEN_TTL=3600',
  'SECRET_NAME=app-secret', 'PASSWORD_MIN_LENGTH=12', 'API_KEY_HEADER=X-Api-Key', 'TOKEN_ENDPOINT=https://auth.example.com/oauth/token',
  'KEY_ALGORITHM=RS256', 'PASSWORD_POLICY=strict', 'TOKEN_AUDIENCE=api://default', 'SECRET_BACKEND=vault', 'KEY_ROTATION_DAYS=90',
  'CREDENTIALS_FILE=~/.aws/credentials', 'PRIVATE_REGISTRY=registry.internal:5000', 'AUTH_MODE=oauth2', 'TOKEN_TYPE=Bearer',
  'SSH_KEY_PATH=/home/dev/.ssh/id_ed25519', 'KEY_VAULT_NAME=kv-prod-weu', 'SECRET_STORE=aws-secretsmanager', 'TOKEN_EXPIRY=15m',
  'PRIVATE_SUBNET_IDS=subnet-0a1b2c,subnet-3d4e5f', 'PASSWORD_RESET_URL=https://app.example.com/reset', 'API_KEY_ENABLED=true',
  'sort_key: created_at', 'partition_key: tenant_id', 'cache_key: user:123:profile', 'primary_key: id', 'key_name: deploy-2024',
  'token_type: Bearer', 'password_hash_algorithm: argon2id', 'secret_type: Opaque', 'foreign_key: orders.user_id',
  'storage_account_key_name: key1', 'encryption_key_id: alias/app-prod', 'signingKeyId: "kid-2024-05"', 'publishableKey: "pk_test_TYooMQauvdEDq54NiTphI7jx"'];

/** Ordinary code and commands that name secrets. */
const CODE = ['password = request.form["password"]', 'if token is None:', 'const apiKey = config.get("apiKey");', 'token: string;',
  'secret := os.Getenv("SECRET")', 'String pw = System.getProperty("db.password");', '<password>${DB_PASSWORD}</password>',
  'echo "$REGISTRY_TOKEN" | docker login -u ci --password-stdin registry.example.com', 'mysql -u root -p', 'mysql -u root -p -h db',
  'curl -u "$USER:$PASS" https://api.example.com', 'docker run -u 1000:1000 node:20', 'git push -u origin main',
  'mkdir -p build/output && cc -pthread -pipe -o app main.c', 'sort -u names.txt', 'self.password = password',
  'def verify_token(token: str) -> bool:', 'tokens = tokenizer.encode(text)', 'hf_requiredCharacteristicsForModelLoading = []',
  'api_org_settings_panel = OrgSettingsPanel()', 'test_shouldReturnTheUserWhenEmailIsValid()', 'live_reload_enabled = True',
  'key-value-store-configuration: enabled', 'secret_santa_assignments.append(pair)', 'npm_config_cache=/home/dev/.npm',
  'const skLearnCompat = require("sk-learn-compat");', 'System.setProperty("javax.net.ssl.trustStore", "/etc/pki/truststore.jks");',
  '<add key="ClientValidationEnabled" value="true" />', '<add key="PasswordLength" value="12" />', 'gh auth token --hostname github.com',
  'kubectl create secret generic app --from-file=./secrets.env', 'password_field = forms.CharField(widget=forms.PasswordInput)',
  'auth: { type: "oauth2", flow: "authorizationCode" }', 'Authorization: Bearer ${token}', 'headers["Authorization"] = f"Bearer {token}"'];

export function lookalikeLines(r: Rand): string[] {
  const lines: string[] = [...SETTINGS, ...CODE];
  const keys = ['API_KEY', 'DB_PASSWORD', 'GITHUB_TOKEN', 'CLIENT_SECRET', 'STRIPE_SECRET_KEY'];
  for (const p of PLACEHOLDERS) {
    for (const s of SYNTAXES) {
      if (s.id === 'repeated' || (/[\s"']/.test(p) && !/yaml-quoted|json|toml|xml|php|go|java|python|typescript/.test(s.id))) continue;
      lines.push(s.line(r.pick(keys), p, r));
    }
  }
  const hex = (n: number): string => r.hex(n);
  for (let i = 0; i < 40; i++) {
    lines.push(`commit ${hex(40)}`, `sha256:${hex(64)}`, `"integrity": "sha512-${r.b64(86)}=="`, `request_id=${r.uuid()}`,
      `digest: sha256:${hex(64)}`, `Content-MD5: ${r.b64(22)}==`, `etag: "${hex(32)}"`, `trace_id=${hex(32)} span_id=${hex(16)}`,
      `  "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.${i}.0.tgz",`,
      `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${r.b64(20)}`,
      `  "payload": "${Buffer.from(`hello world this is a test message number ${i}`).toString('base64')}",`,
      `Merge: ${hex(7)} ${hex(7)}`, `image: ghcr.io/acme/api@sha256:${hex(64)}`);
  }
  return lines;
}
