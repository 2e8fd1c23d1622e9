// Keyword-labelled scrub rules: a secret recognised by the name in front of it rather than by its
// own shape. The label is always kept (`password=[REDACTED]`, `Authorization: Bearer [REDACTED]`),
// only the value goes.
//
// THE GENERIC KEYWORD RULE (`gen`), decided here so that source code read through an agent stays
// editable while config files, logs and tool output lose their secrets:
//
// 1. The key is an identifier whose LAST segment is a keyword: password, passwd, passphrase, pass,
//    secret, token, credential, auth, authorization, api key, access key, secret key, private key,
//    signing key, encryption key, master key. A segment starts after a non-alphanumeric character
//    (`_`, `-`, `.`, quote, space: `DB_PASSWORD`, `client_secret`, `x-api-key`) or at a camelCase
//    hump (`stripeSecret`, `githubToken`, `APIKey`). No `\b`: `_` is a word character and `\b`
//    would miss `DB_PASSWORD`. A keyword inside a word is not a key (`monkey`, `bypass`, `oauth`),
//    nor is a keyword followed by more identifier (`password_hash`, `tokenizer`, `tokenUrl`).
// 2. Then an optional closing quote (also JSON-escaped `\"`), spaces, and one of `:`, `=`, `:=`,
//    `=>` — but not `==`, `===`, `=~` or `::`, which are comparisons and paths, not assignments.
// 3. A QUOTED value ('…', "…", `…`, also `\"…\"`) is a secret when it is 8–512 characters without
//    whitespace, quotes, backslashes or `|`, and is not: a reference or template (`${…}`, `$VAR`,
//    `<your-token>`, `{{ … }}`, `%s`, `[type=password]`), a dotted identifier path
//    (`"form.password"`), one capitalised word (`"Passwort"`, i18n labels), or a NAME: letters, `_`
//    and `-` only with a camel hump, a separator or a keyword stem (`"refresh_token"`,
//    `"acquireTokenByRefreshToken"`, `"password"`, `"client-secret"`: constants and event names).
//    A plain lowercase word (`"postgres"`, `"changeme"`) still counts as a secret; quoted text with
//    spaces is prose.
// 4. An UNQUOTED value is a secret when it is 8+ characters of [A-Za-z0-9_-+/=.~%@!*#^:$], does not
//    start with one of $ = : ! ~ @ # % . (references, operators, spreads, comments) nor with a `+`
//    that is not the start of a 20+ character base64 run (unary plus vs `+eow…3rM=`), and is not
//    code: an identifier path (`req.body.password`, `process.env.SECRET`, `Token::new`, `x?.y`), an
//    identifier-shaped word (`string`, `userPassword`, `Get-AzAccessToken`, `RESET_PASSWORD_V2`,
//    `oauth2Token`, `ArrowToken$1`), or anything directly followed by `(`, `[`, `<`, `{` or `?.`.
//    An all-lowercase word of 12+ letters is the exception: a passphrase (`password:
//    mysecretpassword` in YAML) far more often than an identifier, so it is redacted.
//    Known costs of this choice: an unquoted all-letters value shorter than 12 letters
//    (`password: hunter` ) is taken for an identifier and left; a lowercase identifier with a digit
//    inside (`auth: type1msg`) is taken for a hex-like token and redacted.
//
// THE ENV RULE (`env`): an UPPERCASE env-style name (`[A-Z0-9_]`, at most 64 characters, not part of
// a longer identifier) with a whole `_`-segment KEY, SECRET, TOKEN, PASSWORD, PASS, CREDENTIAL(S),
// PRIVATE, … or a connection-string name (DSN, DATABASE_URL, REDIS_URL, MONGO_URI, …), then `=`
// with no space: the whole value is a secret, letters-only or not (.env files, `env`, docker
// inspect). Not: references (`$X`, `%X%`, `<x>`, `{{x}}`, `$(cmd)`), booleans, numbers up to
// six digits (`TOKEN_TTL=3600`), one UPPER_CASE word (`KEY=VALUE` in usage text), and names whose
// last segment is about something else (`…_FILE`, `…_PATH`, `…_NAME`, `…_ID`, …:
// `DB_PASSWORD_FILE=/run/secrets/db`).
//
// The other rules here: `Authorization: <scheme> <credentials>` headers (hdr), token-like URL query
// parameters (qry). All of them are anchored at the separator; see genSource for why.
import { anyOf, longestFirst, suffixTrie, type ScrubRule } from './scrub-rule';
import { isNameLike, isNamePath, isOrdinary, isPlaceholder, looksLikeCode, looksRandom, looksSecret } from './scrub-value';

const ALNUM = '[A-Za-z0-9]';

/** The keywords; a space stands for an optional `_` or `-` (`api key`: apikey, api_key, apiKey, API-KEY, …). */
const KEYWORDS = ['password', 'passwd', 'passphrase', 'pass', 'secret', 'token', 'credential', 'auth', 'authorization',
  'api key', 'access key', 'secret key', 'secret key base', 'private key', 'signing key', 'encryption key', 'master key', 'pat'];

/**
 * One keyword in any letter case, as regex source. Its first letter: lowercase needs a segment
 * boundary before it (`db_password`, not `monkey`), uppercase is a camel hump or an UPPER_CASE
 * name and needs none (`stripeSecret`, `DB_PASSWORD`).
 */
function caseless(word: string, glued = false): string {
  return [...word].map((c, i) => {
    if (c === ' ') return '[_.-]?';
    if (i === 0) return glued ? `[${c}${c.toUpperCase()}]` : `(?:(?<!${ALNUM})${c}|${c.toUpperCase()})`;
    return `[${c}${c.toUpperCase()}]`;
  }).join('');
}

/**
 * All keywords as a lookbehind body, grouped by last letter: V8 matches a lookbehind right to left,
 * so a separator preceded by `"name"` fails on one comparison instead of trying every keyword.
 */
export function keywordBehind(): string {
  const byLast = new Map<string, string[]>();
  for (const w of KEYWORDS) {
    const last = w[w.length - 1];
    byLast.set(last, [...(byLast.get(last) ?? []), w]);
  }
  const branches = [...byLast.entries()].map(([last, ws]) => {
    // A long keyword is a key even glued to a lower-case word before it (`dbpassword`, `ngrok_authtoken`);
    // the short ones are not (`bypass`, `oauth`).
    const rests = longestFirst(ws).map((w) => caseless(w.slice(0, -1), w.length >= 5 && !w.startsWith('auth')));
    return `(?:${rests.join('|')})[${last}${last.toUpperCase()}]`;
  });
  // A bare `key` only as the last segment of a longer name (`dd_app_key`, `writeKey`), never alone
  // (`key: id` is everywhere); its values must look random (keyNameAccept).
  branches.push('(?:(?<=[A-Za-z0-9][_.-])[kK]|(?<=[a-z0-9])K)[eE][yY]');
  return `(?:${branches.join('|')})`;
}

/** A name ending in a keyword that says the value IS the secret (`password`, `api_key`, `token`), then its separator. */
const SECRET_NAME_END = /(?:pass(?:word|wd|phrase)?|secret|token|pat|credentials?|auth(?:orization)?|(?:api|access|secret|private|signing|encryption|master)[_.-]?key|secret[_.-]?key[_.-]?base)(?:["'\\\]\s:]|string|str|&str|\[\]byte)*[:=?+.>]*$/i;

/**
 * A value led by `!`, `@`, `#` or `%` is a YAML tag, a decorator, a comment or a format
 * (`!ImportValue`, `@Value`, `#TODO-later`, `%(name)s`) more often than a password, unless it has
 * both letters and digits (`!Xq9pL2vB7wZ`).
 */
function symbolLedOk(value: string): boolean {
  return !/^[!@#%]/.test(value) || (/[0-9]/.test(value) && /[A-Za-z]/.test(value));
}

/** Whether the value found after `start` stands in quotes: a quoted string is never code. */
function quotedAt(value: string, text: string, start: number): boolean {
  const at = text.indexOf(value, start);
  return at > 0 && /["'\x60]/.test(text[at - 1]);
}

/**
 * The value check of the generic rule: after a name like `password` or `api_key` any value that is
 * not a placeholder goes; after a name that only ends in `key` (`dd_app_key`, `sort_key`), only a
 * random-looking one.
 */
export function keyNameAccept(value: string, text: string, start: number): boolean {
  if (isNameLike(value) || isNamePath(value) || !symbolLedOk(value) || (!quotedAt(value, text, start) && looksLikeCode(value))) return false;
  return SECRET_NAME_END.test(text.slice(Math.max(0, start - 64), start + 1)) ? looksSecret(value) : looksRandom(value);
}

/** Key names whose last word (or last two or three words) is a keyword; `key` alone only after other words. */
const KEY_LAST_WORDS = new Set(['password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'secrets', 'token', 'credential',
  'credentials', 'creds', 'auth', 'authorization', 'authtoken', 'apikey', 'accesskey', 'secretkey', 'secretkeybase', 'privatekey',
  'signingkey', 'encryptionkey', 'masterkey', 'pat']);
/** Long keywords that make a key even glued to a word before them (`dbpassword`, `ngrok_authtoken`). */
const GLUED_END = /(?:password|passwd|passphrase|secret|token|credentials?)$/;

/**
 * The keyword test of keywordBehind(), in JS, for rules that find the name with a cheap pattern and
 * decide here (the combined pattern must stay small: V8 stops optimising a pattern over 20 KB).
 * Returns 'secret' when the name says the value IS the secret (`DB_PASSWORD`, `X-Api-Key`),
 * 'key' when it only ends in `key` (`dd_app_key`: only a random-looking value counts), else undefined.
 */
export function keyNameKind(name: string): 'secret' | 'key' | undefined {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const n = words.length;
  if (!n) return undefined;
  const last = words[n - 1];
  if (KEY_LAST_WORDS.has(last) || KEY_LAST_WORDS.has(words.slice(-2).join('')) || KEY_LAST_WORDS.has(words.slice(-3).join('')) ||
      (last.length > 5 && GLUED_END.test(last))) return 'secret';
  return last === 'key' && n > 1 ? 'key' : undefined;
}

/** The value check for a value after `name`: any non-placeholder after a secret name, a random one after a `…key`. */
export function acceptForName(name: string | undefined, value: string): boolean {
  const kind = name === undefined ? undefined : keyNameKind(name);
  if (kind === undefined || isNameLike(value) || isNamePath(value) || looksLikeCode(value)) return false;
  return kind === 'secret' ? looksSecret(value) : looksRandom(value);
}

/**
 * What may stand between a key's name and its separator besides a closing quote and spaces: a
 * closing `]` (`ENV['API_KEY'] = …`), a type (`var token string = …`, `token: string = …`).
 */
const TYPE_OR_INDEX = String.raw`(?:\\?["'])?(?:\]|[ \t]*:?[ \t]*(?:string|String|str|&str|\[\]byte))`;
export const NAME_END = String.raw`(?:[rRwW]d|[sSrR]e|[sS]s|[eEwW]t|[eEoO]n|[aA]l|[tT]h|[eE]y|[iI]g|[A-Z_][A-Z0-9])`;
const CLOSE_QUOTE = String.raw`(?:\\?["'])?`;

/**
 * Shared by every rule of the `[:=]` anchor group that needs a name before the separator (env,
 * qry, hdr, gen, azure): the name's last two characters, before an optional quote and spaces, are
 * the end of some keyword (`…rd`, `…en`, `…ey`, …) or of an UPPER_CASE name. One lookbehind turns
 * away most `:` and `=` of JSON and code (`"name":`, `id: string`) before any rule runs. It may let
 * through a little more than the rules accept (`token]::=`); each rule's own lookbehind decides.
 * It is tried at every `:` and `=` of the text, so its shape is chosen for V8, which matches a
 * lookbehind right to left without its quick checks: the plain form (`name:`, `"name":`, `KEY =`)
 * is the first branch, and the rare forms with a `]` or a type between name and separator are
 * branches of their own that fail on the first character they read. (The same forms as optional
 * parts of one branch were measured at about twice the cost: every optional part is a choice the
 * engine backtracks into at every `:` and `=`.)
 */
export const KEYWORD_GUARD = String.raw`(?<=(?:${NAME_END}${CLOSE_QUOTE}|${NAME_END}${CLOSE_QUOTE}${TYPE_OR_INDEX})` +
  String.raw`[ \t]{0,32}(?:::|[?+.])?[:=])`;

/** Characters of an unquoted value. */
const V = String.raw`[\w\-+/=.~%@!*#^:$&]`;
/**
 * Brackets, `;`, `|` and `?` belong to an unquoted value too (generated secrets have them). `;`, `|`
 * and `?` only between its other characters: one that ends the run (`token = x9f…;`) is the code's.
 * A closing bracket may end it (`…(mn4r)`), so a secret is never cut before its last character.
 * Whether a value with them is code (`getToken(opts)`) is looksLikeCode's decision.
 */
/** A `;` before `Name=` separates the parts of a connection string (`Password=…;Encrypt=true`). */
const INNER = String.raw`(?:[?|]|;(?![A-Za-z][\w .-]{0,32}=))`;
const OPEN = String.raw`[(\[{]`;
const CLOSE = String.raw`[)\]}]`;
/** One character of the unquoted value run. */
const UNIT = String.raw`(?:${V}|${OPEN}|${CLOSE}|${INNER}{1,8}(?=${V}|${OPEN}|${CLOSE}))`;
/** The run goes on after this point (closing brackets that end it do not count: `f(token=value)`). */
const MORE = String.raw`(?:${V}|${OPEN}|(?:${INNER}|${CLOSE}){1,8}(?:${V}|${OPEN}))`;
/**
 * An unquoted value that is code, not a secret: an identifier path (`req.body.password`,
 * `Token::new`, `user!.token`, `x?.y`), or one identifier-shaped word: letters only (`undefined`,
 * `userPassword`) — except one all-lowercase word of 12+ letters, which is a passphrase far more
 * often than an identifier (`password: mysecretpassword` in YAML) —, kebab words of whole words
 * (`Get-AzAccessToken`; not letters at random, `mfTIYqkj-gkSwTThMTByMJ`), SCREAMING_SNAKE (`RESET_PASSWORD_V2`),
 * camel/Pascal case with digits only at hump ends (`oauth2Token`, `Base64Url`), optionally with a
 * bundler suffix (`ArrowToken$1`), and then not more of the value (a call's `(` may follow).
 * Random secrets practically never take these shapes.
 */
const CODE = String.raw`(?:(?![a-z]{12,}(?!${MORE}))(?:[A-Z_]+|[A-Z]?[a-z_]+(?:[A-Z][a-z_]{2,})*)|[A-Z]?[a-z]+(?:-(?:[A-Z]{0,3}[a-z]+)+)+` +
  String.raw`|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+[0-9]*(?:[A-Z][a-z]{2,})+[0-9]*|(?:[A-Z][a-z]{2,})+[0-9]*)(?:\$[0-9]+)?!?(?!${MORE})`;
const QUOTE = String.raw`\\?["'\x60]`;
/**
 * After the anchor (`=` or `:`): the rest of `=>` or `:=`. The keyword lookbehind accepts only
 * `=`, `=>`, `:`, `:=` before it, and `(?![=~:])` refuses `==`, `===`, `=~` and `::`.
 */
const SEPARATOR_REST = String.raw`[>=]?(?![=~:])`;
/** `https://x-access-token:…@host` is the uri rule's, which keeps the host: not a `token:` key. */
const NOT_URL_USERINFO = String.raw`(?<!//[^\s/@:]{0,128}:)`;
/** `=`, `=>`, `:`, `:=`, Makefile `::=` `?=` `+=`, PHP `.=`. */
const SEPARATOR_BEHIND = String.raw`(?:\\?["'])?(?:\]|[ \t]*:?[ \t]*(?:string|String|str|&str|\[\]byte))?[ \t]{0,32}(?:=>?|::=|:=?|[?+.]=)`;

const QUOTED = String.raw`(?<genQ>${QUOTE})(?![<{\[])(?![A-Z][a-z\u00C0-\u024F]{2,}\k<genQ>)` +
  String.raw`[^\s"'\x60\\|]{8,512}\k<genQ>`;
/**
 * A method call on a member path (`request.POST.get(`, `r.Header.Get(`): code, refused here already
 * (it is common after `token =` in source, and a candidate costs far more than this check).
 */
const MEMBER_CALL = String.raw`(?:[A-Za-z_$][\w$]{0,64}\.){1,8}[A-Za-z_$][\w$]{0,64}\(`;
// The value run is captured in a lookahead and consumed by backreference: lookaheads are atomic, so
// no check after it can make the engine retry every shorter prefix of the run. A value may start
// with `!`, `@`, `#`, `%`, `$`, `~`, `.` or `+` (generated passwords do); keyNameAccept tells a
// reference (`$HOME`, `~/.ssh/config`, `./relative`) or a unary plus (`+count`) from a secret.
// Past 512 characters the run goes on over plain value characters only: a bracket there would let
// every `=` of a long hostile run scan to its end (quadratic once another lane wins each position).
const UNQUOTED = String.raw`(?![=:])(?!\+?${CODE})(?!${MEMBER_CALL})(?=(?<genV>${UNIT}{8,512}))\k<genV>(?!<)${V}*`;

/**
 * Anchored at the separator, not at the keyword: `=` and `:` are rare next to letters, and an
 * alternation of ~100 keyword spellings starting with common letters would be tried at most
 * positions of the text.
 * The key stays in the output because it lies before the match.
 */
function genSource(): string {
  const check = `(?<=${keywordBehind()}${SEPARATOR_BEHIND})`;
  return `(?<genL>${SEPARATOR_REST}${check}${NOT_URL_USERINFO}[ \\t]*)(?:${QUOTED}|${UNQUOTED})`;
}

const genRule: ScrubRule = {
  name: 'gen',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  source: genSource(),
  render: (g, ph) => g.genL + (g.genQ ?? '') + ph + (g.genQ ?? ''),
  accept: keyNameAccept,
};

const ENV_WORDS = ['KEY', 'KEYS', 'APIKEY', 'ACCESSKEY', 'SECRETKEY', 'PRIVATEKEY', 'SECRET', 'SECRETS', 'CREDENTIAL',
  'CREDENTIALS', 'CREDS', 'PRIVATE', 'TOKEN', 'PAT', 'PASSWORD', 'PASSWD', 'PASS', 'PGPASSWORD', 'MYSQL_PWD', 'DSN',
  'DATABASE_URL', 'DB_URL', 'REDIS_URL', 'MONGO_URI', 'MONGO_URL', 'MONGODB_URI', 'MONGODB_URL', 'AMQP_URL', 'BROKER_URL',
  'CONNECTION_STRING'];

/** Last name segments that say the value is about the secret, not the secret: `DB_PASSWORD_FILE=/run/…`. */
const NOT_THE_SECRET = ['FILE', 'PATH', 'DIR', 'ENDPOINT', 'HOST', 'PORT', 'NAME', 'TYPE', 'TTL', 'EXPIRY', 'EXPIRES',
  'LENGTH', 'SIZE', 'HEADER', 'ENABLED', 'REGION', 'ID', 'IDS', 'ARN', 'ARNS', 'NAMES', 'VERSION'];

/**
 * Last name segments that say the value IS the secret (`DB_PASSWORD`, `SECRET_KEY_BASE`): any value
 * that is not a placeholder goes. With another last segment (`KEY_FORMAT`, `CREDENTIAL_PROVIDER`,
 * `PRIVATE_NETWORK_CIDR`) only a random-looking value does.
 */
const SECRET_LAST = new Set(['KEY', 'KEYS', 'APIKEY', 'ACCESSKEY', 'SECRETKEY', 'PRIVATEKEY', 'SECRET', 'SECRETS', 'CREDENTIAL',
  'CREDENTIALS', 'CREDS', 'TOKEN', 'PAT', 'PASSWORD', 'PASSWD', 'PASS', 'PGPASSWORD', 'PWD', 'DSN', 'URL', 'URI', 'STRING', 'BASE',
  'PRIVATE', 'AUTH']);

function envSource(): string {
  const kw = suffixTrie(ENV_WORDS);
  // Anchored at `=`; the first lookbehind (whole name uppercase env style, at a boundary, at most
  // 64 characters) fails on the first character in ordinary code, the second finds the segment.
  const name = String.raw`(?<=(?<![\w$.\-])[A-Z][A-Z0-9_]{0,63}=)(?<=(?<!${ALNUM})${kw}(?:_[A-Z0-9]+){0,8}=)`;
  // Not a secret: booleans, small numbers, and an UPPER_CASE word (`--env KEY=VALUE` usage text,
  // `API_KEY=YOUR_API_KEY` placeholders, another variable's name).
  const notPlain = String.raw`(?!(?:true|false|yes|no|on|off|null|none|nil|[0-9]{1,6}|[A-Z][A-Z_]*)(?![^\s"'\x60\\,;)\]}]))`;
  const quoted = String.raw`(?<envQ>["'])[^"'\r\n]{1,1024}\k<envQ>`;
  const bare = String.raw`(?![<{(])[^\s"'\x60\\]+`;
  const notAbout = `(?<!_${suffixTrie(NOT_THE_SECRET)}=)`;
  return `(?<envL>${name}${notAbout})${notPlain}(?:${quoted}|${bare})`;
}

/** A documentation DSN whose password is a placeholder (`postgres://user:password@localhost/db`). */
function placeholderUserinfo(url: string): boolean {
  const password = /^[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:([^\s/@]*)@/i.exec(url)?.[1];
  // One or two characters are too few to tell a placeholder (`u:p@`).
  return password !== undefined && password.length >= 4 && isPlaceholder(password);
}

/** `[A-Z0-9_]`, tested on a character code (this runs on every env candidate). */
const isEnvNameChar = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

const envRule: ScrubRule = {
  name: 'env',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  source: envSource(),
  render: (g, ph) => g.envL + (g.envQ ?? '') + ph + (g.envQ ?? ''),
  accept: (value, text, start) => {
    let i = start;
    while (i > 0 && i > start - 64 && isEnvNameChar(text.charCodeAt(i - 1))) i -= 1;
    const last = text.slice(i, start).split('_').pop() ?? '';
    // A URL-named setting is a secret only with credentials in it (`DATABASE_URL=postgres://u:p@h`).
    if (last === 'URL' || last === 'URI') return !isOrdinary(value) && looksSecret(value) && !placeholderUserinfo(value);
    return SECRET_LAST.has(last) ? looksSecret(value) : looksRandom(value);
  },
};

const SCHEMES = ['Bearer', 'bearer', 'BEARER', 'Basic', 'basic', 'BASIC', 'Token', 'token', 'TOKEN', 'Digest', 'digest',
  'Bot', 'Negotiate', 'NTLM', 'AWS4-HMAC-SHA256', 'ApiKey', 'Apikey', 'apikey', 'Key', 'SSWS', 'OAuth', 'MAC'];

/**
 * `Authorization: <scheme> <credentials>`; the AWS4 form also has `, Name=value` parts after it.
 * Not credentials: a lowercase word or an UPPER_CASE placeholder (`Bearer token`, `Bearer YOUR_TOKEN`).
 */
const hdrRule: ScrubRule = {
  name: 'hdr',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  source: String.raw`(?<hdrL>(?<=(?:Authorization|authorization|AUTHORIZATION)(?:\\?["'])?[ \t]{0,32}[:=])[ \t]*(?:${QUOTE})?` +
    String.raw`${anyOf(SCHEMES)}[ \t]+)(?![<{]|\$[{(])(?![a-z_]+(?![^\s"'\x60\\,])|[A-Z_]+(?![^\s"'\x60\\,]))[^\s"'\x60\\,]{4,}(?:,[ \t]{0,8}[A-Za-z]{1,32}=[^\s,"'\x60\\]+){0,8}`,
  accept: looksSecret,
};

const QUERY_NAMES = ['access_token', 'refresh_token', 'id_token', 'auth_token', 'session_token', 'private_token',
  'token', 'accessToken', 'api_key', 'apikey', 'api-key', 'apiKey', 'client_secret', 'secret', 'password', 'passwd',
  'sig', 'signature', 'Signature', 'X-Amz-Signature', 'X-Amz-Security-Token', 'X-Amz-Credential', 'X-Goog-Signature',
  'X-Goog-Credential', 'jwt'];

/** A token-like URL query parameter: `?access_token=…&page=2` keeps the name and the rest of the URL. */
const qryRule: ScrubRule = {
  name: 'qry',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  source: String.raw`(?<=[?&]${suffixTrie(QUERY_NAMES)}=)(?![$<{:])[^&#\s"'<>\x60\\]+`,
  accept: looksSecret,
};

/** In the order they are tried at one position: env and qry before gen (they take any value), hdr before gen. */
export const KEYWORD_RULES: readonly ScrubRule[] = [envRule, qryRule, hdrRule, genRule];
