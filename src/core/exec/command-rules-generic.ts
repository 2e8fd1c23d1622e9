// Rules over the shape of any CLI's arguments, for the many programs no rule names: a verb that
// prints, mints or decrypts a credential; a verb that deletes, drops, flushes or rolls back
// something a person would want to confirm; a package source pointed at another URL. They ask (the
// program may mean something else by the word); the named rules deny what they know for sure.
import { ask, deny, type Finding, type SegmentView } from './command-view';
import { has, startsWith } from './command-strings';
import { GPG } from './command-option-tables';
import { hasLong, parseOptions } from './command-options';

const CREDENTIAL_WORD = /(token|secret|password|passwd|credential|_?auth|apikey|api-key|api_key|private-key|access-key|keys?$|vault|kubeconfig)/i;
const READ_VERB = /^(get|show|view|print|export|output|pull|decrypt|read|reveal|list|create|dump|config-helper|get-credentials|get-token|login:ci|whoami)$/i;
const SECRET_FLAG = /^--?(show-secrets|reveal|show-token|decrypt|with-decryption|raw|show-credentials|insecure-print|unmask|plaintext|t)$/;
const DESTROY_VERB = /^(delete|destroy|drop|dropall|drop-all|db:drop|db:reset|db:schema:load|flush|flushall|flushdb|purge|truncate|wipe|nuke|teardown|shutdown|downgrade|rollback|undo|taint|drain|cordon|clean|reset|prune|rmi|del|remove|rm|uninstall|stop|kill|terminate|revoke|unpublish|deprecate|yank|expire|evict|format|rb|migrate:fresh|migrate:refresh|cancel|unset)$/i;
/** Programs whose everyday verbs overlap the words above: their own rules decide. */
const OWN_RULES = /^(git|rm|rmdir|npm|pnpm|yarn|bun|pip|pip3|pipx|cargo|brew|apt|apt-get|dnf|yum|pacman|snap|go|gem|make|cmake|kill|pkill|killall|systemctl|service|docker-compose|echo|printf|grep|rg|sed|awk|jq|find|xargs|tmux|screen|conda|mamba|uv|poetry|gradle|mvn|dotnet|composer|bundle|flutter|dart|swift|rustup|nvm|gh|code|vim|nvim|emacs|less|man|tldr|which|type|crontab)$/;

/** `delete_queue`, `purge-queue`, `deleteBucket`: a destroying verb with its object joined on. */
const DESTROY_JOINED = /^(delete|drop|purge|flush|truncate|destroy|wipe)[_-][a-z]+$/i;
const DESTROY_CAMEL = /^(delete|destroy|drop|purge|remove)[A-Z]\w*$/;
/** Schedulers' daemons. */
const CRON = /^(crond|cron|anacron|atd|incrond)$/;

const PUBLISH_VERB = /^(publish|push|upload|snippet|gist|gists|share|release)$/;
const GRANT = /^(deploy-key|ssh-key|gpg-key|hooks?|webhooks?|login-profile|access-key|clusterrolebinding|rolebinding|authorized-keys?|collaborator|collaborators|member|invite)$/i;
/**
 * Word lists tested on every operand of every argv, kept at module level: a regex literal inside a
 * per-word callback is a new object on each call.
 */
const FETCH_VERB = /^(pull|export|download|list|get|show|describe|inspect)$/;
const SOURCE_WORD = /^(source|sources|repo|repository|remote-add|tap|add-repository|mirror|registry|channel|index)$/;
const SHOW_VERB = /^(get|list|show|view|print)$/;
const ENV_WORD = /^(env|envs|environment|variables|vars|appsettings|config:get|env:list|env:get|env:pull|secrets|settings)$/i;

export function genericRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const words = v.operands;
  const early: Finding[] = [];
  // Sending the workspace (or anything) to a registry, a paste or a public repository.
  if (words.some((w) => PUBLISH_VERB.test(w)) && !/^(git|echo|printf|grep|rg)$/.test(name) || name === 'gh' && words[0] === 'repo' && words[1] === 'create' && args.some((a) => /^--(push|public)$/.test(a)))
    early.push(ask('data_exfiltration', `${name} ${words.find((w) => PUBLISH_VERB.test(w)) ?? 'repo create'} sends files to a registry or another server`));
  // `direnv hook bash` prints a shell snippet: a hook word needs a verb that adds it, or a URL it would call.
  if (words.some((w) => GRANT.test(w)) && (words.some((w) => /^(add|create|put|set|grant|PUT|POST)$/i.test(w)) || words.some((w) => /hooks$/.test(w)) && args.some((a) => /:\/\//.test(a))) || CRON.test(name))
    early.push(deny('persistence', `${name} adds a key, hook, login or scheduler that gives access later`));
  // `-Dexec.executable=rm`, `--exec-program=…`: a property that names the program a build runs.
  let named: string | undefined;
  for (const a of args) if (!named && (a.startsWith('-D') || a.startsWith('-d'))) named = /^-D[\w.]*\.(executable|command|program|shell)=(.+)$/i.exec(a)?.[2];
  if (named) early.push(/^(rm|sh|bash|zsh|dash|curl|wget|nc|python\d?|perl|ruby|node|powershell|pwsh|cmd)$/.test(named.split('/').pop() ?? '') ? deny('code_injection', `${name} is told to run ${named}`) : ask('code_injection', `${name} is told to run ${named}`));
  if (v.exe.startsWith('/') && /^\/(tmp|var\/tmp|dev\/shm)\//.test(v.exe)) early.push(ask('code_injection', `${v.exe} is a program in a temporary folder`));
  if ((words.some((w) => ENV_WORD.test(w) || FETCH_VERB.test(w)) && args.some((a) => /(^|[.{\[ ,=:'"])(env|envs|Environment|variables|appsettings)\b|^env$|^export$/.test(a)) && words.some((w) => /^(pull|export|download|list|get|show|describe|inspect|config|variables|env|--list)$/i.test(w) || ENV_WORD.test(w))) && !OWN_RULES.test(name))
    early.push(ask('env_dump', `${name} may print a service's environment or settings`));
  early.push(...packageSourceRule(v, words), ...credentialWordRule(name, args, words));
  if (OWN_RULES.test(name)) return early;
  const f: Finding[] = [];
  const ownSecrets = /^(kubectl|oc|aws|gcloud|az|docker|podman|heroku|security|secret-tool)$/.test(name);
  const credentialName = /credential|keyring|vault|secret|pass$|^op$|^bw$/i.test(name);
  if (!ownSecrets && (words.some((w) => READ_VERB.test(w)) || args.some((a) => SECRET_FLAG.test(a) && a !== '-t' && a !== '--raw')) && (credentialName || args.some((a) => CREDENTIAL_WORD.test(a.replace(/^--?/, '')))))
    f.push(ask('data_exfiltration', `${name} may print, mint or decrypt a credential`));
  else if (args.includes('-t') && /^(oc|kubectl)$/.test(name) && words[0] === 'whoami') f.push(ask('data_exfiltration', `${name} whoami -t prints the session token`));
  else if (/^(sops|ansible-vault|age|gpg|openssl)$/.test(name) && (args.some((a) => /^(-d|--decrypt|view|decrypt)$/.test(a)) || name === 'gpg' && hasLong(parseOptions(args, GPG), 'decrypt'))) f.push(ask('data_exfiltration', `${name} decrypts secrets into the output`));
  // `delete_queue`, `purge-queue`, `drop_table`: a destroying verb with its object joined on.
  const verb = words.find((w) => w.includes(':') && DESTROY_VERB.test(w.slice(w.lastIndexOf(':') + 1)) || DESTROY_VERB.test(w) || DESTROY_JOINED.test(w) || DESTROY_CAMEL.test(w));
  if (verb && !f.some((x) => x.group === 'remote_destruction')) f.push(deny('remote_destruction', `${name} ${verb} deletes, resets or stops something outside the workspace`));
  f.push(...early);
  if (words.some((w) => SOURCE_WORD.test(w)) && args.some((a) => /^(https?|git\+\w+|git|ssh):\/\//i.test(a)))
    f.push(ask('persistence', `${name} points a package source at another URL`));
  return f;
}

const PACKAGE_TOOL = /^(npm|pnpm|yarn|bun|bunx|pip|pip3|pipx|uv|uvx|poetry|pdm|bundle|bundler|gem|go|composer|mvn|gradle|dotnet|nuget|brew|cargo|conda|mamba|deno|apt-add-repository|add-apt-repository)$/;
const SOURCE_KEY = /(registry|index|mirror|proxy|repo|source|sumdb|insecure|_?auth|token|packagist|trusted-host|GOFLAGS|GOPRIVATE|GONOSUMCHECK)/i;

/**
 * A package manager's settings changed to where packages come from or how they are checked (`config
 * set …registry…`, `env -w GOPROXY=`, `source add`, `tap … URL`, `-Dmaven.repo.remote=`), or code
 * fetched and run straight from a URL (`uvx --from git+https://…`, `deno run https://…`): every
 * later install may then run someone else's code.
 */
function packageSourceRule(v: SegmentView, words: readonly string[]): Finding[] {
  const { args } = v;
  const pm = PACKAGE_TOOL.test(v.name) || /^python[\d.]*$/.test(v.name) && args[0] === '-m' && /^(pip|pip3|pipx|poetry|uv)$/.test(args[1] ?? '');
  if (!pm) return [];
  if (/^(apt-add-repository|add-apt-repository)$/.test(v.name)) return [ask('persistence', `${v.name} adds a package source`)];
  const changes = words.some((w) => /^(set|add|tap)$/.test(w)) || args.includes('-w') || args.some((a) => /^-D[\w.]*(repo|registry|mirror|url)[\w.]*=/i.test(a));
  if (changes && args.some((a) => SOURCE_KEY.test(a) || /^(https?|git\+\w+|git|ssh):\/\//i.test(a))) return [ask('persistence', `${v.name} changes where packages come from or how they are checked`)];
  const url = args.find((a) => /^(git\+\w+:\/\/|https?:\/\/)/i.test(a) || /^[\w.-]+\.[a-z]{2,}\/[\w.-]+\/[\w.-]+@/.test(a));
  if (url && words.some((w) => /^(run|exec|x|dlx|install|i|add)$/.test(w)) || url && /^(uvx|bunx|pipx)$/.test(v.name) || args.includes('--from') && url) return [ask('package_install', `${v.name} fetches and runs code from ${url}`)];
  return [];
}

/** Verbs that themselves print or mint a credential, in any CLI. */
const MINT_WORD = /^(oauth-tokens?|auth-token|get-token|get-credentials|get-login-password|config-helper|create-access-key|print-access-token|print-identity-token|login:ci)$/i;
/** A settings key or operand that names a credential (`_authToken`, `user.password`, `keys`). */
const CREDENTIAL_KEY = /(^|[.:_/-])(_?auth_?token|authtoken|npmauthtoken|password|passwd|token|api[-_]?key|keys|index-url|extra-index-url|registry-url)$/i;

/** A CLI asked to print, mint or list a credential: a verb that says so, or a read of a credential setting. */
function credentialWordRule(name: string, args: string[], words: readonly string[]): Finding[] {
  if (/^(echo|printf|grep|egrep|rg|sed|awk|jq|yq|find|xargs|man|which|type|tldr|help|cat|less|head|tail)$/.test(name)) return [];
  const mint = words.some((w) => MINT_WORD.test(w)) || words.includes('token') && words.some((w) => /^(create|new|get|list|generate)$/.test(w));
  const reads = (words.some((w) => SHOW_VERB.test(w)) || args.includes('--get') || args.includes('--list')) && words.some((w) => CREDENTIAL_KEY.test(w));
  return mint || reads ? [ask('data_exfiltration', `${name} may print, mint or list a credential`)] : [];
}

/**
 * Any word genericRules' checks without a name look for, in one test (case-insensitive: a wider net
 * than some of the lists, never a narrower one): a verb or key word whole, a key word after a
 * separator, a destroying verb after a `:` or with its object joined on.
 */
export const ANY_WORD = new RegExp([PUBLISH_VERB, GRANT, ENV_WORD, FETCH_VERB, READ_VERB, DESTROY_VERB, SOURCE_WORD, MINT_WORD, CREDENTIAL_KEY, DESTROY_JOINED, DESTROY_CAMEL].map((r) => `(?:${r.source})`).join('|')
  + `|:(?:${DESTROY_VERB.source.slice(1)})`, 'i');

/** The programs genericRules looks at by name (see RULES in command-dispatch.ts). */
export const genericConcerns = (name: string): boolean => name === 'gh' || CRON.test(name) || PACKAGE_TOOL.test(name) || /^python[\d.]*$/.test(name) || /^(oc|kubectl|sops|ansible-vault|age|gpg|openssl)$/.test(name);

/**
 * What its checks without a name need in any other argv: an operand ANY_WORD accepts, a flag that
 * shows secrets, a `-D…=` property, or a program given by its path.
 */
export function genericWhen(v: SegmentView): boolean {
  if (startsWith(v.exe, '/')) return true;
  // Indexed loops, not some() with closures: this gate is asked of nearly every argv.
  const operands = v.operands;
  for (let i = 0; i < operands.length; i++) if (mayBeAnyWord(operands[i]) && ANY_WORD.test(operands[i])) return true;
  const args = v.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (startsWith(a, '-') && (SECRET_FLAG.test(a) || (startsWith(a, '-D') || startsWith(a, '-d')) && has(a, '='))) return true;
  }
  return false;
}

/**
 * False only for a word ANY_WORD cannot accept, found without its scan (paths and globs, most
 * operands, are the words it costs most on). Every alternative of ANY_WORD ends at the word's end:
 * the whole-word ones are made of letters, digits, `:`, `_` and `-` (a case-insensitive letter
 * never matches a non-ASCII one without the u flag, which non-ASCII letters here keep in anyway);
 * the others end in a CREDENTIAL_KEY word (token, password, passwd, key, keys, url) or follow a `:`.
 */
export function mayBeAnyWord(w: string): boolean {
  return WORD_CHARS.test(w) || has(w, ':') || KEY_TAIL.test(w);
}
const WORD_CHARS = /^[A-Za-z0-9:_\-\u0080-\uffff]*$/;
const KEY_TAIL = /(en|rd|wd|ey|ys|rl)$/i;
