// Secrets gathered or carried out by ordinary tools: a search of the machine for key, wallet or
// credential files (`find / -name id_rsa`, `locate *.kdbx`) — asked, and refused when what it finds
// is handed on to be copied or read; the workspace or a secret copied to cloud storage (`gsutil cp`,
// `aws s3 sync`, `az storage blob upload`); a secret-named variable put into a header git sends
// (`git -c http.extraHeader=…$TOKEN`); a cloud CLI asked for a function's or service's environment.
import { SECRET_VAR, varsIn } from './command-rules-secrets';
import { ask, deny, type Finding, type SegmentView, before } from './command-view';

/** File names that are keys, key stores, wallets or credentials wherever they are. */
const SECRET_NAME = /(^|[/*])(id_(rsa|dsa|ecdsa|ed25519)\*?|[^/]*\.(pem|key|p12|pfx|kdbx|kdb|keystore|jks|ppk|ovpn|gpg|asc|keytab)|\.env[\w.*-]*|credentials?[\w.*-]*|\.netrc|\.git-credentials|\.pgpass|\.npmrc|\.pypirc|wallet\.dat|shadow|authorized_keys|known_hosts|\.aws|\.ssh|secrets?[\w.*-]*|\*?token[\w.*-]*|[^/]*_(rsa|dsa|ecdsa|ed25519))$/i;
/** Roots that are not the workspace: the whole machine, the home folders, system folders. */
const FAR_ROOT = /^(\/|~|\$HOME|\$\{HOME\}|\/(home|Users|root|etc|var|opt|srv|mnt|media)(\/.*)?|~\/.*|\.\.(\/.*)?)$/;
/** Programs that take found names on stdin and copy, read, pack or send them. */
const HANDS_ON = /^(xargs|parallel|while|cp|cat|tar|zip|rsync|scp|curl|nc|tee|base64|gzip|7z|cpio|bash|sh)$/;
/** The searches patterns() reads, and the clouds a service's environment is asked of. */
const LOCATES = /^(locate|plocate|mlocate|slocate)$/;
const SEARCHES = /^(find|locate|plocate|mlocate|slocate|fd|fdfind)$/;
const ENV_CLOUDS = /^(aws|gcloud|az|doctl|fly|flyctl|render|railway|vercel|netlify|ibmcloud|oci)$/;
/** Cloud storage CLIs and the verbs that copy local files up. */
const STORAGE_UPLOAD: Record<string, RegExp> = {
  gsutil: /^(cp|rsync|mv)$/, gcloud: /^storage$/, aws: /^s3$/, s3cmd: /^(put|sync|cp)$/, mc: /^(cp|mirror|mv)$/, azcopy: /^(copy|cp|sync)$/, az: /^storage$/, b2: /^(upload-file|sync|file)$/, rclone: /^(copy|sync|move|copyto)$/, oci: /^os$/,
};

/** Every program gatherRules can object to: searches, cloud storage CLIs, git, the clouds asked for an environment. */
export const gatherConcerns = (name: string): boolean => SEARCHES.test(name) || Object.prototype.hasOwnProperty.call(STORAGE_UPLOAD, name) || name === 'git' || ENV_CLOUDS.test(name);

export function gatherRules(v: SegmentView, pipedOut: boolean): Finding[] {
  const f: Finding[] = [...searchRule(v, pipedOut), ...storageRule(v), ...gitHeaderRule(v)];
  // `aws lambda get-function-configuration --query Environment.Variables`, `gcloud run services describe --format=…env…`.
  const w = v.operands;
  if (ENV_CLOUDS.test(v.name) && w.some((x) => /^(get|describe|show|list|export)([-:]|$)/.test(x)) && v.args.some((a) => /(^|[.[\s'"{,=])(Environment|env|envs|environmentVariables|env_vars|variables|containerDefinitions\[\]\.environment)\b/i.test(a) && !/^--?env(ironment)?$/.test(a)))
    f.push(ask('env_dump', `${v.name} is asked for a service's environment variables`));
  return f;
}

/** The name patterns a search is for: `-name`/`-iname`/`-path`/`-regex` values, or locate's and fd's operands. */
function patterns(v: SegmentView): { roots: string[]; names: string[] } {
  const { name, args } = v;
  if (name === 'find') {
    const roots: string[] = [];
    for (const a of args) { if (a.startsWith('-') || a === '(' || a === '!') break; roots.push(a); }
    return { roots, names: args.filter((a, i) => /^-(i?name|i?path|i?wholename|i?regex|lname)$/.test(before(args, i) ?? '')) };
  }
  if (LOCATES.test(name)) return { roots: ['/'], names: args.filter((a) => !a.startsWith('-')) };
  if (name === 'fd' || name === 'fdfind') { const ops = args.filter((a) => !a.startsWith('-')); return { roots: ops.slice(1), names: ops.slice(0, 1) }; }
  return { roots: [], names: [] };
}

function searchRule(v: SegmentView, pipedOut: boolean): Finding[] {
  const { roots, names } = patterns(v);
  if (!names.some((n) => SECRET_NAME.test(n.replace(/^\^|\$$/g, '').replace(/\\\./g, '.')))) return [];
  if (!roots.some((r) => FAR_ROOT.test(r))) return [];
  const handed = pipedOut && v.pipedTo !== undefined && HANDS_ON.test(v.pipedTo.name) || v.args.some((a) => /^-(exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(a));
  return handed
    ? [deny('data_exfiltration', `${v.name} searches outside the workspace for keys or credentials and hands them on to be copied or read`)]
    : [ask('data_exfiltration', `${v.name} searches outside the workspace for keys or credentials`)];
}

function storageRule(v: SegmentView): Finding[] {
  const verbs = Object.prototype.hasOwnProperty.call(STORAGE_UPLOAD, v.name) ? STORAGE_UPLOAD[v.name] : undefined;
  const w = v.operands;
  if (!verbs || !verbs.test(w[0] ?? '')) return [];
  const remote = (a: string) => /^[a-z][\w+.-]*:\/\//i.test(a) || /^[\w-]+:[\w./-]*$/.test(a) && v.name === 'rclone';
  const ops = w.slice(v.name === 'gcloud' || v.name === 'aws' || v.name === 'oci' ? 2 : 1);
  const local = ops.filter((a) => !remote(a));
  const firstLocal = ops.findIndex((a) => !remote(a));
  const up = v.name === 'az' ? w.some((x) => /^(upload|upload-batch|sync)$/.test(x)) : firstLocal >= 0 && ops.slice(firstLocal + 1).some(remote);
  if (!up) return [];
  const files = [...local, ...v.args.filter((a, i) => /^(--file|-f|--source|-s)$/.test(before(v.args, i) ?? ''))];
  if (files.some((a) => SECRET_NAME.test(a)) || v.args.some((a) => /public-read|allUsers|--public|blob-public-access|publicRead/i.test(a)))
    return [deny('data_exfiltration', `${v.name} uploads a secret or makes what it uploads public`)];
  return [ask('data_exfiltration', `${v.name} copies local files to cloud storage`)];
}

/** `git -c http.extraHeader="Authorization: Bearer $TOKEN" …`: the header goes to whatever host the command names. */
function gitHeaderRule(v: SegmentView): Finding[] {
  if (v.name !== 'git') return [];
  for (let i = 0; i < v.words.length; i++) {
    const prev = before(v.words, i)?.text;
    const t = v.words[i].text;
    const setting = prev === '-c' || prev === '--config' ? t : /^(-c|--config=)/.test(t) && t.length > 2 ? t.replace(/^(-c|--config=)/, '') : undefined;
    if (setting && /^http\.(.*\.)?extraheader=/i.test(setting) && varsIn(v.words[i].raw).some((n) => SECRET_VAR.test(n)))
      return [ask('data_exfiltration', 'git sends a secret from the environment in a header to the host it is given')];
  }
  return [];
}
