// Realistic tool output with no secret in it: build logs, test runs, git log, package-lock
// fragments, source code in several languages, JSON API responses, kubectl and docker output,
// diffs, directory listings, prose. Each block is a few lines; the corpus strings them together.
import { type Rand } from './random';

const W = ['user', 'order', 'config', 'request', 'handler', 'session', 'payload', 'result', 'cache', 'item', 'token', 'client',
  'account', 'invoice', 'secret', 'password', 'key', 'auth', 'credential', 'report', 'schedule', 'widget', 'metric', 'queue'];
const cap = (s: string): string => s[0].toUpperCase() + s.slice(1);

type Block = (r: Rand) => string;

const BLOCKS: Block[] = [
  (r) => `export async function load${cap(r.pick(W))}(id: string, opts: Options = {}): Promise<${cap(r.pick(W))}Result> {\n` +
    `  const token = await getToken(opts);\n  const res = await fetch(\`\${base}/api/${r.pick(W)}/\${id}\`, { headers: { Authorization: \`Bearer \${token}\` } });\n` +
    `  if (!res.ok) throw new HttpError(res.status, await res.text());\n  return (await res.json()) as ${cap(r.pick(W))}Result;\n}\n`,
  (r) => `def ${r.pick(W)}_view(request, pk=None):\n    password = request.POST.get("password")\n    user = authenticate(username=request.user, password=password)\n` +
    `    secret_key = settings.SECRET_KEY\n    return JsonResponse({"ok": True, "id": ${r.int(1e6)}})\n`,
  (r) => `func (s *Server) handle${cap(r.pick(W))}(w http.ResponseWriter, r *http.Request) {\n\ttoken := r.Header.Get("Authorization")\n` +
    `\tapiKey := os.Getenv("API_KEY")\n\tif token == "" || apiKey == "" {\n\t\thttp.Error(w, "unauthorized", 401)\n\t\treturn\n\t}\n}\n`,
  (r) => `public class ${cap(r.pick(W))}Service {\n    private final String password;\n    private static final String TOKEN_HEADER = "X-Auth-Token";\n` +
    `    public ${cap(r.pick(W))}Service(@Value("\${db.password}") String password) { this.password = password; }\n}\n`,
  (r) => `2024-05-${10 + r.int(19)}T12:${10 + r.int(49)}:07.${r.int(999)}Z INFO  [worker-${r.int(8)}] processed ${r.pick(W)} ` +
    `id=${r.uuid()} in ${r.int(900)}ms status=200 bytes=${r.int(99999)}\n`,
  (r) => `{"id":"${r.hex(24)}","type":"${r.pick(W)}","attributes":{"name":"${r.pick(W)} ${r.int(100)}","created_at":"2024-01-02T03:04:05Z",` +
    `"tags":["a","b"],"count":${r.int(1e4)},"token_count":${r.int(4000)},"has_password":${r.next() < 0.5}},` +
    `"links":{"self":"https://api.example.com/v1/${r.pick(W)}/${r.hex(8)}"}}\n`,
  (r) => `commit ${r.hex(40)}\nAuthor: Dev ${cap(r.pick(W))} <dev${r.int(99)}@example.com>\nDate:   Tue May 14 10:2${r.int(9)}:00 2024 +0200\n\n` +
    `    fix(${r.pick(W)}): rotate the ${r.pick(W)} key on expiry and retry once\n\n`,
  (r) => `    "node_modules/${r.pick(W)}-lib": {\n      "version": "1.${r.int(20)}.${r.int(9)}",\n` +
    `      "resolved": "https://registry.npmjs.org/${r.pick(W)}-lib/-/${r.pick(W)}-lib-1.0.0.tgz",\n` +
    `      "integrity": "sha512-${r.b64(86)}==",\n      "dev": true\n    },\n`,
  (r) => `${r.pick(W)}-api-7d9f8c-${r.lower(5)}   1/1   Running   0   ${r.int(60)}m   10.0.${r.int(255)}.${r.int(255)}   ` +
    `ghcr.io/acme/${r.pick(W)}@sha256:${r.hex(64)}\n`,
  (r) => `drwxr-xr-x  5 dev staff   160 May 14 10:21 ${r.pick(W)}\n-rw-r--r--  1 dev staff  ${r.int(9e4)} May 14 10:21 ${r.pick(W)}.ts\n` +
    `-rw-------  1 dev staff   ${r.int(900)} May 14 10:21 ${r.pick(W)}_secret.pem.enc\n`,
  (r) => `@@ -${r.int(300)},7 +${r.int(300)},8 @@ export class ${cap(r.pick(W))}Service {\n   private readonly cache = new Map<string, Entry>();\n` +
    `-  private ttl = 60_000;\n+  private ttl = 120_000;\n+  private readonly tokenTtlMs = 3_600_000;\n   constructor(private readonly clock: Clock) {}\n`,
  (r) => `  ✔ ${r.pick(W)} handles an empty ${r.pick(W)} (${r.int(40)}ms)\n  ✔ rejects a ${r.pick(W)} without a token\n` +
    `  1) ${r.pick(W)} retries on timeout:\n     AssertionError: expected 3 to equal 2\n      at Context.<anonymous> (out/test/unit/${r.pick(W)}.test.js:${r.int(200)}:14)\n`,
  (r) => `tests/test_${r.pick(W)}.py::test_${r.pick(W)}_password_reset PASSED                     [ ${r.int(99)}%]\n` +
    `tests/test_${r.pick(W)}.py::test_invalid_token_is_rejected FAILED                        [ ${r.int(99)}%]\n`,
  (r) => `[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ ${r.pick(W)}-service ---\n` +
    `[INFO] Compiling ${r.int(300)} source files with javac [debug release 17] to target/classes\n[WARNING] /src/main/java/com/acme/${cap(r.pick(W))}.java:[${r.int(99)},${r.int(40)}] deprecated API\n`,
  (r) => `src/${r.pick(W)}.ts(${r.int(300)},${r.int(40)}): error TS2339: Property '${r.pick(W)}Token' does not exist on type '${cap(r.pick(W))}Options'.\n`,
  (r) => `gcc -O2 -g -Wall -pthread -pipe -fPIC -I/usr/include/openssl -c src/${r.pick(W)}.c -o build/${r.pick(W)}.o\n`,
  (r) => `#${r.int(20)} [build ${r.int(9)}/${r.int(9)}] RUN npm ci --omit=dev\n#${r.int(20)} DONE ${r.int(90)}.${r.int(9)}s\n` +
    `#${r.int(20)} writing image sha256:${r.hex(64)} done\n`,
  (r) => `## ${cap(r.pick(W))} settings\n\nThe ${r.pick(W)} module reads its options once at start-up. Set \`retries\` to a small number; ` +
    `a value of 0 disables retrying. Keep the API key in the secret store, never in the repository.\n\n`,
  (r) => `  ${r.pick(W)}:\n    image: postgres:16\n    environment:\n      POSTGRES_DB: app\n      POSTGRES_USER: app\n` +
    `      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    ports:\n      - "${5000 + r.int(999)}:5432"\n`,
  (r) => `+----+-----------+---------------------+\n| id | ${r.pick(W)}   | created_at          |\n+----+-----------+---------------------+\n` +
    `| ${r.int(99)} | ${r.lower(8)} | 2024-05-14 10:21:07 |\n`,
];

/** About `bytes` characters of clean output, as lines. */
export function cleanLines(r: Rand, bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const block = r.pick(BLOCKS)(r);
    size += block.length;
    for (const line of block.split('\n').slice(0, -1)) lines.push(line);
  }
  return lines;
}
