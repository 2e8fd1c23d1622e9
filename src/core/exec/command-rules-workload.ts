// Credentials a machine or a workload is given by where it runs: cloud metadata services at any
// spelling of their address (a hostname, the link-local IP in decimal, hex or IPv6-mapped form), the
// endpoints the environment names for them (ECS task credentials, Azure managed identity, GitHub's
// OIDC token), the CLIs that turn a login into a bearer token, and the CI runner's own files. Whoever
// holds these acts as the machine, the pod or the account.
import { ask, deny, hostOf, type Finding, type SegmentView } from './command-view';
import { has, startsWith } from './command-strings';

/** The link-local metadata address 169.254.169.254 and the ECS one 169.254.170.2, in every numeric spelling. */
function metadataIp(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
  if (/^(169\.254\.169\.254|169\.254\.170\.2|fd00:ec2::254|100\.100\.100\.200)$/i.test(h)) return true;
  const n = /^0x[0-9a-f]+$/i.test(h) ? Number.parseInt(h, 16) : /^\d{8,10}$/.test(h) ? Number(h) : NaN;
  return n === 0xa9fea9fe || n === 0xa9feaa02;
}

/** Hosts whose only job is to hand out the machine's identity. */
const METADATA_HOST = /^(metadata\.google\.internal|metadata\.goog|metadata|instance-data|instance-data\.ec2\.internal|metadata\.azure\.internal|metadata\.tencentyun\.com|metadata\.platformequinix\.com)$/i;
/** Variables that point at a workload's credential endpoint or hold the token to call it. */
const WORKLOAD_VAR = /\$\{?(AWS_CONTAINER_CREDENTIALS_(RELATIVE|FULL)_URI|AWS_CONTAINER_AUTHORIZATION_TOKEN|ECS_CONTAINER_METADATA_URI(_V4)?|IDENTITY_ENDPOINT|IDENTITY_HEADER|MSI_ENDPOINT|MSI_SECRET|ACTIONS_ID_TOKEN_REQUEST_(URL|TOKEN)|ACTIONS_RUNTIME_TOKEN|GCE_METADATA_HOST|AWS_WEB_IDENTITY_TOKEN_FILE)\b/;

/**
 * The CI runner's own temporary folder (GitHub Actions' RUNNER_TEMP, Azure Pipelines'
 * AGENT_TEMPDIRECTORY): the scripts of the job's steps, with their inputs written in, and the files
 * that pass values — secrets too — from one step to the next.
 */
const RUNNER_FILES_VAR = /\$\{?(RUNNER_TEMP|AGENT_TEMPDIRECTORY)\b/;
const RUNNER_FILES_PATH = /^(\/home\/runner\/work|\/__w)\/_temp(\/|$)/;
/** Tested on every word of every argv: kept at module level, not made anew per word. */
const DIGIT = /\d/;
/** Programs that list, make or name a folder without reading what is in its files. */
const NOT_READING = /^(ls|dir|mkdir|echo|printf|cd|pushd|test|\[|\[\[|realpath|readlink|dirname|basename|touch|rm|du|df|stat)$/;
/** Copies: the last operand is where they write, the others are read. */
const COPIES = /^(cp|mv|rsync|install|scp)$/;

/** The first word that reads a file of the runner's temporary folder, or undefined. */
function runnerFileRead(v: SegmentView): string | undefined {
  if (NOT_READING.test(v.name)) return undefined;
  // The variables need a `$`, the folders a leading slash: without either (most argvs) nothing here matches.
  if (!v.words.some((w) => w.raw.includes('$') || w.text.startsWith('/'))) return undefined;
  const operands = v.words.filter((w) => !w.text.startsWith('-') || RUNNER_FILES_VAR.test(w.raw));
  const read = COPIES.test(v.name) ? operands.slice(0, -1) : operands;
  return read.find((w) => RUNNER_FILES_VAR.test(w.raw) || RUNNER_FILES_PATH.test(w.text))?.raw;
}

/** The programs workloadRules looks at by name. */
export const workloadConcerns = (name: string): boolean => /^(az|ec2-metadata|aws-vault|aws|vault)$/.test(name) || startsWith(name, 'docker-credential-');

/**
 * What its checks without a name need in any other argv: a word with a `$`, a leading slash (the
 * runner's folder), a URL, an address (a `[` or a dotted number).
 */
export function workloadWhen(v: SegmentView): boolean {
  return v.words.some((w) => has(w.raw, '$') || startsWith(w.text, '/') || has(w.text, '://') || has(w.text, '[') || has(w.text, '.') && DIGIT.test(w.text));
}

export function workloadRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const runnerFile = runnerFileRead(v);
  if (runnerFile) return [ask('data_exfiltration', `${name} reads the CI runner's own files (${runnerFile}): the scripts of the job's steps and the files that pass values, secrets included, between them`)];
  for (const w of v.words) {
    // Neither a URL, an address nor a variable: the checks below cannot match (most words).
    if (!w.text.includes('://') && !w.text.includes('[') && !DIGIT.test(w.text) && !w.raw.includes('$')) continue;
    const value = w.text.replace(/^--?[\w-]+=/, '');
    // A URL, or a bare address followed by a path or a port (`http 169.254.169.254/latest`): never a plain word or number.
    const host = /^[a-z][\w+.-]*:\/\//i.test(value) ? hostOf(value) : /^(\d{1,3}(\.\d{1,3}){3}|\[[\w:.]+\])[/:]/.test(value) ? hostOf(value) : undefined;
    if (host && (metadataIp(host) || METADATA_HOST.test(host))) return [deny('data_exfiltration', `${name} asks the cloud metadata service (${host}), which hands out the machine's credentials`)];
    if (WORKLOAD_VAR.test(w.raw)) return [deny('data_exfiltration', `${name} calls the endpoint the environment names for the workload's own credentials`)];
  }
  // The checks below each name their program.
  if (!workloadConcerns(name)) return [];
  const sub = args.filter((a) => !a.startsWith('-'));
  if (name === 'az' && sub[0] === 'acr' && sub[1] === 'login' && args.includes('--expose-token')) return [ask('data_exfiltration', 'az acr login --expose-token prints a registry token')];
  if (/^docker-credential-/.test(name) && sub[0] === 'get' || name === 'ec2-metadata' || name === 'aws-vault' && /^(export|exec|login)$/.test(sub[0] ?? '')) return [ask('data_exfiltration', `${name} hands out stored or machine credentials`)];
  if (name === 'aws' && sub[0] === 'ec2' && sub[1] === 'get-password-data') return [ask('data_exfiltration', 'aws ec2 get-password-data reads a machine\'s administrator password')];
  if (name === 'vault' && (sub[0] === 'print' && sub[1] === 'token' || sub[0] === 'login')) return [ask('data_exfiltration', `vault ${sub[0]} ${sub[1] ?? ''} prints or mints a token`)];
  return [];
}
