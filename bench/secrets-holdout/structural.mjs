// Secrets recognised by structure rather than by a token prefix: private keys, JWTs, credentials
// inside URLs and connection strings, passwords on command lines, HTTP authorisation headers and the
// credential files tools write. Each plant carries the needles that must not survive scrubbing.
import { Buffer } from 'node:buffer';
import { jwt } from './formats.mjs';
import { ALNUM, LOWER_NUM } from './random.mjs';

/** Passwords as people choose them for services: mixed classes, some symbols, 14–28 characters. */
export function password(r) {
  const body = r.str(`${ALNUM}!@#%^*_-+.`, r.range(14, 28));
  return /[0-9]/.test(body) ? body : `${body}7`;
}

/** Keyed formats with no prefix at all: what decides is the key name and the value's shape. */
export const GENERIC_FORMATS = [
  { id: 'generic-db-password', key: 'DB_PASSWORD', gen: password, prefixed: false },
  { id: 'generic-admin-password', key: 'ADMIN_PASSWORD', gen: password, prefixed: false },
  { id: 'generic-smtp-password', key: 'SMTP_PASS', gen: password, prefixed: false },
  { id: 'generic-api-secret', key: 'API_SECRET', gen: (r) => r.alnum(40), prefixed: false },
  { id: 'generic-client-secret', key: 'OAUTH_CLIENT_SECRET', gen: (r) => r.str(`${ALNUM}-_`, 48), prefixed: false },
  { id: 'session-secret-hex', key: 'SESSION_SECRET', gen: (r) => r.hex(64), prefixed: false },
  { id: 'jwt-signing-secret', key: 'JWT_SECRET', gen: (r) => r.b64(32), prefixed: false },
  { id: 'encryption-key-b64', key: 'ENCRYPTION_KEY', gen: (r) => `base64:${r.b64(32)}`, prefixed: false },
  { id: 'django-secret-key', key: 'DJANGO_SECRET_KEY', gen: (r) => `django-insecure-${r.str(`${LOWER_NUM}!@#$%^&*(-_=+)`, 50)}`, prefixed: false },
  { id: 'rails-secret-key-base', key: 'SECRET_KEY_BASE', gen: (r) => r.hex(128), prefixed: false },
  { id: 'webhook-signing-secret', key: 'WEBHOOK_SECRET', gen: (r) => r.alnum(32), prefixed: false },
  { id: 'redis-password', key: 'REDIS_PASSWORD', gen: password, prefixed: false },
  { id: 'keystore-password', key: 'KEYSTORE_PASSWORD', gen: password, prefixed: false },
];

const PEM_KINDS = [
  ['pem-rsa-pkcs1', 'RSA PRIVATE KEY', 'MIIEpAIBAAKCAQEA', 1190],
  ['pem-pkcs8', 'PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ', 1210],
  ['pem-ec', 'EC PRIVATE KEY', 'MHcCAQEEI', 160],
  ['pem-openssh', 'OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 330],
  ['pem-dsa', 'DSA PRIVATE KEY', 'MIIBuwIBAAKBgQD', 600],
  ['pem-encrypted-pkcs8', 'ENCRYPTED PRIVATE KEY', 'MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI', 1250],
  ['pgp-private-block', 'PGP PRIVATE KEY BLOCK', 'lQVYBGV', 2400],
];

function pemBody(r, start, length) {
  const b64 = start + r.b64(Math.ceil(length * 0.75)).slice(0, length - start.length);
  return b64.match(/.{1,64}/g);
}

function pemPlants(r) {
  const out = [];
  for (const [id, label, start, length] of PEM_KINDS) {
    const lines = pemBody(r, start, length);
    const block = [`-----BEGIN ${label}-----`, ...(id === 'pgp-private-block' ? ['', ...lines, `=${r.b64(3)}`] : lines), `-----END ${label}-----`];
    const needles = [lines[1], lines[Math.floor(lines.length / 2)], lines[lines.length - 2]];
    out.push({ format: id, syntax: 'pem-raw', text: block.join('\n'), needles });
    out.push({ format: id, syntax: 'pem-json-escaped', text: `  "private_key": "${block.join('\\n')}\\n",`, needles });
    out.push({ format: id, syntax: 'pem-yaml-block', text: `    tls_key: |\n${block.map((l) => `      ${l}`).join('\n')}`, needles });
    out.push({ format: id, syntax: 'pem-env-escaped', text: `PRIVATE_KEY="${block.join('\\n')}"`, needles });
    const der = Buffer.from(block.join('\n')).toString('base64');
    out.push({ format: id, syntax: 'kubeconfig-client-key-data', text: `    client-key-data: ${der}`, needles: [der.slice(40, 120)] });
  }
  return out;
}

function jwtPlants(r) {
  const syntaxes = [
    ['jwt-bearer-header', (t) => `Authorization: Bearer ${t}`],
    ['jwt-cookie', (t) => `Cookie: theme=dark; session=${t}; lang=en`],
    ['jwt-url', (t) => `GET /callback?state=xyz&id_token=${t} HTTP/1.1`],
    ['jwt-env', (t) => `ACCESS_TOKEN=${t}`],
    ['jwt-json', (t) => `{"access_token":"${t}","token_type":"Bearer","expires_in":3600}`],
    ['jwt-bare-log', (t) => `2026-11-26 10:12:01,332 DEBUG auth: verified ${t}`],
    ['jwt-kube-token', (t) => `    token: ${t}`],
  ];
  return syntaxes.map(([syntax, render]) => { const t = jwt(r); return { format: 'jwt', syntax, text: render(t), needles: [t.split('.')[2], t] }; });
}

function urlPlants(r) {
  const user = () => r.pick(['admin', 'app', 'deploy', 'svc_orders', 'postgres', 'root', 'ci-bot']);
  const host = () => r.pick(['db.internal.acme.io', '10.0.3.17', 'prod-cluster.abc123.us-east-1.rds.amazonaws.com', 'cache.acme.net', 'localhost']);
  const defs = [
    ['dsn-postgres', (p) => `DATABASE_URL=postgres://${user()}:${p}@${host()}:5432/orders?sslmode=require`],
    ['dsn-postgresql-log', (p) => `[prisma] connecting to postgresql://${user()}:${p}@${host()}/app`],
    ['dsn-mysql', (p) => `  url: mysql://${user()}:${p}@${host()}:3306/shop`],
    ['dsn-mongodb-srv', (p) => `MONGO_URI="mongodb+srv://${user()}:${p}@cluster0.ab1cd.mongodb.net/app?retryWrites=true"`],
    ['dsn-redis', (p) => `"redisUrl": "redis://:${p}@${host()}:6379/0",`],
    ['dsn-rediss-user', (p) => `REDIS_URL=rediss://default:${p}@${host()}:6380`],
    ['dsn-amqp', (p) => `broker_url = "amqp://${user()}:${p}@${host()}:5672//"`],
    ['dsn-smtp', (p) => `EMAIL_URL=smtp://mailer:${p}@smtp.example.com:587`],
    ['dsn-ftp', (p) => `Connecting to ftp://${user()}:${p}@files.example.com/upload`],
    ['url-https-basic', (p) => `remote: https://${user()}:${p}@git.example.com/acme/api.git`],
    ['url-git-credentials', (p) => `https://oauth2:${p}@gitlab.com`],
    ['jdbc-password-param', (p) => `spring.datasource.url=jdbc:postgresql://${host()}:5432/app?user=app&password=${p}`],
    ['odbc-connection-string', (p) => `"DefaultConnection": "Server=${host()};Database=Sales;User Id=sa;Password=${p};TrustServerCertificate=True"`],
    ['azure-storage-connection', () => { const k = r.b64(64); return [`AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${k};EndpointSuffix=core.windows.net`, k]; }],
    ['azure-servicebus-connection', () => { const k = r.b64(32); return [`Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${k}`, k]; }],
    ['azure-sas-url', () => { const s = encodeURIComponent(r.b64(32)); return [`https://acmeprod.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=rwdlac&se=2027-01-01T00:00:00Z&sig=${s}`, s]; }],
    ['cloudinary-url', () => { const s = r.str(`${ALNUM}-_`, 27); return [`CLOUDINARY_URL=cloudinary://${r.digits(15)}:${s}@acme`, s]; }],
  ];
  return defs.map(([syntax, render]) => {
    const p = password(r).replace(/[@/:?#%+]/g, 'x');
    const res = render(p);
    const [text, needle] = Array.isArray(res) ? res : [res, p];
    return { format: 'url-credentials', syntax, text, needles: [needle] };
  });
}

function cliPlants(r) {
  const defs = [
    ['mysql-p-attached', (p) => `$ mysql -h db.internal -u root -p${p} shop`],
    ['mysql-password-eq', (p) => `mysqldump --user=backup --password=${p} --all-databases > all.sql`],
    ['psql-conninfo', (p) => `psql "host=db.internal port=5432 dbname=app user=app password=${p} sslmode=require"`],
    ['pgpassword-prefix', (p) => `PGPASSWORD=${p} pg_dump -h db.internal -U app app > app.sql`],
    ['curl-u', (p) => `curl -u deploy:${p} https://ci.example.com/api/json`],
    ['curl-user-long', (p) => `curl --user "admin:${p}" -X POST https://registry.example.com/v2/token`],
    ['sshpass', (p) => `sshpass -p '${p}' ssh deploy@10.0.4.12 uptime`],
    ['docker-login-p', (p) => `docker login -u ci -p ${p} registry.example.com`],
    ['htpasswd-b', (p) => `htpasswd -bc .htpasswd admin ${p}`],
    ['redis-cli-a', (p) => `redis-cli -h cache.internal -a ${p} INFO`],
    ['mongosh-p', (p) => `mongosh --host db.internal -u admin -p ${p} --authenticationDatabase admin`],
    ['openssl-passin', (p) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:${p}`],
    ['keytool-storepass', (p) => `keytool -importcert -alias ca -file ca.crt -keystore trust.jks -storepass ${p} -noprompt`],
    ['zip-P', (p) => `zip -P ${p} -r backup.zip data/`],
    ['7z-p', (p) => `7z a -p${p} secrets.7z secrets/`],
    ['wget-password', (p) => `wget --user=ci --password=${p} https://nexus.example.com/repo/app.jar`],
    ['smbclient-U', (p) => `smbclient //fileserver/share -U 'CORP\\svc_backup%${p}'`],
    ['net-use', (p) => `net use \\\\fileserver\\share /user:CORP\\svc ${p}`],
    ['ldapsearch-w', (p) => `ldapsearch -x -H ldaps://ldap.acme.io -D "cn=admin,dc=acme,dc=io" -w ${p} "(uid=jdoe)"`],
    ['az-login-sp', (p) => `az login --service-principal -u 8f1c9e2a-0000-4000-8000-000000000001 -p ${p} --tenant acme.onmicrosoft.com`],
    ['client-secret-flag', (p) => `./oauth-tool token --client-id web --client-secret ${p}`],
    ['git-clone-token-url', (p) => `git clone https://x-access-token:${p}@github.com/acme/private.git`],
    ['rabbitmqctl', (p) => `rabbitmqctl add_user app ${p}`],
    ['sqlcmd-P', (p) => `sqlcmd -S tcp:db.internal,1433 -U sa -P ${p} -Q "SELECT 1"`],
  ];
  return defs.map(([syntax, render]) => { const p = password(r).replace(/['"\\%@:/]/g, 'q'); return { format: 'cli-password', syntax, text: render(p), needles: [p] }; });
}

function credentialFilePlants(r, tokenOf) {
  const npm = tokenOf('npm-token');
  const gh = tokenOf('github-pat-classic');
  const pypi = tokenOf('pypi-token');
  const basic = Buffer.from(`ci-bot:${password(r)}`).toString('base64');
  const dockerAuth = Buffer.from(`acme:${tokenOf('docker-hub-pat')}`).toString('base64');
  const pw = password(r).replace(/[<>&]/g, 'z');
  return [
    { format: 'npmrc-auth-token', syntax: 'npmrc', text: `//registry.npmjs.org/:_authToken=${npm}`, needles: [npm] },
    { format: 'npmrc-auth-basic', syntax: 'npmrc', text: `_auth=${basic}`, needles: [basic] },
    { format: 'netrc', syntax: 'netrc', text: `machine github.com login octocat password ${gh}`, needles: [gh] },
    { format: 'pypirc', syntax: 'pypirc', text: `[pypi]\nusername = __token__\npassword = ${pypi}`, needles: [pypi] },
    { format: 'docker-config-auth', syntax: 'docker-config-json', text: `\t\t"https://index.docker.io/v1/": {\n\t\t\t"auth": "${dockerAuth}"\n\t\t}`, needles: [dockerAuth] },
    { format: 'maven-settings-password', syntax: 'xml-element', text: `      <password>${pw}</password>`, needles: [pw] },
    { format: 'http-basic-auth', syntax: 'http-header', text: `Authorization: Basic ${basic}`, needles: [basic] },
    { format: 'http-proxy-basic-auth', syntax: 'http-header', text: `Proxy-Authorization: Basic ${basic}`, needles: [basic] },
    { format: 'cookie-session', syntax: 'http-set-cookie', text: `< Set-Cookie: __Host-session=${r.str(`${ALNUM}-_`, 48)}; Path=/; Secure; HttpOnly`, needles: [] },
  ].map((p) => (p.format === 'cookie-session' ? { ...p, needles: [p.text.split('=')[1].split(';')[0]] } : p));
}

export function structuralPlants(r, tokenOf) {
  return [...pemPlants(r), ...jwtPlants(r), ...urlPlants(r), ...cliPlants(r), ...credentialFilePlants(r, tokenOf)];
}
