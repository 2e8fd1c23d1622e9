// The syntaxes a secret turns up in inside tool output: configuration files of every kind, source
// code, command lines, HTTP traffic and logs. Each takes the conventional key name (SCREAMING_CASE)
// and writes it the way that syntax spells names (camelCase in JSON, dotted in properties …).

const words = (key) => key.toLowerCase().split('_').filter(Boolean);
export const nameCase = {
  screaming: (k) => k,
  snake: (k) => words(k).join('_'),
  camel: (k) => words(k).map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join(''),
  pascal: (k) => words(k).map((w) => w[0].toUpperCase() + w.slice(1)).join(''),
  kebab: (k) => words(k).join('-'),
  dotted: (k) => words(k).join('.'),
};
const { screaming, snake, camel, pascal, kebab, dotted } = nameCase;
const ts = (r) => `2026-11-${String(r.range(1, 28)).padStart(2, '0')}T${String(r.int(24)).padStart(2, '0')}:${String(r.int(60)).padStart(2, '0')}:${String(r.int(60)).padStart(2, '0')}.${String(r.int(1000)).padStart(3, '0')}Z`;
const tool = (k) => words(k)[0];

/** [id, render(key, value, r)] — every one of these is keyed. */
const KEYED = [
  ['env', (k, v) => `${screaming(k)}=${v}`],
  ['env-export-quoted', (k, v) => `export ${screaming(k)}="${v}"`],
  ['dotenv-lowercase', (k, v) => `${snake(k)}='${v}'`],
  ['yaml', (k, v) => `    ${snake(k)}: ${v}`],
  ['yaml-quoted-camel', (k, v) => `  ${camel(k)}: "${v}"`],
  ['yaml-list-env', (k, v) => `        - name: ${screaming(k)}\n          value: "${v}"`],
  ['json', (k, v) => `    "${camel(k)}": "${v}",`],
  ['json-compact', (k, v, r) => `{"id":${r.int(9999)},"${snake(k)}":"${v}","enabled":true}`],
  ['toml', (k, v) => `${snake(k)} = "${v}"`],
  ['ini', (k, v) => `${pascal(k)} = ${v}`],
  ['xml-element', (k, v) => `    <${camel(k)}>${v}</${camel(k)}>`],
  ['xml-add-key-value', (k, v) => `    <add key="${pascal(k)}" value="${v}" />`],
  ['xml-property', (k, v) => `  <property name="${dotted(k)}" value="${v}"/>`],
  ['makefile-colon-eq', (k, v) => `${screaming(k)} := ${v}`],
  ['makefile-question-eq', (k, v) => `${screaming(k)} ?= ${v}`],
  ['makefile-double-colon-eq', (k, v) => `${screaming(k)} ::= ${v}`],
  ['php-variable', (k, v) => `$${camel(k)} = '${v}';`],
  ['php-array', (k, v) => `    '${snake(k)}' => '${v}',`],
  ['php-define', (k, v) => `define('${screaming(k)}', '${v}');`],
  ['php-concat-assign', (k, v) => `$config['${snake(k)}'] .= "${v}";`],
  ['go-const', (k, v) => `const ${camel(k)} = "${v}"`],
  ['go-short-assign', (k, v) => `	${camel(k)} := "${v}"`],
  ['go-var-typed', (k, v) => `var ${pascal(k)} string = "${v}"`],
  ['go-struct-field', (k, v) => `		${pascal(k)}: "${v}",`],
  ['java-properties', (k, v) => `${dotted(k)}=${v}`],
  ['java-properties-colon', (k, v) => `${dotted(k)}: ${v}`],
  ['java-set-property', (k, v) => `        System.setProperty("${dotted(k)}", "${v}");`],
  ['java-field', (k, v) => `    private static final String ${screaming(k)} = "${v}";`],
  ['csharp-field', (k, v) => `        private const string ${pascal(k)} = "${v}";`],
  ['python-assign', (k, v) => `${screaming(k)} = "${v}"`],
  ['python-kwarg', (k, v) => `client = Client(${snake(k)}="${v}", timeout=30)`],
  ['python-environ', (k, v) => `os.environ["${screaming(k)}"] = "${v}"`],
  ['js-const', (k, v) => `const ${camel(k)} = '${v}';`],
  ['js-object', (k, v) => `  ${camel(k)}: '${v}',`],
  ['js-process-env', (k, v) => `process.env.${screaming(k)} = \`${v}\`;`],
  ['ruby-assign', (k, v) => `config.${snake(k)} = "${v}"`],
  ['ruby-hash', (k, v) => `  ${snake(k)}: "${v}",`],
  ['rust-const', (k, v) => `const ${screaming(k)}: &str = "${v}";`],
  ['hcl', (k, v) => `  ${snake(k)} = "${v}"`],
  ['dockerfile-env', (k, v) => `ENV ${screaming(k)}=${v}`],
  ['dockerfile-arg', (k, v) => `ARG ${screaming(k)}=${v}`],
  ['docker-run-e', (k, v) => `docker run -d -e ${screaming(k)}=${v} -p 8080:8080 acme/api:1.4.2`],
  ['kubectl-from-literal', (k, v) => `kubectl create secret generic app --from-literal=${snake(k)}=${v} -n prod`],
  ['shell-flag-space', (k, v) => `${tool(k)} deploy --${kebab(k)} ${v} --region us-east-1`],
  ['shell-flag-eq', (k, v) => `$ ./bin/release --${kebab(k)}=${v} --verbose`],
  ['shell-flag-quoted', (k, v) => `+ curl -sS -H 'Accept: application/json' --${kebab(k)} '${v}' https://api.example.com/v2/status`],
  ['http-header', (k, v) => `> X-${pascal(k).replace(/([a-z])([A-Z])/g, '$1-$2')}: ${v}`],
  ['http-bearer', (_k, v) => `> Authorization: Bearer ${v}`],
  ['http-header-lower', (k, v) => `${kebab(k)}: ${v}`],
  ['url-query', (k, v) => `GET https://api.example.com/v1/items?page=2&${snake(k)}=${encodeURIComponent(v)} 200 OK`],
  ['log-keyvalue', (k, v, r) => `${ts(r)} INFO  config loaded ${snake(k)}=${v} env=production pid=${r.range(100, 65000)}`],
  ['log-json', (k, v, r) => `{"level":"debug","ts":"${ts(r)}","msg":"client init","${camel(k)}":"${v}","retries":3}`],
  ['log-repeated', (k, v, r) => `${ts(r)} WARN retrying with ${snake(k)}=${v} (previous ${snake(k)}=${v} rejected)`],
  ['log-python-repr', (k, v) => `DEBUG:app.settings:{'${snake(k)}': '${v}', 'debug': False}`],
  ['github-actions-env', (k, v) => `      ${screaming(k)}: ${v}`],
  ['powershell-env', (k, v) => `$env:${screaming(k)} = "${v}"`],
  ['cmd-set', (k, v) => `set ${screaming(k)}=${v}`],
  ['npmrc-style', (k, v) => `//registry.example.com/:_${camel(k)}=${v}`],
  ['name-token-dash', (k, v) => `- name: ${snake(k)}\n  token: '${v}'`],
];

/** Bare renderings for formats recognisable by shape alone. */
const BARE = [
  ['bare-prose', (v) => `Use this one: ${v} (rotated last week)`],
  ['bare-log', (v, r) => `${ts(r)} ERROR request failed: 401 for credential ${v}`],
  ['bare-quoted-arg', (v) => `client.login("${v}")`],
  ['bare-json-array', (v) => `["${v}"]`],
];

export const KEYED_SYNTAXES = KEYED.map(([id, render]) => ({ id, render }));
export const BARE_SYNTAXES = BARE.map(([id, render]) => ({ id, render }));
