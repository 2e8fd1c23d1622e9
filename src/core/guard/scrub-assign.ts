// Keyword rules for the assignment syntaxes that have no `name = value` shape, and for command-line
// flags that carry credentials. Like every keyword rule, the name only makes a candidate: the value
// check (scrub-value.ts) decides. Each rule starts with a literal or a cheap lookbehind right after
// its anchor, so it costs one comparison where it cannot match.
//
//   xattr  XML attributes: <add key="DbPassword" value="…"/>, <param name="token" value="…">
//   xelem  XML elements:   <password>…</password>, <apiKey>…</apiKey>
//   pair   a call given a key-named string and a value (not a JSON array: the key must open the call):
//          System.setProperty("db.password", "…"), os.Setenv("API_TOKEN", "…"), config.set('secret', '…')
//   dash   `name token - '…'` lines
//   flag   --password x, --token x, --api-key "x", --client-secret x (the `=` forms are the gen rule's)
//   mysql  mysql -pPASS (and mysqldump, mysqladmin, mariadb…): the password glued to -p
//   curl   curl -u user:pass, --user user:pass (user kept)
import { NAME_END, acceptForName } from './scrub-keywords';
import { type ScrubRule } from './scrub-rule';
import { isNameLike, isOrdinary, looksSecret } from './scrub-value';

// xattr, xelem, pair and dash find a name with a cheap pattern; whether it is a key (its last word a
// keyword: `DbPassword`, `secret.key.base`, `api token`) is decided in JS on the rare candidates
// (keyNameKind), which keeps the combined pattern small enough for V8 to optimise (scrub-combine.ts).
/** The first capture of `re` in the text just before `start`. */
const nameBefore = (re: RegExp, text: string, start: number): string | undefined =>
  re.exec(text.slice(Math.max(0, start - 200), start))?.[1];
const XATTR_NAME = /(?:key|name|Key|Name|KEY|NAME)[ \t]*=[ \t]*["']([^"'<>\n]{1,64})["'][ \t]+(?:value|Value|VALUE)[ \t]*$/;
const XELEM_NAME = /<([\w.:-]{1,64})$/;
const PAIR_NAME = /\([ \t]*["']([^"'\s(]{1,64})["'][ \t]*$/;
const DASH_NAME = /((?:[\w.-]+[ \t]){0,2}[\w.-]+)[ \t]+$/;

// xattr, xelem and pair each consume a character or two before their first lookbehind: V8 rejects a
// consuming test in a few instructions, while entering a lookbehind costs tens of nanoseconds, and
// their anchors (`=`, `>`, `,`) are everywhere in code.
const xattr: ScrubRule = {
  name: 'xattr',
  anchor: '=',
  source: String.raw`(?<xattrL>[ \t]*(?<xattrQ>["']))(?<=[uU][eE][ \t]*=[ \t]*["'])` +
    String.raw`(?<=(?:key|name|Key|Name|KEY|NAME)[ \t]*=[ \t]*["'][^"'<>\n]{1,64}["'][ \t]+(?:value|Value|VALUE)[ \t]*=[ \t]*["'])` +
    String.raw`[^"'<>\s]{1,512}(?<xattrR>\k<xattrQ>)`,
  accept: (v, text, start) => acceptForName(nameBefore(XATTR_NAME, text, start), v),
};

const xelem: ScrubRule = {
  name: 'xelem',
  anchor: '>',
  source: String.raw`[^<>\s](?<=${NAME_END}>[^<>\s])(?<=<[\w.:-]{1,64}>[^<>\s])[^<>\s]{0,511}(?=</)`,
  accept: (v, text, start) => acceptForName(nameBefore(XELEM_NAME, text, start), v),
};

const pair: ScrubRule = {
  name: 'pair',
  anchor: ',',
  source: String.raw`(?<pairL>[ \t]*(?<pairQ>["']))(?<=${NAME_END}["'][ \t]*,[ \t]*["'])(?<=\([ \t]*["'][^"'\s(]{1,64}["'][ \t]*,[ \t]*["'])[^"'\s\\]{8,512}(?<pairR>\k<pairQ>)`,
  accept: (v, text, start) => acceptForName(nameBefore(PAIR_NAME, text, start), v),
};

const dash: ScrubRule = {
  name: 'dash',
  anchor: '-',
  source: String.raw`(?<dashL>[ \t]+(?<dashQ>["']))(?<=[\w.-][ \t]+-[ \t]+["'])[^"'\s]{6,512}(?<dashR>\k<dashQ>)`,
  accept: (v, text, start) => acceptForName(nameBefore(DASH_NAME, text, start), v),
};

const FLAG_WORDS = ['password', 'passwd', 'pass', 'pw', 'token', 'secret', 'api-key', 'apikey', 'auth-token', 'access-token',
  'client-secret', 'secret-key', 'access-key', 'private-token', 'bearer', 'key', 'creds', 'credential', 'credentials', 'authtoken', 'key-base'];

const flag: ScrubRule = {
  name: 'flag',
  anchor: '-',
  // A value may start with `$` or `%` (a reference is refused by looksSecret, `$TOKEN` stays), and
  // with `-` when quoted (`--api-key '-Vm…'`); unquoted, a `-` starts the next option.
  source: String.raw`(?<flagL>-(?<=(?<![\w-])--)(?:[A-Za-z0-9]+-){0,6}(?:${FLAG_WORDS.join('|')})[ \t]+(?<flagQ>["']?))` +
    String.raw`(?![<{])(?!(?<=[ \t])-)[^\s"'\\]{1,512}(?<flagR>\k<flagQ>)`,
  accept: (value) => looksSecret(value) && !isOrdinary(value) && !isNameLike(value),
};

const MYSQL = ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck', 'mysqlpump', 'mariadb', 'mariadb-dump'];

const mysql: ScrubRule = {
  name: 'mysql',
  anchor: '-',
  source: String.raw`(?<mysqlL>p)(?=[^\s'"-])(?<=(?<![\w-])(?:${MYSQL.join('|')})(?:[ \t]+[^\s|;&]+){0,16}[ \t]+-p)[^\s'"]{1,512}`,
  accept: looksSecret,
};

const curl: ScrubRule = {
  name: 'curl',
  anchor: '-',
  source: String.raw`(?<curlL>(?:u|-user)[ \t]+(?<curlQ>["']?)[^\s:'"$]{1,64}:)(?<=(?<![\w-])-(?:u|-user)[ \t]+["']?[^\s:'"$]{1,64}:)` +
    String.raw`(?![$])[^\s'"]{1,256}(?<curlR>\k<curlQ>)`,
  accept: (value) => looksSecret(value) && !/^[0-9]+$/.test(value),
};

/** Tried after the `name = value` rules of their anchor groups. */
export const ASSIGN_RULES: readonly ScrubRule[] = [xattr, xelem, pair, dash, flag, mysql, curl];
