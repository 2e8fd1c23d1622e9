// Keyword rules for config languages that put a secret after a key name with NO `=` or `:` between
// them, or that name the secret on one line and give its value on another. As everywhere, the name
// only makes a candidate; the value check (scrub-value.ts) decides.
//
//   sqlby   SQL `IDENTIFIED BY 'x'` / `IDENTIFIED WITH plugin BY x` (MySQL, Oracle), any letter case
//   sqlpw   SQL `PASSWORD 'x'` (ALTER ROLE, CREATE USER … WITH PASSWORD), any letter case
//   define  C `#define API_KEY "value"` (or unquoted)
//   setenv  Apache `SetEnv NAME value`, csh `setenv NAME value` (quoted or not)
//   hdrset  nginx `add_header` / `proxy_set_header` / `grpc_set_header`, `fastcgi_param`,
//           `uwsgi_param`, Apache `RequestHeader set` / `Header set`: a key-named header or
//           parameter and its value, quoted or not (`Authorization "Basic x"` keeps the scheme)
//   nv      a name/value pair whose name is a key: Kubernetes `- name: DB_PASSWORD` then
//           `value: …` on the next line, ECS/JSON `{"name": "API_TOKEN", "value": "…"}`
//   cookie  `Cookie:` / `Set-Cookie:` — the first cookie's value when it looks random
//
// The patterns only find the directive and a name of identifier characters; whether the name is a
// key is decided in JS (keyNameKind), on the rare candidates: the keyword alternation in each of these
// patterns would push the combined pattern past the size V8 optimises (scrub-combine.ts).
//
// Linear time: every rule starts with a literal or a one-character test after its anchor, every run
// before the value is bounded, and the value is a single bounded run (scrub-hostile.test.ts).
import { acceptForName } from './scrub-keywords';
import { anyOf, type ScrubRule } from './scrub-rule';
import { isOrdinary, looksRandom, looksSecret } from './scrub-value';

/** Schemes an Authorization value may start with; kept in the output. */
const SCHEMES = anyOf(['Basic', 'basic', 'Bearer', 'bearer', 'Token', 'token', 'Digest', 'Bot', 'ApiKey', 'Negotiate', 'NTLM']);

/** An unquoted directive value: not an ordinary setting either (`on`, `/path`, `10.0.0.0/8`, `$var`). */
const notSetting = (v: string): boolean => !isOrdinary(v) && !/^[$%@{<]/.test(v);

/** The first capture of `re` in the text from `start` (patterns anchored with `^`), or before it (`$`). */
const nameAfter = (re: RegExp, text: string, start: number): string | undefined => re.exec(text.slice(start, start + 160))?.[1];
const nameBefore = (re: RegExp, text: string, start: number): string | undefined =>
  re.exec(text.slice(Math.max(0, start - 200), start))?.[1];

/** SQL `PASSWORD '…'` (PostgreSQL `ALTER ROLE … PASSWORD`, `CREATE USER … WITH PASSWORD`), any case. */
const sqlpwSource = (name: string): string => String.raw`(?<${name}L>[ \t]{1,16}(?<${name}Q>["'\x60]))` +
  String.raw`(?<=[pP][aA][sS][sS][wW][oO][rR][dD][ \t]{1,16}["'\x60])(?![<{])[^\s"'\x60\\]{6,512}(?<${name}R>\k<${name}Q>)`;
const sqlpw: ScrubRule = { name: 'sqlpw', anchor: 'd', source: sqlpwSource('sqlpw'), accept: looksSecret };
const sqlPW: ScrubRule = { name: 'sqlPW', anchor: 'D', source: sqlpwSource('sqlPW'), accept: looksSecret };

const IDENTIFIED = '[iI][dD][eE][nN][tT][iI][fF][iI][eE][dD]';
const sqlBehind = String.raw`(?<=${IDENTIFIED}(?:[ \t]{1,16}[wW][iI][tT][hH][ \t]{1,16}["'\x60]?[\w-]{1,64}["'\x60]?)?[ \t]{1,16}[bB][yY][ \t]{1,16}["'\x60]?)`;
const sqlSource = (name: string): string => String.raw`(?<${name}L>[ \t]{1,16}(?<${name}Q>["'\x60]?))${sqlBehind}` +
  String.raw`(?![pP][aA][sS][sS][wW][oO][rR][dD][ \t])(?![$<{%:])[^\s"'\x60;\\]{1,512}(?<${name}R>\k<${name}Q>)`;

/**
 * Quoted: any value that is not a placeholder. Unquoted (Oracle): it must have a character other
 * than a letter, so `identified by researchers` in prose stays.
 */
function sqlAccept(value: string, text: string, start: number): boolean {
  let i = start + 1;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  const quoted = `"'\``.includes(text[i]);
  return looksSecret(value) && (quoted || /[^A-Za-z]/.test(value));
}

const sqlby: ScrubRule = { name: 'sqlby', anchor: 'y', source: sqlSource('sqlby'), accept: sqlAccept };
const sqlBY: ScrubRule = { name: 'sqlBY', anchor: 'Y', source: sqlSource('sqlBY'), accept: sqlAccept };

/** A directive value's characters; `;`, `?`, `|` only between them (`…;` ends a C or nginx line). */
const PLAIN = String.raw`[^\s"'\x60\\;?|]`;
/** A `;` before `Name=` separates the parts of a connection string (`Password=…;Encrypt=true`). */
const INNER = String.raw`(?:[?|]|;(?![A-Za-z][\w .-]{0,32}=))`;

/**
 * A value after a directive's key name, quoted or not, not a call (`get_token()`, looksLikeCode); `<name>Q` (the
 * quote) must end the rule's label group. The run is captured in a lookahead and consumed by
 * backreference: lookaheads are atomic, so what follows it cannot make the engine retry every
 * shorter prefix of the run.
 */
const directiveValue = (name: string): string =>
  String.raw`(?![<{"'\x60])(?=(?<${name}V>(?:${PLAIN}|${INNER}{1,8}(?=${PLAIN})){8,512}))\k<${name}V>(?<${name}R>\k<${name}Q>)`;

const define: ScrubRule = {
  name: 'define',
  anchor: '#',
  source: String.raw`(?<defineL>[ \t]{0,16}define[ \t]{1,16}[A-Za-z_]\w{0,63}[ \t]{1,16}(?<defineQ>["']?))${directiveValue('define')}`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^#[ \t]{0,16}define[ \t]{1,16}(\w+)/, text, start), v),
};

const setenv: ScrubRule = {
  name: 'setenv',
  anchor: 'v',
  // The command's name first, as soon as its `v` is found: implied by the lookbehind after the name
  // and spaces, but tested before them, so a `v` of any other word (`dev  staff` in `ls -l`) is turned
  // away at once instead of after the name and spaces are read and given back one by one.
  guard: String.raw`(?<=(?<![\w-])[sS]et[eE]nv)`,
  source: String.raw`(?<setenvL>[ \t]{1,16}[A-Za-z_][\w.-]{0,63}[ \t]{1,16}(?<setenvQ>["']?))(?<=(?<![\w-])[sS]et[eE]nv[ \t]{1,16}[\w.-]{1,64}[ \t]{1,16}["']?)` +
    directiveValue('setenv'),
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^v[ \t]{1,16}([\w.-]+)/, text, start), v),
};

/** nginx and Apache directives whose first argument is a header or parameter name and the second its value. */
const hdrset: ScrubRule = {
  name: 'hdrset',
  anchor: '_',
  source: String.raw`(?<hdrsetL>(?:header|param)[ \t]{1,16}["']?[\w.-]{0,64}["']?[ \t]{1,16}(?<hdrsetQ>["']?)(?:${SCHEMES}[ \t]{1,16})?)` +
    String.raw`(?<=(?<![\w-])(?:proxy_set|add|grpc_set|more_set|fastcgi|uwsgi|scgi)_(?:header|param)[ \t]{1,16}["']?[\w.-]{0,64}["']?[ \t]{1,16}["']?(?:${SCHEMES}[ \t]{1,16})?)` +
    String.raw`(?![$<{%])[^\s"'\x60\\;]{8,512}(?<hdrsetR>\k<hdrsetQ>)`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^_(?:header|param)[ \t]{1,16}["']?([\w.-]+)/, text, start), v),
};

const apacheHeader: ScrubRule = {
  name: 'aphdr',
  anchor: 'H',
  source: String.raw`(?<aphdrL>eader[ \t]{1,16}(?:set|append|add)[ \t]{1,16}["']?[\w.-]{0,64}["']?[ \t]{1,16}(?<aphdrQ>["']?)(?:${SCHEMES}[ \t]{1,16})?)` +
    String.raw`(?<=(?<![\w-])(?:Request)?Header[ \t]{1,16}(?:set|append|add)[ \t]{1,16}["']?[\w.-]{0,64}["']?[ \t]{1,16}["']?(?:${SCHEMES}[ \t]{1,16})?)` +
    String.raw`(?![$<{%])[^\s"'\x60\\;]{8,512}(?<aphdrR>\k<aphdrQ>)`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^Header[ \t]{1,16}\w+[ \t]{1,16}["']?([\w.-]+)/, text, start), v),
};

/** `name: KEY` (or `"name": "KEY"`, `key: KEY`), then `,` or a line break, then `value:` — ending where the anchor stands. */
/** `name: KEY` (or `"name": "KEY"`), then `,` or a line break, then `"value`, ending where the lookbehind stands. */
const NAME_THEN_VALUE = String.raw`[nN][aA][mM][eE]["']?[ \t]{0,16}[:=][ \t]{0,16}["']?[\w.-]{1,64}["']?[ \t]{0,16}(?:,[ \t]{0,16}|\r?\n[ \t]{0,16}(?:-[ \t]{1,16})?)["']?`;
const NV_NAME = /[nN][aA][mM][eE]["']?[ \t]{0,16}[:=][ \t]{0,16}["']?([\w.-]{1,64})["']?[ \t]{0,16}(?:,[ \t]{0,16}|\r?\n[ \t]{0,16}(?:-[ \t]{1,16})?)["']?$/;

const nv: ScrubRule = {
  name: 'nv',
  // Anchored at the `v` of `value` with the literal rest after it: one comparison wherever a `v`
  // stands, rather than a lookbehind at every `:` and `=` of the text.
  anchor: 'v',
  source: String.raw`(?<nvL>alue["']?[ \t]{0,16}[:=][ \t]{0,16}(?<nvQ>["']?))(?<=${NAME_THEN_VALUE}value["']?[ \t]{0,16}[:=][ \t]{0,16}["']?)` +
    String.raw`(?![$<{%])[^\s"'\x60\\,}]{1,512}(?<nvR>\k<nvQ>)`,
  accept: (v, text, start) => acceptForName(nameBefore(NV_NAME, text, start), v),
};

const cookie: ScrubRule = {
  name: 'cookie',
  anchor: 'k',
  source: String.raw`(?<cookieL>ie:[ \t]{0,16}[\w.-]{1,64}=)(?<=[cC]ookie:[ \t]{0,16}[\w.-]{1,64}=)(?!eyJ)[^\s;,"']{16,1024}`,
  accept: looksRandom,
};

/** Tried after the `name = value` rules of their anchor groups. */
export const DIRECTIVE_RULES: readonly ScrubRule[] = [sqlby, sqlBY, sqlpw, sqlPW, define, setenv, hdrset, apacheHeader, nv, cookie];
