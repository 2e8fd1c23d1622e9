// The scrub-throughput corpus: 10 MB of mixed tool output (source code, logs, JSON, shell output,
// a sprinkling of secrets), generated from a fixed seed. Shared by bench/scrub-throughput.mjs and
// bench/scrub-identical.mjs.
export const TARGET = 10 * 1024 * 1024;

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
const alnum = (n) => Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rand() * 62)]).join('');
const words = ['user', 'order', 'config', 'request', 'handler', 'session', 'payload', 'result', 'cache', 'item', 'token', 'client'];

const blocks = [
  () => `export async function load${pick(words)}(id: string, opts: Options = {}): Promise<${pick(words)}Result> {\n` +
    `  const token = await getToken(opts);\n  const res = await fetch(\`\${base}/api/${pick(words)}/\${id}\`, { headers: { Authorization: \`Bearer \${token}\` } });\n` +
    `  if (!res.ok) throw new HttpError(res.status, await res.text());\n  return (await res.json()) as ${pick(words)}Result;\n}\n`,
  () => `def ${pick(words)}_view(request, pk=None):\n    password = request.POST.get("password")\n    user = authenticate(username=request.user, password=password)\n    return JsonResponse({"ok": True, "id": ${Math.floor(rand() * 1e6)}})\n`,
  () => `func (s *Server) handle${pick(words)}(w http.ResponseWriter, r *http.Request) {\n\ttoken := r.Header.Get("Authorization")\n\tif token == "" {\n\t\thttp.Error(w, "unauthorized", 401)\n\t\treturn\n\t}\n}\n`,
  () => `2024-05-${10 + Math.floor(rand() * 19)}T12:${10 + Math.floor(rand() * 49)}:07.${Math.floor(rand() * 999)}Z INFO  [worker-${Math.floor(rand() * 8)}] processed ${pick(words)} id=${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)} in ${Math.floor(rand() * 900)}ms status=200\n`,
  () => `{"id":"${hex(24)}","type":"${pick(words)}","attributes":{"name":"${pick(words)} ${Math.floor(rand() * 100)}","created_at":"2024-01-02T03:04:05Z","tags":["a","b"],"count":${Math.floor(rand() * 1e4)}},"links":{"self":"https://api.example.com/v1/${pick(words)}/${hex(8)}"}}\n`,
  () => `commit ${hex(40)}\nAuthor: Dev ${pick(words)} <dev@example.com>\nDate:   Tue May 14 10:2${Math.floor(rand() * 9)}:00 2024 +0200\n\n    fix(${pick(words)}): handle empty response\n\n`,
  () => `"node_modules/${pick(words)}-lib": {\n  "version": "1.${Math.floor(rand() * 20)}.0",\n  "resolved": "https://registry.npmjs.org/${pick(words)}-lib/-/${pick(words)}-lib-1.0.0.tgz",\n  "integrity": "sha512-${alnum(86)}=="\n},\n`,
  () => `${pick(words)}-api-7d9f8c-x2v   1/1   Running   0   ${Math.floor(rand() * 60)}m   10.0.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}   image@sha256:${hex(64)}\n`,
  () => `drwxr-xr-x  5 dev staff   160 May 14 10:21 ${pick(words)}\n-rw-r--r--  1 dev staff  ${Math.floor(rand() * 9e4)} May 14 10:21 ${pick(words)}.ts\n`,
  () => `export function ${pick(words)}List({ items, onSelect }: Props): JSX.Element {\n  const [filter, setFilter] = useState('');\n` +
    `  const visible = useMemo(() => items.filter((i) => i.name.includes(filter)), [items, filter]);\n` +
    `  return <ul className="list">{visible.map((i) => <li key={i.id} onClick={() => onSelect(i)}>{i.name}</li>)}</ul>;\n}\n`,
  () => `def summarize_${pick(words)}(rows: list[dict], limit: int = ${Math.floor(rand() * 100)}) -> dict:\n    totals = defaultdict(int)\n` +
    `    for row in rows[:limit]:\n        totals[row["kind"]] += row.get("count", 0)\n    return {"total": sum(totals.values()), "kinds": len(totals)}\n`,
  () => `@@ -${Math.floor(rand() * 300)},7 +${Math.floor(rand() * 300)},8 @@ export class ${pick(words)}Service {\n   private readonly cache = new Map<string, Entry>();\n` +
    `-  private ttl = 60_000;\n+  private ttl = 120_000;\n+  private hits = 0;\n   constructor(private readonly clock: Clock) {}\n`,
  () => `  ✔ ${pick(words)} handles an empty ${pick(words)} (${Math.floor(rand() * 40)}ms)\n  ✔ rejects a ${pick(words)} without id\n` +
    `  1) ${pick(words)} retries on timeout:\n     AssertionError: expected 3 to equal 2\n      at Context.<anonymous> (out/test/unit/${pick(words)}.test.js:${Math.floor(rand() * 200)}:14)\n`,
  () => `## ${pick(words)} settings\n\nThe ${pick(words)} module reads its options once at start-up. Set \`retries\` to a small number; ` +
    `a value of 0 disables retrying, and the default (3) is right for most setups. See the table below for the rest.\n\n`,
];
const secrets = [
  () => `OPENAI_API_KEY=sk-proj-${alnum(40)}\n`,
  () => `DATABASE_URL=postgres://app:${alnum(16)}@db.internal:5432/app\n`,
  () => `> Authorization: Bearer ${alnum(20)}.${alnum(30)}\n`,
  () => `  "password": "${alnum(14)}",\n`,
  () => `remote.origin.url=https://x-access-token:ghs_${alnum(36)}@github.com/acme/app.git\n`,
  () => `GET /download?X-Amz-Credential=AKIA${alnum(16).toUpperCase()}&X-Amz-Signature=${hex(64)}&page=2\n`,
];

export function throughputCorpus() {
  seed = 42;
  const parts = [];
  let size = 0;
  while (size < TARGET) {
    const s = rand() < 0.02 ? pick(secrets)() : pick(blocks)();
    parts.push(s);
    size += s.length;
  }
  return parts.join('');
}

