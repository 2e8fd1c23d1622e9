// Realistic tool output with planted secrets. Every string in `secrets` must be gone after scrubbing,
// every string in `kept` must still be there (labels, hosts, users, neighbouring non-secrets).
// The values are fakes in the right shapes (several are the vendors' own documentation examples).

export interface SecretCase {
  readonly name: string;
  readonly text: string;
  readonly secrets: readonly string[];
  readonly kept: readonly string[];
}

const rep = (s: string, n: number): string => s.repeat(n);

export const OPENAI = 'sk-proj-Xa81bQk2Vn7Rt0pLm3Zc9Wd4Yf6Gh1Jk5Lq8Ns2Tu7Vw0Xy3Za6Bc9De2Fg';
export const ANTHROPIC = 'sk-ant-api03-Zq8Wx2Ec4Rv6Tb8Yn1Um3Ik5Ol7Pa9Sd0Fg2Hj4Kl6-Mn8Bv0Cx2Zz9Qq1AA';
export const STRIPE_LIVE = 'sk_live_51Hx9aBCdefGHijKLmnoPQRstuVWxyz0123456789';
export const STRIPE_RESTRICTED = 'rk_live_51Hx9aBCdefGHijKLmnoPQRstuVW00xyz';
export const GHP = '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';
export const GHS = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
export const GH_FINE = 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
export const GLPAT = 'glpat-xK9mP2vL7nQ4wR8tY3zB';
export const NPM = 'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
export const HF = 'hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567890';
export const AKIA = 'AKIAIOSFODNN7EXAMPLE';
export const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
export const SLACK_BOT = 'xoxb-2048-4096-Ab12Cd34Ef56Gh78Ij90Kl12';
export const SLACK_HOOK_PATH = 'T0ABC1234/B0DEF5678/abcdefghijklmnopqrstuvwx';
export const GOOGLE_KEY = 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY';
export const GOOGLE_OAUTH = 'ya29.a0AfH6SMBx-Q2w3e4r5t6y7u8i9o0pLkJhGfDsA';
export const SENDGRID = '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';
export const JWT = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJ1c2VyLTEyMyIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLXBhcnQtaGVyZS0xMjM0';
export const AZURE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
export const AMZ_SIG = 'fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024';
const PEM_LINE_1 = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const PEM_LINE_2 = 'QyNTUxOQAAACDcJq8n4qGk3vYhT8sF0pX9mB2wZ7uLrE5dNcA1yK6tHwAAAJgxL2xPMS9s';
const RSA_LINE_1 = 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB';
const RSA_LINE_2 = 'aFDrBz9vFqU4yGkNZsFGaVgt5cXWnl5O3v6s4dLq0ZmFrT3pWx7Kc2Nb8Yh1Jd4Q';
const GCP_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj';

export const SECRET_CASES: readonly SecretCase[] = [
  {
    name: '.env file dump',
    text: ['$ cat .env', 'NODE_ENV=production', 'PORT=3000',
      'DATABASE_URL=postgres://app:Pg5ecret-2024@db.internal:5432/app', 'REDIS_URL=redis://:r3disPa55word@cache.internal:6379/0',
      `OPENAI_API_KEY=${OPENAI}`, `STRIPE_SECRET_KEY=${STRIPE_LIVE}`, 'SESSION_SECRET=correcthorsebatterystaple',
      'JWT_SECRET="s3cr3t with spaces inside"', 'SMTP_PASS=mailpass99', 'LOG_LEVEL=debug', ''].join('\n'),
    secrets: ['Pg5ecret-2024', 'r3disPa55word', OPENAI, STRIPE_LIVE, 'correcthorsebatterystaple', 's3cr3t with spaces inside', 'mailpass99'],
    kept: ['NODE_ENV=production', 'PORT=3000', 'DATABASE_URL=', 'REDIS_URL=', 'OPENAI_API_KEY=', 'STRIPE_SECRET_KEY=',
      'SESSION_SECRET=', 'JWT_SECRET="', 'SMTP_PASS=', 'LOG_LEVEL=debug'],
  },
  {
    name: 'git config --list',
    text: ['user.name=Dev Person', 'user.email=dev@example.com',
      `remote.origin.url=https://x-access-token:${GHS}@github.com/acme/app.git`,
      'http.https://github.com/.extraheader=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXzE2Qzdl',
      'credential.helper=store', 'core.editor=vim', ''].join('\n'),
    secrets: [GHS, 'eC1hY2Nlc3MtdG9rZW46Z2hzXzE2Qzdl'],
    kept: ['user.name=Dev Person', 'https://x-access-token:', '@github.com/acme/app.git', 'AUTHORIZATION: basic ',
      'credential.helper=store', 'core.editor=vim'],
  },
  {
    name: 'docker inspect',
    text: ['[', '    {', `        "Id": "sha256:${rep('4b8e', 16)}",`, '        "Config": {', '            "Env": [',
      '                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",',
      '                "POSTGRES_PASSWORD=docker-pg-Secr3t",', `                "AWS_ACCESS_KEY_ID=${AKIA}",`,
      `                "AWS_SECRET_ACCESS_KEY=${AWS_SECRET}",`, `                "GITHUB_TOKEN=${GHP}",`,
      '                "LANG=C.UTF-8"', '            ],', `            "Image": "postgres@sha256:${rep('9c1d', 16)}"`,
      '        }', '    }', ']', ''].join('\n'),
    secrets: ['docker-pg-Secr3t', AKIA, AWS_SECRET, GHP],
    kept: [`"Id": "sha256:${rep('4b8e', 16)}"`, 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin', '"POSTGRES_PASSWORD=',
      '"AWS_SECRET_ACCESS_KEY=', '"LANG=C.UTF-8"', `postgres@sha256:${rep('9c1d', 16)}`],
  },
  {
    name: 'env output',
    text: ['HOME=/home/dev', 'SSH_AUTH_SOCK=/tmp/ssh-XXXXk2/agent.1234', `ANTHROPIC_API_KEY=${ANTHROPIC}`, `HF_TOKEN=${HF}`,
      `NPM_TOKEN=${NPM}`, `GITLAB_TOKEN=${GLPAT}`, `SLACK_BOT_TOKEN=${SLACK_BOT}`, 'PWD=/home/dev/project',
      'TOKENIZERS_PARALLELISM=false', 'MAX_TOKENS=4096', ''].join('\n'),
    secrets: [ANTHROPIC, HF, NPM, GLPAT, SLACK_BOT],
    kept: ['HOME=/home/dev', 'SSH_AUTH_SOCK=/tmp/ssh-XXXXk2/agent.1234', 'ANTHROPIC_API_KEY=', 'PWD=/home/dev/project',
      'TOKENIZERS_PARALLELISM=false', 'MAX_TOKENS=4096'],
  },
  {
    name: 'curl -v',
    text: ['*   Trying 93.184.216.34:443...', '* Connected to api.example.com (93.184.216.34) port 443 (#0)',
      '> GET /v1/me?access_token=EAAGm0PX4ZCpsBAxyz123&fields=id,name HTTP/1.1', '> Host: api.example.com',
      '> User-Agent: curl/8.4.0', `> Authorization: Bearer ${JWT}`, '> X-Api-Key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      '< HTTP/1.1 200 OK', '< Content-Type: application/json', ''].join('\n'),
    secrets: ['EAAGm0PX4ZCpsBAxyz123', JWT, '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    kept: ['?access_token=', '&fields=id,name HTTP/1.1', '> Authorization: Bearer ', '> X-Api-Key: ', '> Host: api.example.com'],
  },
  {
    name: 'application log lines',
    text: ['2024-05-14T10:21:07.123Z INFO  db: connecting to mysql://reporting:Rep0rt!ng#2024@mysql.internal:3306/reports',
      '2024-05-14T10:21:07.456Z DEBUG auth: issued token=3q2+7wAAAAAAbG9naW4tdG9rZW4= for user=alice',
      `2024-05-14T10:21:08.001Z WARN  retrying POST https://hooks.slack.com/services/${SLACK_HOOK_PATH}`,
      `2024-05-14T10:21:09.002Z DEBUG google: refreshed access token ${GOOGLE_OAUTH} (expires in 3599s)`, ''].join('\n'),
    secrets: ['Rep0rt!ng#2024', '3q2+7wAAAAAAbG9naW4tdG9rZW4=', SLACK_HOOK_PATH, GOOGLE_OAUTH],
    kept: ['mysql://reporting:', '@mysql.internal:3306/reports', 'token=', 'for user=alice', 'https://hooks.slack.com/services/',
      '(expires in 3599s)'],
  },
  {
    name: 'JSON config',
    text: ['{', '  "server": { "port": 8080, "host": "0.0.0.0" },',
      '  "database": { "user": "app", "password": "Tr0ub4dor&3xyz", "host": "db" },',
      '  "stripe": { "secretKey": "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "publishableKey": "pk_test_TYooMQauvdEDq54NiTphI7jx" },',
      '  "github": { "clientSecret": "3f1b9c0e5d7a2b8c4e6f0a1d3c5b7e9f2a4c6e8d" },',
      `  "google": { "apiKey": "${GOOGLE_KEY}" },`, `  "sendgrid": { "apiKey": "${SENDGRID}" }`, '}', ''].join('\n'),
    secrets: ['Tr0ub4dor&3xyz', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', '3f1b9c0e5d7a2b8c4e6f0a1d3c5b7e9f2a4c6e8d', GOOGLE_KEY, SENDGRID],
    kept: ['"port": 8080', '"user": "app"', '"password": "', '"secretKey": "', '"publishableKey": "pk_test_TYooMQauvdEDq54NiTphI7jx"',
      '"clientSecret": "', '"apiKey": "'],
  },
  {
    name: 'Kubernetes secret YAML',
    text: ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: app-secrets', '  namespace: prod', 'type: Opaque', 'data:',
      '  password: cGFzc3dvcmQtZm9yLXByb2QtZGI=', '  api-key: c2stbGl2ZS1hYmNkZWYxMjM0NTY=', 'stringData:',
      '  token: "tok_live_8f7d6e5c4b3a2910"', ''].join('\n'),
    secrets: ['cGFzc3dvcmQtZm9yLXByb2QtZGI=', 'c2stbGl2ZS1hYmNkZWYxMjM0NTY=', 'tok_live_8f7d6e5c4b3a2910'],
    kept: ['kind: Secret', 'name: app-secrets', 'type: Opaque', '  password: ', '  api-key: ', '  token: "'],
  },
  {
    name: '.npmrc',
    text: ['registry=https://registry.npmjs.org/', `//registry.npmjs.org/:_authToken=${NPM}`,
      `//npm.pkg.github.com/:_authToken=${GHP}`, '@acme:registry=https://npm.pkg.github.com', 'always-auth=true', ''].join('\n'),
    secrets: [NPM, GHP],
    kept: ['registry=https://registry.npmjs.org/', '//registry.npmjs.org/:_authToken=', '@acme:registry=https://npm.pkg.github.com',
      'always-auth=true'],
  },
  {
    name: 'PEM files, whole and truncated',
    text: ['$ cat ~/.ssh/id_ed25519', '-----BEGIN OPENSSH PRIVATE KEY-----', PEM_LINE_1, PEM_LINE_2,
      '-----END OPENSSH PRIVATE KEY-----', '$ head -c 200 server.key', '-----BEGIN RSA PRIVATE KEY-----', RSA_LINE_1, RSA_LINE_2,
      '[output truncated after 200 bytes]', ''].join('\n'),
    secrets: [PEM_LINE_1, PEM_LINE_2, RSA_LINE_1, RSA_LINE_2],
    kept: ['$ cat ~/.ssh/id_ed25519', '-----BEGIN OPENSSH PRIVATE KEY-----', '-----END OPENSSH PRIVATE KEY-----',
      '-----BEGIN RSA PRIVATE KEY-----', '[output truncated after 200 bytes]'],
  },
  {
    name: 'Python stack trace with a database URL',
    text: ['Traceback (most recent call last):', '  File "/app/db.py", line 42, in connect',
      '    engine = create_engine("postgresql+psycopg2://svc_user:Xq9#mK2$vL@10.0.3.7:5432/orders")',
      'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect to server', ''].join('\n'),
    secrets: ['Xq9#mK2$vL'],
    kept: ['postgresql+psycopg2://svc_user:', '@10.0.3.7:5432/orders', 'File "/app/db.py", line 42, in connect'],
  },
  {
    name: 'AWS credentials file',
    text: ['[default]', `aws_access_key_id = ${AKIA}`, `aws_secret_access_key = ${AWS_SECRET}`,
      'aws_session_token = IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD', 'region = us-east-1', ''].join('\n'),
    secrets: [AKIA, AWS_SECRET, 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD'],
    kept: ['aws_access_key_id = ', 'aws_secret_access_key = ', 'aws_session_token = ', 'region = us-east-1'],
  },
  {
    name: 'GCP service account JSON',
    text: ['{', '  "type": "service_account",', '  "project_id": "acme-prod",',
      `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${GCP_BODY}\\nAbCdEf0123456789+/==\\n-----END PRIVATE KEY-----\\n",`,
      '  "client_email": "svc@acme-prod.iam.gserviceaccount.com"', '}', ''].join('\n'),
    secrets: [GCP_BODY, 'AbCdEf0123456789+/=='],
    kept: ['"type": "service_account"', '"private_key": "-----BEGIN PRIVATE KEY-----\\n', '\\n-----END PRIVATE KEY-----\\n"',
      '"client_email": "svc@acme-prod.iam.gserviceaccount.com"'],
  },
  {
    name: 'shell history and Python settings',
    text: [`export GITHUB_TOKEN=${GH_FINE}`, `curl -H "Authorization: token ${GHP}" https://api.github.com/user`,
      'SECRET_KEY = "django-insecure-8x#k2!v@q$w9z^e7r6t5y4u3"', `STRIPE_API_KEY = '${STRIPE_RESTRICTED}'`,
      'stripeSecret: "whsec_4eC39HqLyjWDarjtT1zdp7dcAbCd",', "githubToken = 'abcDEF123456xyz'", ''].join('\n'),
    secrets: [GH_FINE, GHP, 'django-insecure-8x#k2!v@q$w9z^e7r6t5y4u3', STRIPE_RESTRICTED, 'whsec_4eC39HqLyjWDarjtT1zdp7dcAbCd',
      'abcDEF123456xyz'],
    kept: ['export GITHUB_TOKEN=', '"Authorization: token ', ' https://api.github.com/user', 'SECRET_KEY = "', "STRIPE_API_KEY = '",
      'stripeSecret: "', "githubToken = '"],
  },
  {
    name: 'Azure connection string and signed S3 URL',
    text: [`"Storage": "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${AZURE_KEY};EndpointSuffix=core.windows.net"`,
      `GET https://bucket.s3.amazonaws.com/file.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${AKIA}%2F20240514%2Fus-east-1` +
      `%2Fs3%2Faws4_request&X-Amz-Date=20240514T102107Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${AMZ_SIG}`,
      '2024-05-14 INFO sent with key=plain sig=abc', ''].join('\n'),
    secrets: [AZURE_KEY, AKIA, AMZ_SIG],
    kept: ['AccountName=acmestore;AccountKey=', ';EndpointSuffix=core.windows.net', '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=',
      '&X-Amz-Date=20240514T102107Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=', 'sent with key=plain sig=abc'],
  },
];
