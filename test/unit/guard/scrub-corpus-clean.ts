// Realistic text with no secret in it: source code that only NAMES secrets, digests, ids, logs.
// Scrubbing each must return it byte for byte; a `[REDACTED]` here would break editing through an agent.

export interface CleanCase {
  readonly name: string;
  readonly text: string;
}

const hex = (seed: number, n: number): string => {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += '0123456789abcdef'[x % 16];
  }
  return s;
};
const b64 = (seed: number, n: number): string => {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(x >> 8) % 64];
  }
  return s;
};

export const CLEAN_CASES: readonly CleanCase[] = [
  {
    name: 'the spec false positives',
    text: ['monkey=bananas123', 'token: string', 'const token = getToken();', 'password: req.body.password', 'apiKey: config.apiKey',
      'if (token === undefined) return;', 'secret = process.env.SECRET', 'headers.Authorization = `Bearer ${token}`;',
      'Authorization: `Bearer ${token}`,', 'user.password_hash', 'const tokenizer = new Tokenizer();', 'keyboard=us',
      `sha256: ${hex(1, 64)}`, `sha512: ${hex(2, 128)}`, ''].join('\n'),
  },
  {
    name: 'TypeScript source',
    text: ['import { z } from "zod";', '', 'export interface Credentials {', '  apiKey: string;', '  token?: string;',
      '  password: string | undefined;', '  secret: Buffer', '}', '',
      'const schema = z.object({ password: z.string().min(8), token: z.string().optional() });', '',
      'export async function login(req: Request, res: Response): Promise<void> {',
      '  const { username, password } = req.body as { username: string; password: string };',
      '  const apiKey = process.env.OPENAI_API_KEY ?? config.openai.apiKey;',
      '  const secretKey = crypto.randomBytes(32);', '  const [token, setToken] = useState<string | null>(null);',
      '  const user = await db.users.findOne({ username, password: await hash(password, 10) });',
      '  if (!token) throw new Error("missing token");', '  const accessToken = this.tokens.get(user.id)!;',
      '  const auth = { user: username, pass: process.env.SMTP_PASS };', '  const opts = { credentials: "same-origin", token };',
      '  res.setHeader("Authorization", `Bearer ${accessToken}`);', '  headers["x-api-key"] = apiKey;',
      '  const password2 = password;', '  return next({ ...token });', '}',
      'export const TOKEN_TTL_MS = 3_600_000;', 'tokens.forEach((token) => revoke(token));', 'const cb = (token) => token.trim();',
      'type Secret = { secret: SecretValue };', 'const { secret = defaultSecret } = options;', 'secret ??= loadSecret();', ''].join('\n'),
  },
  {
    name: 'Python source',
    text: ['import os', 'from transformers import AutoTokenizer', '',
      'def authenticate(self, username: str, password: str) -> bool:', '    token = request.headers.get("Authorization", "")',
      '    api_key = os.environ.get("API_KEY")', '    secret_key = settings.SECRET_KEY', '    password = input("Password: ")',
      '    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")', '    max_tokens = 4096',
      '    client = OpenAI(api_key=os.environ["OPENAI_API_KEY"])', '    if password is None or token == "":',
      '        raise ValueError("password and token are required")', '    password_hash = bcrypt.hashpw(password, salt)',
      '    return check(password=password, token=token)', ''].join('\n'),
  },
  {
    name: 'Go source',
    text: ['type Config struct {', '\tToken    string `json:"token" yaml:"token"`', '\tPassword string `json:"password,omitempty"`',
      '}', '', 'func load() (*Config, error) {', '\ttoken := os.Getenv("GITHUB_TOKEN")', '\tcfg.Password = os.Getenv("DB_PASSWORD")',
      '\tif token == "" {', '\t\treturn nil, errors.New("GITHUB_TOKEN is not set")', '\t}', '\ttoken, err := auth.NewToken(ctx)',
      '\tsecret := []byte(cfg.Secret)', '\treturn &Config{Token: token, Password: cfg.Password}, nil', '}', ''].join('\n'),
  },
  {
    name: 'shell script and CI workflow',
    text: ['#!/usr/bin/env bash', 'set -euo pipefail', 'export AWS_PROFILE=dev', 'TOKEN=$(gh auth token)',
      'API_KEY="${API_KEY:-}"', '[ -z "$API_KEY" ] && echo "API_KEY is not set" >&2', 'read -rsp "Password: " PASSWORD',
      'echo "$PASSWORD" | docker login -u "$USER" --password-stdin registry.example.com',
      'curl -fsSL -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me', 'DB_PASSWORD_FILE=/run/secrets/db_password',
      'steps:', '  - uses: actions/checkout@v4', '    with:', '      token: ${{ secrets.GITHUB_TOKEN }}',
      '      password: ${{ secrets.DOCKER_PASSWORD }}', ''].join('\n'),
  },
  {
    name: 'lockfiles with integrity hashes',
    text: ['"node_modules/zod": {', '  "version": "4.1.5",', '  "resolved": "https://registry.npmjs.org/zod/-/zod-4.1.5.tgz",',
      `  "integrity": "sha512-${b64(3, 86)}=="`, '},', `zod@^4.1.5:`, `  integrity sha512-${b64(4, 86)}==`,
      `github.com/pkg/errors v0.9.1 h1:${b64(5, 43)}=`, `requests==2.31.0 --hash=sha256:${hex(6, 64)}`, ''].join('\n'),
  },
  {
    name: 'git log and docker output',
    text: [`commit ${hex(7, 40)}`, 'Author: Dev Person <dev@example.com>', 'Date:   Tue May 14 10:21:00 2024 +0200', '',
      '    fix(auth): refresh the token before it expires', '', `    Signed-off-by: Dev Person <dev@example.com>`, '',
      'REPOSITORY   TAG     DIGEST                                                                    IMAGE ID',
      `postgres     16      sha256:${hex(8, 64)}   ${hex(9, 12)}`, `Digest: sha256:${hex(10, 64)}`,
      `Status: Downloaded newer image for redis@sha256:${hex(11, 64)}`, ''].join('\n'),
  },
  {
    name: 'logs with UUIDs and ids',
    text: ['2024-05-14T10:21:07.123Z INFO  [worker-3] request_id=550e8400-e29b-41d4-a716-446655440000 status=200 in 12ms',
      '2024-05-14T10:21:07.456Z INFO  trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7',
      '2024-05-14T10:21:08.001Z DEBUG token refreshed for session 7d444840-9dc0-11d1-b245-5ffdce74fad2 (ttl=3600)',
      '2024-05-14T10:21:08.002Z INFO  GET https://api.example.com/v1/users?page=2&limit=50&sort=-created_at 200',
      '2024-05-14T10:21:08.003Z INFO  connected to postgres://db.internal:5432/app as app', 'NAME                    TYPE                                  DATA   AGE',
      'default-token-x2v9k     kubernetes.io/service-account-token   3      10d', ''].join('\n'),
  },
  {
    name: 'YAML and JSON without secrets',
    text: ['apiVersion: apps/v1', 'kind: Deployment', 'spec:', '  template:', '    spec:', '      containers:', '        - name: app',
      `          image: ghcr.io/acme/app@sha256:${hex(12, 64)}`, '          env:', '            - name: DB_PASSWORD',
      '              valueFrom:', '                secretKeyRef:', '                  name: db-credentials', '                  key: password',
      '{"token_type":"Bearer","expires_in":3600,"scope":"read write","tokenUrl":"https://auth.example.com/token"}',
      '{"password": "Passwort", "token": "Jeton", "secret": "Geheimnis"}', ''].join('\n'),
  },
];
