// Secrets reached without opening a credential file: through the CLIs that hold them (`gh auth
// token`, `git credential fill`, keychains), through other programs' view of the environment (`ps e`,
// `docker inspect`), and sent out inside what a network tool is given (a secret-named variable or a
// substitution in a URL, a header or a host name), by mail or to a paste service.
import { DOCKER_INSPECT, GIT, GPG, KUBECTL } from './command-option-tables';
import { hasFlag, parseOptions, valuesOf } from './command-options';
import { SECRET_FILE } from './command-rules-network';
import { ask, deny, operandsOf, type Finding, type SegmentView, before } from './command-view';

/**
 * Environment variable names that hold secrets, judged by name: tokens, keys, passwords, cloud and CI credentials.
 * Not a name that holds where a credential file is (`KUBECONFIG`, `GOOGLE_APPLICATION_CREDENTIALS`,
 * `DB_PASSWORD_FILE`, `…_PATH`, `…_DIR`): its value is a path, and printing it shows no secret —
 * reading the file it names is the leak (CREDENTIAL_FILE_VAR in command-rules-leaks.ts).
 */
export const SECRET_VAR = /^(?!(?:\w*_(?:FILE|PATH|DIR)|KUBECONFIG|GOOGLE_APPLICATION_CREDENTIALS)$).*?(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|PRIVATE_KEY|CREDENTIAL|ACCESS_KEY|SESSION_KEY|AUTH|COOKIE|^AWS_|^GITHUB_|^GH_|^NPM_|^PINCER_|^GOCLAW_|^OPENAI|^ANTHROPIC|DATABASE_URL|_DSN$|_PAT$|^PAT$|SIGNING_KEY|CLIENT_SECRET|WEBHOOK|^SSH_AUTH_SOCK$|^VAULT_)/i;

/** Variable names referenced in a word as written (`$X`, `${X}`, `${X:-d}`, `${!X}`). */
export function varsIn(raw: string): string[] {
  return [...raw.matchAll(/\$\{?!?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

const NETWORK = /^(curl|wget|wget2|http|https|xh|httpie|aria2c|axel|nc|ncat|netcat|socat|telnet|dig|nslookup|host|drill|ping|ping6|traceroute|tracepath|mtr|whois|ssh|lynx|w3m|links|elinks|fetch)$/;
const DNS_TOOLS = /^(dig|nslookup|host|drill|ping|ping6|traceroute|tracepath|mtr|whois|nc|ncat|netcat|telnet)$/;
const MAILERS = /^(mail|mailx|sendmail|mutt|neomutt|swaks|msmtp|ssmtp|s-nail|nail|mpack|sendemail|exim|postfix|esmtp|bsd-mailx|heirloom-mailx)$/;
const DROPS = /^(pastebinit|wgetpaste|termbin|sprunge|ix|croc|wormhole|magic-wormhole|ffsend|transfer|tb|gist|gist-paste|0x0|bashupload|pastebin|imgur|dpaste|haste|hastebin)$/;

/**
 * Every program secretsRules can object to: the judge runs it on no other (the dispatch contract at
 * RULES in command-dispatch.ts). A new `case` below needs its name here.
 */
const SECRETS_PROGRAMS = new Set([
  'gh', 'glab', 'git', 'aws', 'gcloud', 'az', 'heroku', 'dokku', 'scalingo', 'clever', 'cf', 'platform',
  'upsun', 'terraform', 'tofu', 'terragrunt', 'stripe', 'twilio', 'sentry-cli', 'algolia', 'auth0', 'okta',
  'shopify', 'contentful', 'sanity', 'turso', 'doctl', 'flyctl', 'fly', 'vercel', 'netlify', 'security',
  'secret-tool', 'pass', 'gopass', 'passage', 'op', 'bw', 'lpass', 'keyring', 'kwallet-query',
  'keepassxc-cli', 'rbw', 'vault', 'gpg', 'gpg2', 'kubectl', 'oc', 'docker', 'podman', 'nerdctl', 'crictl',
  'ctr', 'finch', 'ps', 'systemctl', 'launchctl', 'tmux',
]);

export function secretsConcerns(name: string): boolean {
  return SECRETS_PROGRAMS.has(name) || /^python[\d.]*$/.test(name) || MAILERS.test(name) || DROPS.test(name) || NETWORK.test(name);
}

export function secretsRules(v: SegmentView, pipedOut: boolean): Finding[] {
  // `python3 -m keyring get …` is the keyring program: judged as it.
  if (/^python[\d.]*$/.test(v.name) && v.args[0] === '-m' && v.args[1]) return secretsRules({ ...v, exe: v.args[1], name: v.args[1].toLowerCase(), args: v.args.slice(2), words: v.words.slice(2), operands: operandsOf(v.args.slice(2)) }, pipedOut);
  const { name, args } = v;
  const f: Finding[] = [];
  const w = v.operands;
  const shown = (what: string): Finding => (pipedOut || v.seg.context === 'command-substitution'
    ? ask('data_exfiltration', `${what}; here it is handed to another command`)
    : deny('data_exfiltration', `${what} into the output`));
  switch (name) {
    case 'gh': case 'glab':
      if (w[0] === 'auth' && (w[1] === 'token' || (w[1] === 'status' && args.some((a) => /^(-t|--show-token)$/.test(a))))) f.push(shown(`${name} auth ${w[1]} prints the stored token`));
      if (w[0] === 'gist' && /^(create|new|edit)$/.test(w[1] ?? '')) f.push(ask('data_exfiltration', `${name} gist ${w[1]} uploads files to a gist`));
      break;
    case 'git': {
      const o = parseOptions(args, GIT);
      const sub = o.operands[0] ?? '';
      if (/^credential(-|$)/.test(sub) && o.operands.some((x) => /^(fill|get)$/.test(x))) f.push(deny('data_exfiltration', `git ${sub} prints stored credentials`));
      if (sub === 'send-email' || sub === 'imap-send') f.push(deny('data_exfiltration', `git ${sub} mails repository content`));
      break;
    }
    case 'aws': {
      if (w[0] === 'configure' && (w[1] === 'export-credentials' || (w[1] === 'get' && /secret|key|token|password|session/i.test(w[2] ?? '')))) f.push(shown(`aws configure ${w[1]} prints stored credentials`));
      if (w[0] === 'configure' && w[1] === 'list' && args.includes('--show-secrets')) f.push(deny('data_exfiltration', 'aws configure list prints stored credentials'));
      if (/^(get-session-token|assume-role|get-federation-token|get-login-password|get-authorization-token|assume-role-with-web-identity|get-role-credentials)$/.test(w[1] ?? '')) f.push(ask('data_exfiltration', `aws ${w[0]} ${w[1]} hands out temporary credentials`));
      if (w[0] === 'secretsmanager' && w[1] === 'get-secret-value' || w[0] === 'ssm' && /^get-parameters?/.test(w[1] ?? '') && args.includes('--with-decryption')) f.push(shown(`aws ${w[0]} ${w[1]} prints a stored secret`));
      if (w[0] === 'ses' && /^send-(raw-)?email$/.test(w[1] ?? '')) f.push(deny('data_exfiltration', 'aws ses sends mail'));
      break;
    }
    case 'gcloud': if (w[0] === 'auth' && /^(print-access-token|print-identity-token|application-default)$/.test(w[1] ?? '') && (w[1] !== 'application-default' || w[2] === 'print-access-token') || w[0] === 'secrets' && w[1] === 'versions' && w[2] === 'access') f.push(shown(`gcloud ${w.slice(0, 3).join(' ')} prints a credential`)); break;
    case 'az': if (w[0] === 'account' && w[1] === 'get-access-token' || w[0] === 'keyvault' && w[1] === 'secret' && w[2] === 'show') f.push(shown(`az ${w.slice(0, 3).join(' ')} prints a credential`)); break;
    // A platform's config vars are the app's environment: its database URL, API keys and tokens.
    case 'heroku': case 'dokku': case 'scalingo': case 'clever': case 'cf': case 'platform': case 'upsun':
      if (w[0] === 'auth:token' || /^(config|config:get|config:show|config:export|config:pull|env|env:get|env:list|variables|variable:get|var:get|environment)$/.test(w[0] ?? '')) f.push(shown(`${name} ${w[0]} prints the app's config vars or token`));
      break;
    case 'terraform': case 'tofu': case 'terragrunt':
      if (w[0] === 'state' && w[1] === 'pull') f.push(shown(`${name} state pull prints the whole state, secrets in it included`));
      else if (w[0] === 'output' && args.some((a) => /^-(json|raw)$/.test(a)) || w[0] === 'show' && args.includes('-json') && w.length === 1) f.push(ask('data_exfiltration', `${name} ${w[0]} prints outputs and state values unmasked`)); // `show -json PLANFILE` shows a plan
      break;
    case 'stripe': case 'twilio': case 'sentry-cli': case 'algolia': case 'auth0': case 'okta': case 'shopify': case 'contentful': case 'sanity': case 'turso':
      if (w[0] === 'config' && (args.includes('--list') || /^(list|show|view|get)$/.test(w[1] ?? '')) || /^(token|whoami)$/.test(w[0] ?? '') && args.includes('--show')) f.push(shown(`${name} config prints the stored API keys`));
      break;
    case 'doctl': case 'flyctl': case 'fly': case 'vercel': case 'netlify': if (w[0] === 'auth' && /^(token|print-token)$/.test(w[1] ?? '')) f.push(shown(`${name} auth ${w[1]} prints the stored token`)); break;
    case 'security':
      if (/^(find-generic-password|find-internet-password|find-certificate|dump-keychain|export|find-key|dump-trust-settings)$/.test(w[0] ?? '')) f.push(deny('data_exfiltration', `security ${w[0]} reads the keychain`));
      // A root certificate trusted, or the rules of who may authorise what rewritten.
      if (/^(add-trusted-cert|authorizationdb|set-key-partition-list|add-trusted-root|trust-settings-import|unlock-keychain|set-keychain-settings)$/.test(w[0] ?? '') && !(w[0] === 'authorizationdb' && w[1] === 'read')) f.push(deny('privilege_escalation', `security ${w[0]} changes what the machine trusts or who may authorise`));
      break;
    case 'secret-tool': if (/^(lookup|search)$/.test(w[0] ?? '')) f.push(deny('data_exfiltration', 'secret-tool reads the keyring')); break;
    case 'pass': case 'gopass': case 'passage': if (w.length && !/^(ls|list|find|search|init|git|help|version|insert|generate|edit|rm|mv|cp)$/.test(w[0]) || w[0] === 'show') f.push(shown(`${name} prints a stored password`)); break;
    case 'op': if (/^(read|inject)$/.test(w[0] ?? '') || (/^(item|document)$/.test(w[0] ?? '') && w[1] === 'get')) f.push(shown(`op ${w[0]} prints a stored secret`)); break;
    case 'bw': case 'lpass': case 'keyring': case 'kwallet-query': case 'keepassxc-cli': case 'rbw': if (/^(get|show|export|lookup)$/.test(w[0] ?? '') || args.some((a) => /^-(r|-read-password)$/.test(a))) f.push(shown(`${name} prints a stored secret`)); break;
    case 'vault': if (/^(read|kv)$/.test(w[0] ?? '') && (w[0] === 'read' || w[1] === 'get')) f.push(ask('data_exfiltration', 'vault reads a stored secret')); break;
    case 'gpg': case 'gpg2': if (hasFlag(parseOptions(args, GPG), '', ['export-secret-keys', 'export-secret-subkeys'])) f.push(deny('data_exfiltration', 'gpg exports private keys')); break;
    case 'kubectl': case 'oc': f.push(...kubeSecrets(name, args)); break;
    case 'docker': case 'podman': case 'nerdctl': case 'crictl': case 'ctr': case 'finch': {
      if (w[0] === 'inspect' || (w[1] === 'inspect' && /^(container|service|image)$/.test(w[0] ?? ''))) {
        const format = valuesOf(parseOptions(args, DOCKER_INSPECT), ['format'], 'f');
        if (!format.length || format.some((x) => /Env|Config|json \./i.test(x) || x.trim() === '{{json .}}')) f.push(ask('env_dump', `${name} inspect shows the container's environment, secrets included`));
      }
      break;
    }
    case 'ps': {
      // BSD-style option words (no dash): `e` shows every process's environment (`ps eww`, `ps auxe`).
      if (args.some((a) => /^[a-zA-Z]+$/.test(a) && a.includes('e') && /^[aceFfgHhjlmnrSsTtuvwwxXZ]+$/.test(a.replace(/e/g, ''))) || args.some((a) => /^e[a-z]*$/.test(a) || /^-[a-zA-Z]*E/.test(a))) f.push(deny('env_dump', 'ps e (BSD and macOS: -E) shows the environment of every process'));
      break;
    }
    case 'systemctl': {
      if (w[0] === 'show-environment') f.push(deny('env_dump', 'systemctl show-environment prints the service manager environment'));
      const props = args.flatMap((a, i) => (/^(-p|--property)$/.test(before(args, i) ?? '') ? [a] : /^(--property=|-p.)/.test(a) ? [a.replace(/^(--property=|-p)/, '')] : []));
      if (w[0] === 'show' && props.some((p) => /Environment/i.test(p))) f.push(deny('env_dump', "systemctl show prints a service's environment"));
      else if (w[0] === 'show' && !props.length) f.push(ask('env_dump', "systemctl show prints every property of a unit, its environment included"));
      break;
    }
    case 'launchctl': if (w[0] === 'getenv' || w[0] === 'export') f.push(deny('env_dump', 'launchctl prints the environment')); break;
    case 'tmux': if (w[0] === 'show-environment' || w[0] === 'showenv') f.push(deny('env_dump', 'tmux show-environment prints the session environment')); break;
  }
  // A report mailed to a named address asks (what it reads is judged by the path rules); mail fed from a pipe carries whatever the pipe holds.
  if (MAILERS.test(name) && (args.length > 0 || v.seg.joinedBy === '|' || v.seg.heredocs.length || v.seg.redirects.some((r) => r.op === '<')))
    f.push(v.seg.joinedBy === '|' || v.seg.redirects.some((r) => r.op === '<' && SECRET_FILE.test(r.target.text)) || args.some((a) => SECRET_FILE.test(a)) ? deny('data_exfiltration', `${name} mails what a pipe or a secret file holds`) : ask('data_exfiltration', `${name} sends mail`));
  if (DROPS.test(name)) f.push(deny('data_exfiltration', `${name} uploads data to a sharing service`));
  if (NETWORK.test(name)) f.push(...carriedOut(v));
  return f;
}

function kubeSecrets(name: string, args: string[]): Finding[] {
  const o = parseOptions(args, KUBECTL);
  const [verb, kind] = o.operands;
  if (verb === 'config' && kind === 'view' && hasFlag(o, '', ['raw', 'flatten'])) return [deny('data_exfiltration', `${name} config view --raw prints cluster credentials`)];
  const output = valuesOf(o, ['output'], 'o');
  if (verb === 'get' && /^(secrets?|secret\/.*|secrets\/.*)$/.test(kind ?? '') && output.some((x) => /^(json|yaml|jsonpath|go-template|custom-columns)/.test(x))) return [deny('data_exfiltration', `${name} get secret prints secret values`)];
  if (verb === 'create' && kind === 'token') return [ask('data_exfiltration', `${name} create token mints a credential`)];
  return [];
}

/**
 * What a network tool is given that carries data out: a secret-named variable or a substitution in
 * the URL, the host name or a header. A secret in an Authorization header is how an API is called,
 * so that asks; in a URL or a host name it is a leak, and so is anything computed at run time
 * there (`$(base64 .env).evil.example`).
 */
function carriedOut(v: SegmentView): Finding[] {
  const f: Finding[] = [];
  for (let i = 0; i < v.words.length; i++) {
    const w = v.words[i];
    if (!w.dynamic) continue;
    const prev = before(v.words, i)?.text ?? '';
    const header = /^(-H|--header|-b|--cookie|-u|--user|--oauth2-bearer|--proxy-user)$/.test(prev) || /^(-H|--header=)/.test(w.text) || /^[\w-]+:\s/.test(w.text) || /^[\w-]+:[^/]/.test(w.text) && !/^\w+:\/\//.test(w.text);
    const substituted = /\$\(|`/.test(w.raw);
    const secret = varsIn(w.raw).some((n) => SECRET_VAR.test(n));
    if (header && v.name !== 'dig') { if (secret || substituted) f.push(ask('data_exfiltration', `${v.name} sends a secret or a computed value in a header`)); continue; }
    if (/^-/.test(w.text) && !/[=@]/.test(w.text)) continue;
    if (!DNS_TOOLS.test(v.name) && !/:\/\/|^[^\s/]*\.[^\s/]*\.|^[^\s/]*\$[^\s/]*\.[a-z]{2,}/i.test(w.text)) continue;
    if (secret && /^[a-z][\w+.-]*:\/\/[^/@\s]*\$[^/@\s]*@/i.test(w.raw) && !/[?#].*\$/.test(w.raw)) { f.push(ask('data_exfiltration', `${v.name} logs in with a secret in the URL`)); continue; }
    if (substituted) f.push(deny('data_exfiltration', `${v.name} puts the output of a command into what it sends (URL, host name or data)`));
    else if (secret) f.push(deny('data_exfiltration', `${v.name} puts a secret from the environment into a URL or a host name`));
  }
  return f;
}
