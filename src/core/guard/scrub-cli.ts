// Passwords given to command-line programs through their own short options or positional
// arguments (the `--password x` / `--token x` long forms are the flag rule's in scrub-assign.ts,
// `mysql -pX` and `curl -u user:pass` are its mysql and curl rules). Each row names the programs
// and the option that takes a password, as their manuals document it. The program must stand
// before the option on the same command (at most 16 arguments between), so `mkdir -p x` and
// `ls -a` never make a candidate.
//
//   redis-cli -a P · mongosh/mongo/mongodump… -p P · ldapsearch/ldapadd/ldapmodify… -w P ·
//   sqlcmd/bcp -P P · sshpass -p P · zip/unzip -P P · az login … -p P · docker/podman/helm… login -p P ·
//   keytool/jarsigner -storepass P, -keypass P · 7z/rar -pP (glued) · openssl -passin pass:P ·
//   htpasswd -b[c] FILE USER P (or -nb USER P) · rabbitmqctl add_user USER P / change_password USER P ·
//   smbclient/rpcclient -U USER%P · net use \\host\share /user:USER P
import { type ScrubRule } from './scrub-rule';
import { looksSecret } from './scrub-value';

interface CliRow {
  readonly programs: readonly string[];
  /** The option letters or words after `-`. */
  readonly options: readonly string[];
  /** The password is glued to the option (`7z -pSECRET`) rather than the next argument. */
  readonly glued?: boolean;
}

const CLI_ROWS: readonly CliRow[] = [
  { programs: ['redis-cli', 'valkey-cli', 'keydb-cli'], options: ['a'] },
  { programs: ['mongosh', 'mongo', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mongostat', 'mongotop', 'sshpass'],
    options: ['p'] },
  { programs: ['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapmodrdn', 'ldappasswd', 'ldapwhoami', 'ldapcompare', 'ldapexop'],
    options: ['w'] },
  { programs: ['sqlcmd', 'bcp', 'osql', 'isql', 'zip', 'unzip', 'zipcloak'], options: ['P'] },
  { programs: ['az login', 'docker login', 'podman login', 'buildah login', 'nerdctl login', 'skopeo login', 'helm registry login',
    'oras login', 'crane auth login', 'cf login', 'cf auth', 'oc login'], options: ['p'] },
  { programs: ['keytool', 'jarsigner'], options: ['storepass', 'keypass', 'srcstorepass', 'deststorepass', 'srckeypass', 'destkeypass'] },
  { programs: ['openssl'], options: ['passin', 'passout', 'pass', 'k'] },
  { programs: ['7z', '7za', '7zr', 'rar', 'unrar'], options: ['p'], glued: true },
];

/** Not a password: an option, a reference, a template, nothing. */
const VALUE = String.raw`(?![-$<{%])[^\s"'\x60\\|;&]{1,512}`;
const words = (xs: readonly string[]): string => xs.map((x) => x.replace(/ /g, '[ \\t]{1,16}')).join('|');
/** The program at a command start or after a path, then up to 16 arguments. */
const programBefore = (programs: readonly string[]): string =>
  String.raw`(?<![\w.-])(?:${words(programs)})(?:[ \t]{1,16}[^\s|;&]{1,256}){0,16}[ \t]{1,16}-`;

function cliRule(row: CliRow, i: number): ScrubRule {
  const name = `cli${i}`;
  const opts = words(row.options);
  const gap = row.glued ? '' : String.raw`[ \t]{1,16}`;
  return {
    name,
    anchor: '-',
    source: String.raw`(?<${name}L>(?:${opts})${gap}(?<${name}Q>["']?))(?<=${programBefore(row.programs)}(?:${opts})${gap}["']?)` +
      String.raw`${VALUE}(?<${name}R>\k<${name}Q>)`,
    accept: (v) => looksSecret(v) && !/^[0-9]{1,5}$/.test(v),
  };
}

/** `htpasswd -b[c…] FILE USER PASS` and `htpasswd -nb USER PASS`: the last argument is the password. */
const htpasswd: ScrubRule = {
  name: 'htpw',
  anchor: '-',
  source: String.raw`(?<=(?<![\w.-])htpasswd[ \t]{1,16}-)(?<htpwL>(?:[cmdpsBiDv]*b[cmdpsBiDv]*[ \t]{1,16}[^\s-]\S{0,255}[ \t]{1,16}\S{1,255}|` +
    String.raw`[cmdpsBiDv]*n[cmdpsBiDv]*b[cmdpsBiDv]*[ \t]{1,16}\S{1,255})[ \t]{1,16}(?<htpwQ>["']?))${VALUE}(?<htpwR>\k<htpwQ>)`,
  accept: looksSecret,
};

/** `rabbitmqctl add_user USER PASS`, `rabbitmqctl change_password USER PASS`. */
const rabbit: ScrubRule = {
  name: 'rabbit',
  anchor: '_',
  source: String.raw`(?<rabbitL>(?:user|password)[ \t]{1,16}(?:-[-\w]+[ \t]{1,16}){0,4}[^\s-]\S{0,255}[ \t]{1,16}(?<rabbitQ>["']?))` +
    String.raw`(?<=(?<![\w.-])rabbitmqctl(?:[ \t]{1,16}-[^\s]{1,255}(?:[ \t]{1,16}[^\s-][^\s]{0,255})?){0,4}[ \t]{1,16}(?:add_user|change_password)[ \t]{1,16}\S{1,255}[ \t]{1,16}["']?)` +
    String.raw`${VALUE}(?<rabbitR>\k<rabbitQ>)`,
  accept: looksSecret,
};

/** `smbclient //host/share -U user%pass` (Samba's user%password form); the user stays. */
const smb: ScrubRule = {
  name: 'smb',
  anchor: '-',
  source: String.raw`(?<smbL>U[ \t]{0,16}(?<smbQ>["']?)[^\s%"']{1,128}%)(?<=(?<![\w.-])(?:smbclient|rpcclient|smbcacls|smbget|smbmap|net)` +
    String.raw`(?:[ \t]{1,16}[^\s|;&]{1,256}){0,16}[ \t]{1,16}-U[ \t]{0,16}["']?[^\s%"']{1,128}%)${VALUE}(?<smbR>\k<smbQ>)`,
  accept: looksSecret,
};

/**
 * Windows `net use \\host\share /user:DOMAIN\user PASSWORD`: the argument after `/user:…` (the user
 * stays). Not another `/option`, nor `*` (net use then prompts for the password).
 */
const netUse: ScrubRule = {
  name: 'netu',
  anchor: '/',
  source: String.raw`(?<netuL>[uU][sS][eE][rR]:[^\s"']{1,128}[ \t]{1,16}(?<netuQ>["']?))` +
    String.raw`(?<=(?<![\w.-])[nN][eE][tT](?:\.exe)?[ \t]{1,16}[uU][sS][eE](?:[ \t]{1,16}[^\s|;&]{1,256}){0,8}[ \t]{1,16}/[uU][sS][eE][rR]:[^\s"']{1,128}[ \t]{1,16}["']?)` +
    String.raw`(?![/*])${VALUE}(?<netuR>\k<netuQ>)`,
  accept: looksSecret,
};

export const CLI_RULES: readonly ScrubRule[] = [...CLI_ROWS.map(cliRule), htpasswd, rabbit, smb, netUse];
