// Rules over the shape of any CLI's arguments, for the many programs no rule names: a verb that
// prints, mints or decrypts a credential; a verb that deletes, drops, flushes or rolls back
// something a person would want to confirm; a package source pointed at another URL. They ask (the
// program may mean something else by the word); the named rules deny what they know for sure.
import { ask, deny, type Finding, type SegmentView } from './command-view';

const CREDENTIAL_WORD = /(token|secret|password|passwd|credential|_?auth|apikey|api-key|api_key|private-key|access-key|keys?$|vault|kubeconfig)/i;
const READ_VERB = /^(get|show|view|print|export|output|pull|decrypt|read|reveal|list|create|dump|config-helper|get-credentials|get-token|login:ci|whoami)$/i;
const SECRET_FLAG = /^--?(show-secrets|reveal|show-token|decrypt|with-decryption|raw|show-credentials|insecure-print|unmask|plaintext|t)$/;
const DESTROY_VERB = /^(delete|destroy|drop|dropall|drop-all|db:drop|db:reset|db:schema:load|flush|flushall|flushdb|purge|truncate|wipe|nuke|teardown|shutdown|downgrade|rollback|undo|taint|drain|cordon|clean|reset|prune|rmi|del|remove|rm|uninstall|stop|kill|terminate|revoke|unpublish|deprecate|yank|expire|evict|format)$/i;
/** Programs whose everyday verbs overlap the words above: their own rules decide. */
const OWN_RULES = /^(git|rm|rmdir|npm|pnpm|yarn|bun|pip|pip3|pipx|cargo|brew|apt|apt-get|dnf|yum|pacman|snap|go|gem|make|cmake|kill|pkill|killall|systemctl|service|docker-compose|echo|printf|grep|rg|sed|awk|jq|find|xargs|tmux|screen|conda|mamba|uv|poetry|gradle|mvn|dotnet|composer|bundle|flutter|dart|swift|rustup|nvm|gh|code|vim|nvim|emacs|less|man|tldr|which|type|crontab)$/;

const PUBLISH_VERB = /^(publish|push|upload|snippet|gist|gists|share|release)$/;
const GRANT = /^(deploy-key|ssh-key|gpg-key|hooks?|webhooks?|login-profile|access-key|clusterrolebinding|rolebinding|authorized-keys?|collaborator|collaborators|member|invite)$/i;
const ENV_WORD = /^(env|envs|environment|variables|vars|appsettings|config:get|env:list|env:get|env:pull|secrets|settings)$/i;

export function genericRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const words = args.filter((a) => !a.startsWith('-'));
  const early: Finding[] = [];
  // Sending the workspace (or anything) to a registry, a paste or a public repository.
  if (words.some((w) => PUBLISH_VERB.test(w)) && !/^(git|echo|printf|grep|rg)$/.test(name) || name === 'gh' && words[0] === 'repo' && words[1] === 'create' && args.some((a) => /^--(push|public)$/.test(a)))
    early.push(ask('data_exfiltration', `${name} ${words.find((w) => PUBLISH_VERB.test(w)) ?? 'repo create'} sends files to a registry or another server`));
  if (words.some((w) => GRANT.test(w)) && words.some((w) => /^(add|create|put|set|grant|PUT|POST)$/i.test(w) || /hooks?$/.test(w)) || /^(crond|cron|anacron|atd|incrond)$/.test(name))
    early.push(deny('persistence', `${name} adds a key, hook, login or scheduler that gives access later`));
  if (v.exe.startsWith('/') && /^\/(tmp|var\/tmp|dev\/shm)\//.test(v.exe)) early.push(ask('code_injection', `${v.exe} is a program in a temporary folder`));
  if (/^(stress|stress-ng|memtester|yes)$/.test(name) && name !== 'yes') early.push(deny('destructive_ops', `${name} exhausts the machine's resources`));
  if ((words.some((w) => ENV_WORD.test(w) || /^(pull|export|download|list|get|show|describe|inspect)$/.test(w)) && args.some((a) => /(^|[.{\[ ,=:'"])(env|envs|Environment|variables|appsettings)\b|^env$|^export$/.test(a)) && words.some((w) => /^(pull|export|download|list|get|show|describe|inspect|config|variables|env|--list)$/i.test(w) || ENV_WORD.test(w))) && !OWN_RULES.test(name))
    early.push(ask('env_dump', `${name} may print a service's environment or settings`));
  if (OWN_RULES.test(name)) return early;
  const f: Finding[] = [];
  const ownSecrets = /^(kubectl|oc|aws|gcloud|az|docker|podman|heroku|security|secret-tool)$/.test(name);
  const credentialName = /credential|keyring|vault|secret|pass$|^op$|^bw$/i.test(name);
  if (!ownSecrets && (words.some((w) => READ_VERB.test(w)) || args.some((a) => SECRET_FLAG.test(a) && a !== '-t' && a !== '--raw')) && (credentialName || args.some((a) => CREDENTIAL_WORD.test(a.replace(/^--?/, '')))))
    f.push(ask('data_exfiltration', `${name} may print, mint or decrypt a credential`));
  else if (args.includes('-t') && /^(oc|kubectl)$/.test(name) && words[0] === 'whoami') f.push(ask('data_exfiltration', `${name} whoami -t prints the session token`));
  else if (/^(sops|ansible-vault|age|gpg|openssl)$/.test(name) && args.some((a) => /^(-d|--decrypt|view|decrypt)$/.test(a))) f.push(ask('data_exfiltration', `${name} decrypts secrets into the output`));
  const verb = words.find((w) => DESTROY_VERB.test(w.split(':').pop() ?? w) || DESTROY_VERB.test(w));
  if (verb && !f.some((x) => x.group === 'remote_destruction')) f.push(deny('remote_destruction', `${name} ${verb} deletes, resets or stops something outside the workspace`));
  f.push(...early);
  if (words.some((w) => /^(source|sources|repo|repository|remote-add|tap|add-repository|mirror|registry|channel|index)$/.test(w)) && args.some((a) => /^(https?|git\+\w+|git|ssh):\/\//i.test(a)))
    f.push(ask('persistence', `${name} points a package source at another URL`));
  return f;
}
