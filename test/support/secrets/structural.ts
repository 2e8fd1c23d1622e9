// Secrets recognised by where they stand rather than by a key or a prefix: credentials in URLs
// and connection strings, CLI flags, .npmrc, Authorization headers, JWTs, PEM private keys.
import { type Rand } from './random';

export interface StructuralSecret {
  readonly id: string;
  readonly text: string;
  readonly secret: string;
}

type Row = [id: string, make: (secret: string) => string, secret: (r: Rand) => string];

const pw = (r: Rand): string => `${r.an(10)}${r.pick(['!', '%', '-', '_', '~'])}${r.digits(3)}`;
const jwt = (r: Rand): string => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${r.b64u(60)}.${r.b64u(43)}`;

const ONE_LINE: Row[] = [
  ['url-postgres', (s) => `DATABASE: postgres://app:${s}@db.internal:5432/app?sslmode=require`, pw],
  ['url-mysql', (s) => `connecting to mysql://root:${s}@10.0.3.7:3306/shop`, pw],
  ['url-mongodb-srv', (s) => `  uri: "mongodb+srv://svc-api:${s}@cluster0.ab12c.mongodb.net/prod?retryWrites=true"`, pw],
  ['url-redis', (s) => `redis.connect redis://:${s}@cache.internal:6379/0`, pw],
  ['url-amqp', (s) => `broker_url = amqp://guest:${s}@rabbit:5672//`, pw],
  ['url-git-https', (s) => `remote: https://deploy:${s}@git.example.com/acme/app.git`, pw],
  ['url-ftp', (s) => `lftp ftp://upload:${s}@ftp.example.com/incoming`, pw],
  ['url-smtp', (s) => `MAIL_URL smtp://mailer:${s}@smtp.example.com:587`, pw],
  ['jdbc', (s) => `spring.datasource.url=jdbc:postgresql://db:5432/app?user=app&password=${s}`, pw],
  ['ado-net', (s) => `"Default": "Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password=${s};Encrypt=true"`, pw],
  ['npmrc-authtoken', (s) => `//registry.npmjs.org/:_authToken=${s}`, (r) => r.uuid()],
  ['npmrc-github', (s) => `//npm.pkg.github.com/:_authToken=${s}`, (r) => `ghp_${r.an(36)}`],
  ['npmrc-auth', (s) => `_auth=${s}`, (r) => Buffer.from(`ci:${pw(r)}`).toString('base64')],
  ['curl-user', (s) => `curl -sS -u admin:${s} https://jenkins.example.com/api/json`, pw],
  ['curl-user-long', (s) => `curl --user ci-bot:${s} -X POST https://api.example.com/hooks`, pw],
  ['mysql-p', (s) => `mysql -h db.internal -u root -p${s} shop < dump.sql`, pw],
  ['mysqldump-p', (s) => `mysqldump -uroot -p${s} --single-transaction shop > backup.sql`, pw],
  ['flag-password', (s) => `redis-cli --password ${s} -h cache ping`, pw],
  ['flag-token', (s) => `vault login --token ${s}`, (r) => `hvs.${r.b64u(90)}`],
  ['flag-token-opaque', (s) => `deploy --token ${s} --env prod`, (r) => r.an(40)],
  ['header-basic', (s) => `> Authorization: Basic ${s}`, (r) => Buffer.from(`svc:${pw(r)}`).toString('base64')],
  ['header-bearer', (s) => `-H "Authorization: Bearer ${s}"`, (r) => r.an(48)],
  ['header-api-key', (s) => `X-Api-Key: ${s}`, (r) => r.an(32)],
  ['jwt-bare', (s) => `set-cookie: session=${s}; Path=/; HttpOnly`, jwt],
  ['jwt-json', (s) => `{"access_token":"${s}","expires_in":3600}`, jwt],
  ['docker-config-auth', (s) => `      "auth": "${s}"`, (r) => Buffer.from(`bot:${pw(r)}`).toString('base64')],
  ['k8s-secret-data', (s) => `  password: ${s}`, (r) => Buffer.from(pw(r)).toString('base64')],
  ['git-credential-url', (s) => `url=https://oauth2:${s}@gitlab.com/acme/app.git`, (r) => `glpat-${r.b64u(20)}`],
  ['query-token', (s) => `GET /export?access_token=${s}&format=csv HTTP/1.1`, (r) => r.an(40)],
  ['sshpass-flag', (s) => `deploy-tool --ssh-password ${s} host1`, pw],
];

const PEM_KINDS = ['RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'DSA PRIVATE KEY',
  'PGP PRIVATE KEY BLOCK'];

export function structuralSecrets(r: Rand): StructuralSecret[] {
  return ONE_LINE.map(([id, make, secret]) => {
    const s = secret(r);
    return { id, text: make(s), secret: s };
  });
}

/** Multi-line PEM keys; the secret checked is each body line. */
export function pemSecrets(r: Rand): { id: string; text: string; secrets: string[] }[] {
  return PEM_KINDS.map((kind) => {
    const body = Array.from({ length: 6 }, () => r.b64(64));
    return { id: `pem-${kind.toLowerCase().replace(/ /g, '-')}`, text: [`-----BEGIN ${kind}-----`, ...body, `-----END ${kind}-----`].join('\n'), secrets: body };
  });
}
