// The syntaxes a secret is written in: each turns an environment-style key (`STRIPE_SECRET_KEY`)
// and a value into one line, with the key spelled the way that syntax spells it.
import { type Rand } from './random';

const words = (key: string): string[] => key.toLowerCase().split('_').filter(Boolean);
export const snake = (key: string): string => words(key).join('_');
export const kebab = (key: string): string => words(key).join('-');
export const camel = (key: string): string => words(key).map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('');
export const pascal = (key: string): string => words(key).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
export const dotted = (key: string): string => words(key).join('.');

export interface Syntax {
  readonly id: string;
  readonly line: (key: string, value: string, r: Rand) => string;
}

/** Values containing a quote or whitespace are not written into unquoted syntaxes. */
export const SYNTAXES: readonly Syntax[] = [
  { id: 'env', line: (k, v) => `${k}=${v}` },
  { id: 'shell-export', line: (k, v) => `export ${k}="${v}"` },
  { id: 'docker-env', line: (k, v) => `docker run --rm -e ${k}=${v} ghcr.io/acme/worker:1.4.2` },
  { id: 'yaml', line: (k, v, r) => `${r.pick(['', '  ', '    '])}${snake(k)}: ${v}` },
  { id: 'yaml-quoted', line: (k, v) => `  ${snake(k)}: "${v}"` },
  { id: 'yaml-kebab', line: (k, v) => `  ${kebab(k)}: '${v}'` },
  { id: 'json', line: (k, v) => `  "${camel(k)}": "${v}",` },
  { id: 'json-snake', line: (k, v) => `{"${snake(k)}":"${v}","region":"eu-west-1"}` },
  { id: 'toml', line: (k, v) => `${snake(k)} = "${v}"` },
  { id: 'ini', line: (k, v) => `${pascal(k)} = ${v}` },
  { id: 'xml-attribute', line: (k, v) => `    <add key="${pascal(k)}" value="${v}" />` },
  { id: 'xml-element', line: (k, v) => `  <${camel(k)}>${v}</${camel(k)}>` },
  { id: 'makefile', line: (k, v, r) => `${k} ${r.pick([':=', '::=', '?=', '+=', '='])} ${v}` },
  { id: 'php-array', line: (k, v) => `    '${snake(k)}' => '${v}',` },
  { id: 'php-concat', line: (k, v) => `$${camel(k)} .= '${v}';` },
  { id: 'php-index', line: (k, v) => `$config['${snake(k)}'] = '${v}';` },
  { id: 'go-var', line: (k, v) => `var ${camel(k)} string = "${v}"` },
  { id: 'go-short', line: (k, v) => `\t${camel(k)} := "${v}"` },
  { id: 'java-property', line: (k, v) => `System.setProperty("${dotted(k)}", "${v}");` },
  { id: 'go-setenv', line: (k, v) => `\tos.Setenv("${k}", "${v}")` },
  { id: 'python', line: (k, v) => `${snake(k)} = '${v}'` },
  { id: 'typescript', line: (k, v) => `const ${camel(k)} = "${v}";` },
  { id: 'typescript-typed', line: (k, v) => `  private readonly ${camel(k)}: string = '${v}';` },
  { id: 'env-lower', line: (k, v) => `${snake(k)}=${v}` },
  { id: 'name-dash', line: (k, v) => `${words(k).join(' ')} - '${v}'` },
  { id: 'name-dash-snake', line: (k, v) => `${snake(k)} - "${v}"` },
  { id: 'cli-flag', line: (k, v) => `acme-cli deploy --${kebab(k)} ${v} --region eu-west-1` },
  { id: 'cli-flag-equals', line: (k, v) => `acme-cli deploy --${kebab(k)}=${v}` },
  { id: 'repeated', line: (k, v) => `${k}=${v} ./run.sh  # was called with ${v}` },
];

/** Where a bare token (no key) shows up in tool output. */
export const BARE: readonly ((v: string) => string)[] = [
  (v) => `Using credentials ${v} for upload`,
  (v) => `curl -H "X-Api-Key: ${v}" https://api.example.com/v1/items`,
  (v) => `  at login (token ${v})`,
  (v) => `"${v}"`,
  (v) => `[${v}]`,
  (v) => v,
];
