// Lines that look like secrets and are not: placeholders, masks, digests, UUIDs, identifiers that
// share a token's prefix, public keys, and settings whose NAME says key/token/secret/password but
// whose value is plainly ordinary. A scrubber must leave every one of them exactly as it was.
import { LOWER_NUM } from './random.mjs';

const PLACEHOLDERS = [
  'GITHUB_TOKEN=<your-github-token>', 'OPENAI_API_KEY=sk-...', 'OPENAI_API_KEY="sk-your-key-here"', 'api_key: YOUR_API_KEY',
  'STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx', 'password: changeme', 'DB_PASSWORD=${DB_PASSWORD}', 'token: {{ .Values.apiToken }}',
  'NPM_TOKEN: ${{ secrets.NPM_TOKEN }}', 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'password=********', 'token=[REDACTED]', 'apiKey: "<redacted>"', 'GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'secret = %(SECRET)s',
  'DB_PASSWORD=$(cat /run/secrets/db_password)', 'password: !vault |', 'apiKey: process.env.API_KEY,', 'token = os.environ["GITHUB_TOKEN"]',
  'token: null', 'password: ""', 'API_KEY=', 'Authorization: Bearer <token>', 'Authorization: Basic <credentials>', 'SLACK_BOT_TOKEN=xoxb-your-bot-token',
  'HF_TOKEN=hf_xxx', 'ANTHROPIC_API_KEY=sk-ant-...', 'export AWS_SECRET_ACCESS_KEY=<secret>', 'DATABASE_URL=postgres://user:password@localhost:5432/dbname',
  'REDIS_URL=redis://localhost:6379', 'MONGO_URI=mongodb://localhost:27017/test', 'password: "{{ vault_db_password }}"', 'client_secret: REPLACE_ME',
  '$password = getenv(\'DB_PASSWORD\');', 'System.setProperty("db.password", System.getenv("DB_PASSWORD"));', 'apiKey := os.Getenv("API_KEY")',
  '<add key="ApiKey" value="#{ApiKey}#" />', 'SECRET_KEY ?= $(shell cat .secret)', "    'password' => env('DB_PASSWORD'),", 'token: "TODO"',
  'password: "<%= ENV[\'DB_PASSWORD\'] %>"', 'SENDGRID_API_KEY=SG.xxxxxxxx.yyyyyyyy', 'mysql -u root -p', 'docker login --password-stdin < token.txt',
  'curl -u "$USER:$TOKEN" https://api.example.com', 'PGPASSWORD=$PGPASSWORD psql -h localhost', 'git clone https://github.com/acme/public.git',
  'key: ${file(./secrets.json):apiKey}', 'password = ${var.db_password}', 'token: !Ref ApiToken', 'password: dummy', 'password: password',
  'API_KEY=test', 'SECRET_KEY=dev', 'JWT_SECRET=secret', 'password: example', 'api_key = "EXAMPLE"',
];

const MASKS = (r) => [
  `GITHUB_TOKEN=ghp_${'*'.repeat(32)}${r.alnum(4)}`, `Using key sk-...${r.hex(4)}`, `aws_access_key_id: AKIA************${r.str('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4)}`,
  `token: 'sk_live_...${r.digits(4)}'`, `password: ${'•'.repeat(12)}`, `API key ending in ${r.alnum(4)} was rotated`, `Authorization: Bearer ***`,
  `npm notice token npm_****${r.alnum(4)} revoked`, `secret: "${'x'.repeat(r.range(16, 40))}"`, `DB_PASSWORD=${'#'.repeat(10)}`,
];

const SETTINGS = [
  'KEY_FORMAT=pem', 'TOKEN_TTL=3600', 'PASSWORD_MIN_LENGTH=12', 'SECRET_BACKEND=vault', 'api_key_header: X-API-Key', 'token_endpoint: https://oauth2.googleapis.com/token',
  'AUTH_TYPE=oauth2', 'CREDENTIAL_PROVIDER=aws-sso-profile', 'PRIVATE_NETWORK_CIDR=10.0.0.0/8', 'SECRET_NAME=prod/db/password', 'password_file: /run/secrets/db_password',
  'keyFile: ./certs/server.key', 'SSH_KEY_PATH=~/.ssh/id_ed25519', 'JWT_ALGORITHM=RS256', 'JWT_EXPIRES_IN=15m', 'API_KEY_ROTATION_DAYS=90', '"passwordPolicy": "strong",',
  'secretsManager: enabled', 'ENCRYPTION_KEY_ID=alias/app-key', 'PASSWORD_HASH_ALGO=argon2id', 'session_secret_length: 64', 'api_key_required: true',
  '"prompt_tokens": 1532,', 'max_tokens=4096', 'token_type=bearer', 'tokenizer: "bert-base-uncased"', 'git_credential_helper=osxkeychain', 'SECRET_STORE=aws-secretsmanager',
  'private_key_path = "/etc/ssl/private/app.key"', 'AWS_PROFILE=dev-readonly', 'AWS_REGION=eu-west-1', 'KEY_VAULT_NAME=acme-kv-dev', 'access_token_lifetime: 900',
  '<add key="PasswordExpiryDays" value="90" />', 'spring.security.oauth2.client.registration.github.scope=read:user', 'token.refresh.enabled=true',
  'System.setProperty("javax.net.ssl.keyStoreType", "PKCS12");', 'PASSWORD_RESET_URL := https://app.example.com/reset', '$tokenExpiry = 3600;',
  'const passwordRegex = /^(?=.*[A-Z]).{12,}$/;', 'apiKeyName := "x-api-key"', 'secret_rotation_schedule = "rate(30 days)"', 'CACHE_KEY_PREFIX=app:v2:',
  'primary_key: id', 'foreign_key: user_id', 'sort_key = "created_at"', 'keyboard-layout: us', 'monkey_patch = false', 'passwordless: true',
  'GPG_KEY_ID=0x3AA5C34371567BD2', 'signing_key_id: 8F2E1A0C', 'KEYCLOAK_REALM=acme', 'token_bucket_size: 100', 'secretary: "Jane Doe"',
];

const IDENTIFIERS = [
  'hf_requiredCharacteristicsList = []', 'sk_configurationLoader.load()', 'const ghp_helper_function = () => null;', 'npm_config_cache=/home/dev/.npm',
  'npm_lifecycle_event=test', 'npm_package_version=1.4.2', 'def xoxb_handler(event):', 'glpat_rotation_job: scheduled', 'pypi_mirror_url = "https://pypi.org/simple"',
  'sk_learn_pipeline.fit(X, y)', 'AKIAS_COUNT = 3', 'rk_live_reload: true', 'api_org_unit = "engineering"', 'sntry_ignore: ["/health"]', 'dp.pt.enabled=false',
  'shpat_limit: 40', 'whsec_header_name = "Stripe-Signature"', 'lin_api_version: 2024-01', 'ntn_sync_interval: 300', 'pplx_model: "sonar-pro"',
  'secret_santa_participants = 12', 'tokenize(text, max_length=512)', 'PasswordEncoder passwordEncoder = new BCryptPasswordEncoder();',
  'func getAPIKey(ctx context.Context) (string, error) {', 'if (token.expiresAt < Date.now()) refresh();', 'class SecretManagerClient:',
];

function digests(r) {
  return [
    `Digest: sha256:${r.hex(64)}`, `commit ${r.hex(40)}`, `      "integrity": "sha512-${r.b64(64)}",`, `github.com/acme/lib v1.4.2 h1:${r.b64(32)}`,
    `${r.hex(32)}  dist/app.tar.gz`, `ETag: "${r.hex(40)}"`, `${r.hex(64)}  node-v20.11.1-linux-x64.tar.xz`, `Merge: ${r.hex(7)} ${r.hex(7)}`,
    `container_id=${r.hex(64)}`, `image: ghcr.io/acme/api@sha256:${r.hex(64)}`, `"contentHash": "${r.hex(16)}",`, `asset main.${r.hex(8)}.js 412 KiB`,
    `x-amz-request-id: ${r.str('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16)}`, `x-amz-id-2: ${r.b64(48)}`, `"mappings": "AAAA,SAASA,${r.str('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/', 60)}"`,
    `  <img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${r.b64(60)}">`, `revision: ${r.hex(40)}`, `resourceVersion: "${r.digits(8)}"`,
    `go.sum: golang.org/x/net v0.21.0/go.mod h1:${r.b64(32)}`, `blake3: ${r.hex(64)}`, `nonce-${r.b64(16)}`, `subresource: sha384-${r.b64(48)}`,
  ];
}

function uuids(r) {
  return [
    `request_id=${r.uuid()}`, `X-Request-Id: ${r.uuid()}`, `"id": "${r.uuid()}",`, `client_id: ${r.uuid()}`, `AZURE_TENANT_ID=${r.uuid()}`,
    `AZURE_CLIENT_ID=${r.uuid()}`, `subscription: ${r.uuid()}`, `trace_id=${r.hex(32)} span_id=${r.hex(16)}`, `correlationId: "${r.uuid()}"`,
    `pod/api-${r.str(LOWER_NUM, 10)}-${r.str(LOWER_NUM, 5)} 1/1 Running`, `arn:aws:iam::${r.digits(12)}:role/ci-deploy`, `project_number: ${r.digits(12)}`,
  ];
}

function publicMaterial(r) {
  const body = r.b64(256);
  return [
    `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${r.b64(32).slice(0, 43)} dev@laptop`, `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${r.b64(256)} ci@build`,
    `-----BEGIN PUBLIC KEY-----\n${body.match(/.{1,64}/g).join('\n')}\n-----END PUBLIC KEY-----`,
    `-----BEGIN CERTIFICATE-----\nMIID${r.b64(600).match(/.{1,64}/g).join('\n')}\n-----END CERTIFICATE-----`,
    `STRIPE_PUBLISHABLE_KEY=pk_test_${r.alnum(24)}`, `NEXT_PUBLIC_MAPBOX_TOKEN=pk.eyJ1IjoiYWNtZSIsImEiOiJj${r.alnum(20)}`,
    `fingerprint: SHA256:${r.b64(32).replace(/=+$/, '')}`, `gpg: using RSA key ${r.hex(40).toUpperCase()}`,
  ];
}

/** Every look-alike as { kind, text }; `text` may span lines (PEM public material). */
export function lookalikes(r) {
  const out = [];
  for (const t of PLACEHOLDERS) out.push({ kind: 'placeholder', text: t });
  for (const t of SETTINGS) out.push({ kind: 'key-named-setting', text: t });
  for (const t of IDENTIFIERS) out.push({ kind: 'identifier', text: t });
  for (let i = 0; i < 6; i++) {
    for (const t of MASKS(r)) out.push({ kind: 'mask', text: t });
    for (const t of digests(r)) out.push({ kind: 'digest', text: t });
    for (const t of uuids(r)) out.push({ kind: 'uuid-or-id', text: t });
    for (const t of publicMaterial(r)) out.push({ kind: 'public-key-material', text: t });
  }
  return out;
}

