// Secrets carried out by programs whose job is to publish or send what they are given: a secret file
// staged into git (pushed, it is on the remote for good), a secret file's content substituted into
// what an issue tracker, a chat or a mail client sends, a secret-named PowerShell variable
// (`$env:GITHUB_TOKEN`) in what a web cmdlet sends, a file named by a credentials variable
// (`$GOOGLE_APPLICATION_CREDENTIALS`) printed or copied, and secret files copied out of a running
// container or a release's stored values printed. The test is what the data is and where it goes,
// whatever the program's spelling.
import { SECRET_VAR } from './command-rules-secrets';
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { has, startsWith } from './command-strings';

/** Files that are credentials by name: dotenv files (not their templates), keys, token stores, state with secrets. */
const SECRET_FILE = /(^|\/)(\.env(\.[\w-]+)?|[^/]*\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|ovpn|tfstate)|id_(rsa|dsa|ecdsa|ed25519)|\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.htpasswd|credentials(\.json)?|secrets?\.(ya?ml|json|toml)|service[-_]?account[\w-]*\.json)$/i;
const TEMPLATE = /\.(example|sample|template|tpl|dist|defaults?)$/i;

export function isSecretFile(p: string): boolean {
  const clean = p.replace(/^["']|["']$/g, '');
  return SECRET_FILE.test(clean) && !TEMPLATE.test(clean);
}

/** Environment variables whose value is the PATH of a credentials file (the file is the secret). */
const CREDENTIAL_FILE_VAR = /(CREDENTIALS|KEY_?FILE|KEY_PATH|KEYFILE|TOKEN_FILE|SECRET_FILE|PASSWORD_FILE|PASS_FILE|_PEM$|^KUBECONFIG$|^NETRC$|^SSH_KEY\w*|^DOCKER_CONFIG$|^AWS_SHARED_CREDENTIALS_FILE$|^GIT_ASKPASS$)/i;
/** Programs that print, encode or send the whole files they are given. */
const PRINTS = /^(cat|tac|bat|batcat|less|more|head|tail|nl|strings|base64|base32|basenc|xxd|od|hexdump|jq|yq|gojq|curl|wget|nc|ncat|socat|pbcopy|xclip|xsel|wl-copy|clip|type|get-content|gc)$/;
/** Programs that copy or pack them. */
const COPIES = /^(cp|scp|rsync|rclone|tar|zip|7z|gzip|tee|dd|install)$/;
/** PowerShell's web and mail cmdlets and the Windows spellings of the usual web clients. */
const PS_SENDERS = /^(invoke-restmethod|irm|invoke-webrequest|iwr|start-bitstransfer|send-mailmessage|curl|wget)$/;
/** Programs that send what they are given to a server: issue trackers, chat, mail, paste and web clients. */
const SENDERS = /^(gh|glab|tea|hub|jira|linear|curl|wget|wget2|http|https|xh|httpie|mail|mailx|sendmail|mutt|neomutt|swaks|msmtp|nc|ncat|netcat|socat|ssh|telnet|slack|slack-cli|slackcat|discord|twilio|ntfy|apprise|telegram-send|pushover|gist|pastebinit|invoke-restmethod|irm|invoke-webrequest|iwr|send-mailmessage|aws|gcloud|az|sentry-cli|heroku|vercel|netlify)$/;

/** Programs that post what they are handed where other people read it (not a store meant for secrets). */
const POSTS = /^(gh|glab|tea|hub|jira|linear|mail|mailx|sendmail|mutt|neomutt|swaks|msmtp|slack|slack-cli|slackcat|discord|ntfy|apprise|telegram-send|pushover|gist|pastebinit|twilio|send-mailmessage)$/;

/** git's subcommand: the first operand after git's own options (`git -C dir -c k=v add …`). */
function gitVerb(v: SegmentView): { verb?: string; rest: string[] } {
  if (v.name !== 'git') return { rest: [] };
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i];
    if (/^(-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/.test(a)) { i++; continue; }
    if (startsWith(a, '-')) continue;
    return { verb: a, rest: v.args.slice(i + 1) };
  }
  return { rest: [] };
}

/** The secret files `git add` stages. */
function stagedSecrets(v: SegmentView): string[] {
  const { verb, rest } = gitVerb(v);
  if (verb !== 'add' && verb !== 'stage') return [];
  return rest.filter((a) => !startsWith(a, '-') && isSecretFile(a));
}

/** Every program leakRules can object to: each of its checks names the program (see RULES in command-dispatch.ts). */
export function leakConcerns(name: string): boolean {
  return name === 'git' || name === 'helm' || PRINTS.test(name) || COPIES.test(name) || PS_SENDERS.test(name) || POSTS.test(name) || /^(docker|podman|nerdctl|kubectl|oc)$/.test(name);
}

export function leakRules(v: SegmentView): Finding[] {
  const f: Finding[] = [];
  const staged = stagedSecrets(v);
  if (staged.length) f.push(ask('data_exfiltration', `git add stages a credential file (${staged.join(', ')}): once committed it goes to every remote the repository is pushed to`));
  const prints = PRINTS.test(v.name);
  if (prints || COPIES.test(v.name)) {
    // A variable needs a `$`: most argvs have none.
    const named = !v.words.some((w) => has(w.raw, '$')) ? undefined : v.words.flatMap((w) => [...w.raw.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1])).find((n) => CREDENTIAL_FILE_VAR.test(n));
    if (named) f.push(prints ? deny('data_exfiltration', `${v.name} prints or sends the credentials file $${named} names`) : ask('data_exfiltration', `${v.name} copies the credentials file $${named} names`));
  }
  if (PS_SENDERS.test(v.name)) f.push(...psSecrets(v));
  if (POSTS.test(v.name) && !v.args.some((a) => /^(secret|secrets|variable|variables|env|config:set|env:import)$/.test(a))) {
    const file = v.args.map((a) => a.replace(/^--?[\w-]+=/, '').replace(/^@/, '')).find((a) => !a.startsWith('-') && isSecretFile(a));
    if (file) f.push(deny('data_exfiltration', `${v.name} posts the credential file ${file} to an issue tracker, a chat, a mail or a paste service`));
  }
  const copied = copiedOutOfContainer(v);
  if (copied) f.push(ask('data_exfiltration', `${v.name} cp copies a credential file (${copied}) out of a running container`));
  if (v.name === 'helm' && /^get$/.test(v.args[0] ?? '') && /^(values|all)$/.test(v.args[1] ?? '')) f.push(ask('data_exfiltration', `helm get ${v.args[1]} prints a release's stored values, where passwords and keys are passed`));
  return f;
}

/**
 * `$env:GITHUB_TOKEN` in what a web cmdlet sends. In a header it is how an API is called (asks, like
 * curl's); in the URL or the body it is a leak.
 */
function psSecrets(v: SegmentView): Finding[] {
  for (let i = 0; i < v.words.length; i++) {
    const secret = [...v.words[i].raw.matchAll(/\$env:([A-Za-z_][A-Za-z0-9_]*)/gi)].map((m) => m[1]).find((n) => SECRET_VAR.test(n));
    if (!secret) continue;
    const header = /^-(headers?|h|credential|token|authentication)$/i.test(before(v.words, i)?.text ?? '') || /authorization|bearer|@\{/i.test(v.words[i].raw);
    return [header ? ask('data_exfiltration', `${v.name} sends the secret $env:${secret} in a header`) : deny('data_exfiltration', `${v.name} sends the secret $env:${secret} in the URL or the body`)];
  }
  return [];
}

/** `docker cp CONTAINER:/app/.env .`, `kubectl cp ns/pod:/x/secrets.yaml .`: the source side, when it names a secret file. */
function copiedOutOfContainer(v: SegmentView): string | undefined {
  if (!/^(docker|podman|nerdctl|kubectl|oc)$/.test(v.name)) return undefined;
  const ops = v.args.filter((a) => !a.startsWith('-'));
  const at = ops.indexOf('cp');
  const src = at >= 0 ? ops[at + 1] : undefined;
  const m = src ? /^[\w./-]+:(.+)$/.exec(src) : null;
  return m && isSecretFile(m[1]) ? m[1] : undefined;
}

/** Reads a secret file: a reader given one, or `$(< .env)`. */
function readsSecret(v: SegmentView): boolean {
  return v.seg.redirects.some((r) => r.op === '<' && isSecretFile(r.target.text)) || PRINTS.test(v.name) && v.args.some((a) => !startsWith(a, '-') && isSecretFile(a));
}

/**
 * Checks over the whole command: a secret file staged and pushed in the same command, and a secret
 * file read inside a substitution whose text a sending program is handed (`gh issue create -b "$(cat .env)"`).
 */
export function leakFlows(views: readonly SegmentView[]): Finding[] {
  const f: Finding[] = [];
  // A loop, not flatMap: this runs once per decision and nearly every argv adds nothing.
  const staged: string[] = [];
  for (const v of views) for (const s of stagedSecrets(v)) staged.push(s);
  if (staged.length && views.some((v) => gitVerb(v).verb === 'push')) f.push(deny('data_exfiltration', `git adds a credential file (${staged.join(', ')}) and pushes it to a remote`));
  // The sender first: reading a secret is the dearer test, and most pipelines end in no sender.
  const piped = views.find((v) => v.pipedTo && (SENDERS.test(v.pipedTo.name) || POSTS.test(v.pipedTo.name)) && readsSecret(v));
  if (piped?.pipedTo) f.push(deny('data_exfiltration', `${piped.name} reads a credential file and pipes it to ${piped.pipedTo.name}, which sends it to a server`));
  const substituted = views.some((v) => (v.seg.context === 'command-substitution' || v.seg.context === 'process-substitution') && readsSecret(v));
  // `$(< .env)` reads the file with no command of its own to show for it.
  const slurps = (v: SegmentView) => v.words.some((w) => has(w.raw, '$(') && [...w.raw.matchAll(/\$\(\s*<\s*([^)\s]+)\s*\)/g)].some((m) => isSecretFile(m[1])));
  if (substituted || views.some(slurps)) {
    const sender = views.find((v) => v.seg.context !== 'command-substitution' && v.seg.context !== 'process-substitution' && SENDERS.test(v.name) && v.words.some((w) => w.dynamic && /\$\(|`|<\(/.test(w.raw)));
    if (sender) f.push(deny('data_exfiltration', `${sender.name} is handed the content of a credential file read by a substitution, and sends it to a server`));
  }
  return f;
}
