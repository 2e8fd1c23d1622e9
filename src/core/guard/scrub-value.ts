// What a candidate value must look like before a rule redacts it. The combined regex finds
// candidates (a key-like name and a separator, a vendor prefix); these checks, run only on the rare
// candidates, decide on the VALUE: its length, character classes, entropy, and whether it is a
// placeholder, a mask, a reference or an ordinary setting. A key-like name alone is never enough.

/** Words that placeholders are made of: `YOUR_API_KEY_HERE`, `changeme`, `<your-token>`, `EXAMPLE`. */
const PLACEHOLDER_WORDS = new Set(['example', 'examples', 'sample', 'dummy', 'fake', 'placeholder', 'changeme', 'change', 'me',
  'your', 'my', 'our', 'here', 'replace', 'replaceme', 'redacted', 'removed', 'hidden', 'masked', 'todo', 'fixme', 'tbd', 'secret',
  'secrets', 'password', 'passwd', 'passphrase', 'authorization', 'bearer', 'pass', 'pwd', 'token', 'key', 'api', 'apikey', 'access', 'private', 'client', 'value', 'insert',
  'enter', 'put', 'the', 'goes', 'a', 'an', 'with', 'test', 'testing', 'foo', 'bar', 'baz', 'qux', 'none', 'null', 'nil',
  'undefined', 'not', 'set', 'unset', 'empty', 'default', 'xxx', 'auth', 'credential', 'credentials', 'id',
  'username', 'name', 'string', 'str', 'text', 'new', 'generated', 'random', 'some', 'any', 'valid', 'invalid',
  'real', 'actual', 'own', 'personal', 'app', 'service', 'account', 'github', 'gitlab', 'aws', 'openai', 'slack', 'stripe',
  'dev', 'local', 'demo', 'sk', 'pk', 'live', 'prod', 'production', 'staging', 'mock', 'stub']);

/**
 * One identifier as people name variables: snake_case, SCREAMING_SNAKE, camelCase or PascalCase
 * words, digits only at the end of a word (`HOME`, `db_password`, `apiKey`, `S3_BUCKET`, `getAPIKey`).
 * A random run that happens to be an identifier (`ecretP4ss`, `J6G52KOA3W`, `iJ4`) is not this shape.
 */
const NAME = String.raw`(?:_*[a-z]+[0-9]*(?:_[a-z]+[0-9]*)*_?|_*[A-Z]+[0-9]*(?:_(?:[A-Z]+[0-9]*|[0-9]+))*_?|` +
  String.raw`_*[a-z]+[0-9]*(?:[A-Z][a-z]+[0-9]*|[A-Z]{2,}(?![a-z]))+|(?:[A-Z][a-z]+[0-9]*|[A-Z]{2,}(?![a-z]))+)`;
const NAME_SHAPE = new RegExp(`^\\$?${NAME}$`);

/**
 * A reference to a value kept elsewhere, recognised by its WHOLE shape (a value merely starting with
 * `$`, `%`, `~` or `.` is as often a generated password): `${X}…`, `$(cmd)`, `$NAME` alone or
 * followed by a path or member (`$HOME/.ssh`, `$env:X`, `$this->x`), `%NAME%`, `%(x)s`, `%{x}`,
 * a format (`%s`, `%-8d`), `~/…`, `~user/…`, `./…`, `../…`, a dot file or jq path (`.env`,
 * `.config.json`), `<x>`, `{{ x }}`, `{% x %}`, `#{x}`, `@{x}`, `[[x]]`, `!Ref`, `op://`, `vault:`.
 */
const REFERENCE = new RegExp(String.raw`^(?:\$[{(]|\$[0-9](?![A-Za-z0-9])|\$${NAME}(?:$|[\s/\\.:[\-})@,;])|%${NAME}%|` +
  String.raw`%\([\w.]+\)[a-z]|%\{[^}]*\}|%[-+ #0-9.]*[sdifxXrvqoegT](?![A-Za-z0-9])|~(?:[a-z_][a-z0-9_-]*)?(?:\/|$)|\.{1,2}\/|` +
  String.raw`\.[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$|<[^>]*>|\{\{|\{%|#\{|@\{|\[\[|!Ref\b|!Sub\b|op:\/\/|vault:|ref\+|arn:aws:|` +
  String.raw`secretsmanager:|sm:\/\/|file:|env:)`);

/** `a.b`, `x?.y`, `a!.b`, `Foo::bar`, `$this->x`: member paths of name-shaped identifiers. */
function isCodePath(v: string): boolean {
  return v !== '' && v.split(/[?!]?\.|::|->/).every((p) => NAME_SHAPE.test(p));
}

const OPENERS = '([{';
const CLOSERS = ')]}';

/**
 * Whether an unquoted value with brackets, `;`, `|` or `?` in it is code rather than a secret:
 * a call, index or statement after a name path (`getToken(opts)`, `request.POST.get(`,
 * `create(len`, `cfg[key]`, `token;`, `a||b`, `prod?a:b`), its brackets nested as code nests them.
 * Generated secrets have brackets in no such order (`w)6:Ysd0…`, `5_y{P1+uq8+}g…`, `p(kc.n:nOW}…`).
 */
export function looksLikeCode(v: string): boolean {
  // `f(token=value)`: the brackets that end the value close the code's call.
  const core = v.replace(/[)\]}]+$/, '');
  if (core !== v && isCodePath(core)) return true;
  const cut = v.search(/[([{;|]|\?(?!\.)/);
  // A value may open with a bracket (`[]byte(cfg.Secret)`, `(a+b)`), then it must all nest as code.
  if (cut < 0 || (cut > 0 && !isCodePath(v.slice(0, cut)))) return false;
  const c = v[cut];
  if (c === '?') return /^\?[\w$.]+:[\w$.]+$/.test(v.slice(cut));
  if (c === '|') return v.split(/\|\|?/).every(isCodePath);
  if (c === ';') return v.split(';').every((part) => part === '' || isCodePath(part) || looksLikeCode(part));
  const open: number[] = [];
  for (let i = cut; i < v.length; i++) {
    const o = OPENERS.indexOf(v[i]);
    if (o >= 0) open.push(i);
    const k = CLOSERS.indexOf(v[i]);
    if (k >= 0 && (open.length === 0 || v[open.pop() as number] !== OPENERS[k])) return false;
  }
  // Between the brackets only what a call or index holds when it has no space, quote or comma in it
  // (those end the run: `fn(a, b)` arrives as `fn(a`): names, member paths, numbers, a field's `key:`.
  // After a call, a member of its result (`z.string().min(8)`).
  // After a call, a member of its result (`z.string().min(8)`) or TypeScript's `!` (`get(id)!`).
  return v.split(/[()[\]{}]/).every((part) => part === '' || part === '!' || /^[0-9]+$/.test(part) ||
    isCodePath(part.replace(/^(?:[?!]?\.|::|->)/, '').replace(/[:!]$/, '')));
}

/** Reads of the environment or a secret store written as code: `process.env.X`, `os.environ["X"]`, `ENV.fetch`. */
const ENV_READ = /process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv\(|System\.getenv|Environment\.GetEnvironmentVariable|\bENV\[|\bENV\.fetch|secrets\.|\$env:|env\(/;

/** A display mask: `********`, `xxxx…`, `••••`, `sk-****abcd`, `sk_live_...6536` (an ellipsis), a run of one character. */
function isMask(v: string): boolean {
  return /\*{3,}|•{3,}|[xX]{5,}|#{5,}|\.{3,}|…|_{5,}|0{8,}|\?{4,}/.test(v) || /^(.)\1*$/.test(v) || /^(?:[xX*#•.?_-])+$/.test(v);
}

/** Every word of the value is a placeholder word: `YOUR_API_KEY_HERE`, `change-me`, `ExampleToken`, `test_secret`. */
function isPlaceholderWords(v: string): boolean {
  if (/^[\x00-\x7f]*$/.test(v)) return asciiPlaceholderWords(v);
  const words = v.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return words.length > 0 && words.every((w) => PLACEHOLDER_WORDS.has(w));
}

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * isPlaceholderWords for ASCII text (nearly every candidate) without the replace, split and filter
 * copies: the same words (cut at every character that is not a letter or digit and between a
 * lower-case and an upper-case letter), stopping at the first that is not a placeholder word.
 */
function asciiPlaceholderWords(v: string): boolean {
  let words = 0;
  let start = -1;
  for (let i = 0; i <= v.length; i++) {
    const c = i < v.length ? v.charCodeAt(i) : -1;
    const inWord = isLower(c) || isUpper(c) || isDigit(c);
    const camel = inWord && start >= 0 && isUpper(c) && isLower(v.charCodeAt(i - 1));
    if (start >= 0 && (!inWord || camel)) {
      if (!PLACEHOLDER_WORDS.has(v.slice(start, i).toLowerCase())) return false;
      words += 1;
      start = -1;
    }
    if (inWord && start < 0) start = i;
  }
  return words > 0;
}

/** `your` as a word of its own: `xoxb-your-bot-token`, `YOUR_API_KEY`, `sk-your-key-here`. */
const YOUR = /(?:^|[^A-Za-z])(?:your|Your|YOUR)(?:[^a-z]|$)/;
/** A vendor's short prefix, before a mask: `hf_xxx`, `sk-****`. */
const VENDOR_PREFIX = /^[a-z]{2,6}[_-]/;

export function isPlaceholder(v: string): boolean {
  const t = v.replace(/^["'`]|["'`]$/g, '');
  return t === '' || REFERENCE.test(t) || ENV_READ.test(t) || isMask(t) || isPlaceholderWords(t) ||
    YOUR.test(t) || isMask(t.replace(VENDOR_PREFIX, '')) ||
    /example/.test(t) && /^[A-Za-z_-]*$/.test(t);
}

/** Counts of ASCII characters for entropy(); zeroed again after each use. */
const asciiCounts = new Uint32Array(128);

/**
 * Shannon entropy in bits per character. It runs on every candidate, so ASCII values (nearly all)
 * are counted in a reused array rather than a Map; both sum the same terms in the same order
 * (characters in order of first appearance), so they give the same number to the last bit.
 */
export function entropy(v: string): number {
  const order: number[] = [];
  let ascii = true;
  for (let i = 0; i < v.length && ascii; i++) {
    const c = v.charCodeAt(i);
    if (c >= 128) ascii = false;
    else if (asciiCounts[c]++ === 0) order.push(c);
  }
  let h = 0;
  if (ascii) {
    for (const c of order) {
      const p = asciiCounts[c] / v.length;
      h -= p * Math.log2(p);
    }
  }
  for (const c of order) asciiCounts[c] = 0;
  if (ascii) return h;
  const counts = new Map<string, number>();
  for (const c of v) counts.set(c, (counts.get(c) ?? 0) + 1);
  for (const n of counts.values()) {
    const p = n / v.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How many of lowercase, uppercase, digits, other appear. */
export function charClasses(v: string): number {
  return Number(/[a-z]/.test(v)) + Number(/[A-Z]/.test(v)) + Number(/[0-9]/.test(v)) + Number(/[^A-Za-z0-9]/.test(v));
}

/** Keys that are public by design: Stripe publishable, Mapbox public, PostHog project keys. */
export const PUBLIC_BY_DESIGN = /^(?:pk_(?:live|test)_|pk\.eyJ|phc_)/;

/**
 * A setting's ordinary value: numbers and durations (`3600`, `30d`), booleans, IPs and CIDRs
 * (`10.0.0.0/8`), versions, dates, paths and file names (`/run/secrets/db`, `key.pem`), URLs
 * without credentials, lower-case word lists (`aws-sso-profile`, `pem`), UPPER_CASE names.
 */
const ORDINARY = [
  /^-?[0-9]+(?:\.[0-9]+)?(?:ms|s|m|h|d|w|y|kb|mb|gb|k|%)?$/i,
  /^(?:true|false|yes|no|on|off|enabled|disabled)$/i,
  /^[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:\/[0-9]{1,2})?(?::[0-9]+)?$/,
  /^[0-9a-f:]+::[0-9a-f:]*(?:\/[0-9]{1,3})?$/i,
  /^v?[0-9]+(?:\.[0-9]+){1,3}(?:[-+][0-9A-Za-z.-]+)?$/,
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.]+Z?)?$/,
  /^(?:~|\.{1,2})?\/[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]*)*$/,
  /^[A-Za-z]:\\/,
  /^[\w.-]+\.(?:pem|key|crt|cer|der|p12|pfx|jks|json|ya?ml|toml|ini|env|txt|pub|gpg|asc|conf|cfg|properties)$/i,
  /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i,
  /^[a-z]+[0-9]*(?:[-_.][a-z]+[0-9]*)*$/,
  // UPPER_CASE names: each segment letters then digits (`RESET_PASSWORD_V2`, `AES256_GCM`); letters
  // after digits inside a segment (`J6G52KOA3W`) are a random token, not a name.
  /^[A-Z]+[0-9]*(?:_(?:[A-Z]+[0-9]*|[0-9]+))*$/,
  /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/,
  /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::[0-9]+)?(?:\/\S*)?$/,
  PUBLIC_BY_DESIGN,
];

export function isOrdinary(v: string): boolean {
  return ORDINARY.some((re) => re.test(v));
}

/**
 * A value after a name whose LAST part is a keyword (`DB_PASSWORD`, `api_key`, `token:`): a secret
 * unless it is a placeholder, a mask, a reference, a boolean or small number, or so repetitive that
 * it carries nothing (`abcabcabc`).
 */
export function looksSecret(value: string): boolean {
  if (isPlaceholder(value) || PUBLIC_BY_DESIGN.test(value)) return false;
  if (/^(?:true|false|yes|no|on|off|null|none|nil|[0-9]{1,6})$/i.test(value)) return false;
  return value.length < 8 || entropy(value) >= 2;
}

/**
 * A value after a name where the keyword is NOT the last part (`KEY_FORMAT`, `CREDENTIAL_PROVIDER`,
 * `PRIVATE_NETWORK_CIDR`): only a random-looking value is taken for a secret — long enough, of
 * several character classes, high entropy, and not an ordinary setting value.
 */
export function looksRandom(value: string): boolean {
  return value.length >= 12 && !isOrdinary(value) && !isPlaceholder(value) && !isWordy(value) && charClasses(value) >= 2 &&
    entropy(value) >= 3;
}

/** Made of words and numbers (`user:123:profile`, `Standard_LRS-2024`): every letter run a word of 3+ letters. */
function isWordy(v: string): boolean {
  const runs = v.match(/[A-Za-z]+/g) ?? [];
  return runs.length > 0 && runs.every((r) => /^(?:[a-z]{3,}|[A-Z][a-z]{2,}|[A-Z]{3,})$/.test(r));
}

/**
 * The body after a vendor prefix: not a mask or placeholder (`ghp_xxxxxxxx…`, `sk-your-key-here`),
 * and not an identifier that happens to share the prefix (`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`):
 * camelCase or snake_case words have long lower-case runs, random tokens do not.
 */
export function tokenBodyOk(body: string): boolean {
  if (isMask(body) || isPlaceholderWords(body) || YOUR.test(body)) return false;
  const runs = body.match(/[a-z]+/g) ?? [];
  const lower = runs.reduce((n, r) => n + r.length, 0);
  const wordy = runs.length > 0 && lower / runs.length >= 5 && !/[0-9]/.test(body) && lower >= body.length * 0.75;
  const identifier = /^[A-Za-z][a-z]+(?:[A-Z][a-z]+)+$/.test(body) && body.length / (body.match(/[A-Z]/g) ?? []).length >= 4;
  return !wordy && !identifier && entropy(body) >= 2.5;
}

/**
 * A name rather than a secret: letters, `_` and `-` only, made of words — UPPER_CASE words, or
 * mostly lower-case letters in runs of three or more (`refresh_token`, `acquireTokenByRefreshToken`,
 * `SuperSecretToken`, `mock-token`). Random letters (`falQUwfffVHXRNvs`) have short runs.
 */
export function isNameLike(v: string): boolean {
  // One plain lower-case word (`postgres`, `correcthorsebatterystaple`) is a password, not a name.
  if (!/^[A-Za-z_-]+$/.test(v) || /^[a-z]+$/.test(v)) return false;
  if (/^[A-Z]+(?:[_-][A-Z]+)*$/.test(v)) return true;
  // A keyword stem in a structured name (`getToken`, `client-secret`) is a name too.
  if (/(?:[a-z][A-Z]|[_-])/.test(v) && /pass|secret|token|key|auth|cred/i.test(v)) return true;
  const runs = v.match(/[a-z]+/g) ?? [];
  const lower = runs.reduce((n, r) => n + r.length, 0);
  return runs.length > 0 && lower / runs.length >= 4 && lower >= v.replace(/[_-]/g, '').length * 0.75;
}

/** A path of names (`form.password`, `req.body.password`, `x?.y`, `Token::new`): code or a constant, not a secret. */
export function isNamePath(v: string): boolean {
  const parts = v.split(/[!?]?\.|::/);
  return parts.length > 1 && parts.every((p) => /^(?:[a-z]+[0-9]*|[A-Z][a-z]+)$/.test(p) || isNameLike(p));
}
