// Keyword rules for config languages that put a secret after a key name with NO `=` or `:` between
// them, or that name the secret on one line and give its value on another. As everywhere, the name
// only makes a candidate; the value check (scrub-value.ts) decides.
//
//   spc     a key name, spaces, then a QUOTED value: SQL `PASSWORD 'x'`, `#define API_KEY "x"`,
//           `SetEnv DB_PASSWORD "x"`, nginx `proxy_set_header X-Auth-Token "x"`,
//           `proxy_set_header Authorization "Basic x"` (the scheme is kept)
//   sqlby   SQL `IDENTIFIED BY 'x'` / `IDENTIFIED WITH plugin BY x` (MySQL, Oracle), any letter case
//   define  C `#define API_KEY value` unquoted
//   setenv  Apache `SetEnv NAME value`, csh `setenv NAME value`
//   hdrset  nginx `add_header` / `proxy_set_header` / `grpc_set_header`, `fastcgi_param`,
//           `uwsgi_param`, Apache `RequestHeader set` / `Header set`: a key-named header or
//           parameter and its value
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
import { NAME_END, acceptForName } from './scrub-keywords';
import { anyOf, type ScrubRule } from './scrub-rule';
import { isOrdinary, looksRandom, looksSecret } from './scrub-value';

/** Schemes an Authorization value may start with; kept in the output. */
const SCHEMES = anyOf(['Basic', 'basic', 'Bearer', 'bearer', 'Token', 'token', 'Digest', 'Bot', 'ApiKey', 'Negotiate', 'NTLM']);

/** A quoted value: no spaces, quotes, backslashes. */
const QUOTED_VALUE = String.raw`[^\s"'\x60\\]{8,512}`;

/** An unquoted directive value: not an ordinary setting either (`on`, `/path`, `10.0.0.0/8`, `$var`). */
const notSetting = (v: string): boolean => !isOrdinary(v) && !/^[$%@{<]/.test(v);

/** The first capture of `re` in the text from `start` (patterns anchored with `^`), or before it (`$`). */
const nameAfter = (re: RegExp, text: string, start: number): string | undefined => re.exec(text.slice(start, start + 160))?.[1];
const nameBefore = (re: RegExp, text: string, start: number): string | undefined =>
  re.exec(text.slice(Math.max(0, start - 200), start))?.[1];

const SPC_NAME = /([\w.-]{1,64})[ \t]{1,16}$/;

const spc: ScrubRule = {
  name: 'spc',
  anchor: `["'\\x60]`,
  // One character before the quote must be a space or tab: `":"`, `("`, `, '` of code fail at once.
  source: String.raw`(?<=${NAME_END}[ \t]{1,16}["'\x60])(?<spcL>(?:${SCHEMES}[ \t]+)?)` +
    String.raw`(?![$<{%])${QUOTED_VALUE}(?<spcR>["'\x60])`,
  render: (g, ph) => g.spcL + ph + g.spcR,
  accept: (v, text, start) => acceptForName(nameBefore(SPC_NAME, text, start), v),
};

const IDENTIFIED = '[iI][dD][eE][nN][tT][iI][fF][iI][eE][dD]';
const sqlBehind = String.raw`(?<=${IDENTIFIED}(?:[ \t]+[wW][iI][tT][hH][ \t]+["'\x60]?[\w-]{1,64}["'\x60]?)?[ \t]+[bB][yY][ \t]+["'\x60]?)`;
const sqlSource = (name: string): string => String.raw`(?<${name}L>[ \t]+(?<${name}Q>["'\x60]?))${sqlBehind}` +
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

/**
 * An unquoted value after a directive's key name (a quoted one is spc's), not a call (`get_token()`).
 * The run is captured in a lookahead and consumed by backreference: lookaheads are atomic, so the
 * `(` check cannot make the engine retry every shorter prefix of the run.
 */
const directiveValue = (name: string): string =>
  String.raw`(?![$<{%"'\x60])(?=(?<${name}V>[^\s"'\x60\\;(\[]{8,512}))\k<${name}V>(?![(\[])`;

const define: ScrubRule = {
  name: 'define',
  anchor: '#',
  source: String.raw`(?<defineL>[ \t]*define[ \t]+[A-Za-z_]\w{0,63}[ \t]+)${directiveValue('define')}`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^#[ \t]*define[ \t]+(\w+)/, text, start), v),
};

const setenv: ScrubRule = {
  name: 'setenv',
  anchor: 'v',
  source: String.raw`(?<setenvL>[ \t]+[A-Za-z_][\w.-]{0,63}[ \t]+)(?<=(?<![\w-])[sS]et[eE]nv[ \t]+[\w.-]{1,64}[ \t]+)${directiveValue('setenv')}`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^v[ \t]+([\w.-]+)/, text, start), v),
};

/** nginx and Apache directives whose first argument is a header or parameter name and the second its value. */
const hdrset: ScrubRule = {
  name: 'hdrset',
  anchor: '_',
  source: String.raw`(?<hdrsetL>(?:header|param)[ \t]+["']?[\w.-]{0,64}["']?[ \t]+(?<hdrsetQ>["']?)(?:${SCHEMES}[ \t]+)?)` +
    String.raw`(?<=(?<![\w-])(?:proxy_set|add|grpc_set|more_set|fastcgi|uwsgi|scgi)_(?:header|param)[ \t]+["']?[\w.-]{0,64}["']?[ \t]+["']?(?:${SCHEMES}[ \t]+)?)` +
    String.raw`(?![$<{%])[^\s"'\x60\\;]{8,512}(?<hdrsetR>\k<hdrsetQ>)`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^_(?:header|param)[ \t]+["']?([\w.-]+)/, text, start), v),
};

const apacheHeader: ScrubRule = {
  name: 'aphdr',
  anchor: 'H',
  source: String.raw`(?<aphdrL>eader[ \t]+(?:set|append|add)[ \t]+["']?[\w.-]{0,64}["']?[ \t]+(?<aphdrQ>["']?)(?:${SCHEMES}[ \t]+)?)` +
    String.raw`(?<=(?<![\w-])(?:Request)?Header[ \t]+(?:set|append|add)[ \t]+["']?[\w.-]{0,64}["']?[ \t]+["']?(?:${SCHEMES}[ \t]+)?)` +
    String.raw`(?![$<{%])[^\s"'\x60\\;]{8,512}(?<aphdrR>\k<aphdrQ>)`,
  accept: (v, text, start) => notSetting(v) && acceptForName(nameAfter(/^Header[ \t]+\w+[ \t]+["']?([\w.-]+)/, text, start), v),
};

/** `name: KEY` (or `"name": "KEY"`, `key: KEY`), then `,` or a line break, then `value:` — ending where the anchor stands. */
const NAME_THEN_VALUE = String.raw`(?<=[nN][aA][mM][eE]["']?[ \t]*[:=][ \t]*["']?[\w.-]{1,64}["']?[ \t]*` +
  String.raw`(?:,[ \t]*|\r?\n[ \t]*(?:-[ \t]+)?)["']?[vV][aA][lL][uU][eE]["']?[ \t]*[:=])`;

const NV_NAME = /[nN][aA][mM][eE]["']?[ \t]*[:=][ \t]*["']?([\w.-]{1,64})["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*(?:-[ \t]+)?)["']?[vV][aA][lL][uU][eE]["']?[ \t]*$/;

const nv: ScrubRule = {
  name: 'nv',
  anchor: '[:=]',
  // `value:` ends here (the `e` and `u` are tested before the long lookbehind).
  source: String.raw`(?<=[uU][eE]["']?[ \t]*[:=])${NAME_THEN_VALUE}(?<nvL>[ \t]*(?<nvQ>["']?))(?![$<{%])[^\s"'\x60\\,}]{1,512}(?<nvR>\k<nvQ>)`,
  accept: (v, text, start) => acceptForName(nameBefore(NV_NAME, text, start), v),
};

const cookie: ScrubRule = {
  name: 'cookie',
  anchor: 'k',
  source: String.raw`(?<cookieL>ie:[ \t]*[\w.-]{1,64}=)(?<=[cC]ookie:[ \t]*[\w.-]{1,64}=)(?!eyJ)[^\s;,"']{16,1024}`,
  accept: looksRandom,
};

/** Tried after the `name = value` rules of their anchor groups. */
export const DIRECTIVE_RULES: readonly ScrubRule[] = [spc, sqlby, sqlBY, define, setenv, hdrset, apacheHeader, nv, cookie];
