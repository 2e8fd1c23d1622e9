// Programs run against other hosts or the machine itself, judged by role: load generators aimed
// at a host that is not this machine, attack payloads (SQL, script and command injection, path
// traversal, JNDI look-ups) inside a URL, directory queries for password attributes, a display or
// shell handed to another host, exploits and privilege-escalation helpers by their well-known
// names, miners by name, container image or mining arguments, line tools reading an endless
// device, and access granted later through a forge's API or a cloud account.
import { CAPTURE_PROGRAMS, captureDeviceRule, captureProgramRule } from './command-rules-capture';
import { describesItself } from './command-rules-network';
import { workloadConcerns, workloadRules, workloadWhen } from './command-rules-workload';
import { ask, deny, hostOf, isLoopbackUrl, looksLikeUrl, namesOf, SHELLS, type Finding, type SegmentView, before } from './command-view';
import { has, someStartsWith, startsWith } from './command-strings';
import { redirectsToDevice } from './command-rules-exhaust';

/** HTTP load generators: against this machine a benchmark, against another host a flood. */
const LOAD_TOOLS = /^(ab|ab2|wrk|wrk2|hey|k6|vegeta|bombardier|oha|autocannon|artillery|locust|h2load|httperf|slowhttptest|ddosify|plow|cassowary|ali|jmeter|gatling|tsung|loadtest|go-wrk|boom|baton|pewpew|siege)$/;
/** Tools whose only use is injecting into or exploiting another host's application. */
const INJECTION_TOOLS = /^(ghauri|nosqlmap|sqlninja|jsql|jsql-injection|bbqsql|tplmap|sstimap|xsser|ssrfmap|gopherus|fimap|liffy|dotdotpwn|padbuster|crlfuzz|kxss|xsstrike|sqlmap|commix|ldapdomaindump|windapsearch|kerbrute|certipy|certipy-ad|coercer|petitpotam|routersploit|rsf|exploitdb|beef)$/;
/** Shells handed to (or taken from) another host by dedicated tools. */
const REMOTE_SHELL_TOOLS = /^(pwncat|pwncat-cs|pwncat-vl|rcat|rustcat|gs-netcat|gsocket|gs-sftp|gs-mount|penelope|hoaxshell|villain|chashell|chaserv|revsh|shellerator|sliver|sliver-client|sliver-server|merlin|havoc|empire|powershell-empire|starkiller|poshc2|pupy|pupysh|evil-ssdp|reverse-ssh|rssh)$/;
/** An exploit or privilege-escalation helper by its well-known name. */
const EXPLOIT_NAME = /(pwnkit|dirty_?(cow|pipe|cred|sock|frag)|cve[-_]?\d{4}[-_]\d{4,}|linpeas|winpeas|linenum|^lse\.sh$|^les\.sh$|linux-exploit-suggester|^exploit(\.\w+)?$|^traitor$|^pspy\d*$|beroot|sudo_killer|juicypotato|printspoofer|rottenpotato|godpotato|sweetpotato|mimikatz|rubeus|sharphound|seatbelt|lazagne|^gtfo)/i;
/** Miner programs and images, and malware that mines (kinsing, kdevtmpfsi). */
const MINER_NAME = /(^|[-_])(xmrig|xmr-stak|cpuminer|minerd|ethminer|cgminer|bfgminer|nbminer|t-rex|trex|phoenixminer|lolminer|nanominer|gminer|teamredminer|srbminer|ccminer|nheqminer|nicehash|kinsing|kdevtmpfsi|kworkerds|kthreaddk|dbused|watchbog|sysrv|xmrminer|moneroocean|rigel|bzminer|wildrig)([-_.]|$)/i;
/** Proof-of-work algorithms only miners speak. */
const MINING_ALGO = /^(rx\/\w+|randomx|randomwow|randomarq|cn(\/|-)\w+|cryptonight\S*|kawpow|ethash|etchash|autolykos2?|kheavyhash|equihash\S*|octopus|beamhash\S*|cuckoo\S*|argon2\/\w+|ghostrider|verushash|sha256d|scrypt|x16rv?2?|progpow\S*|firopow|blake3)$/i;
/** A miner's pool, wallet or coin in its arguments (module-level: a regex literal in a per-argument callback is a new object per call). */
const POOL_OPTION = /^--(donate-level|wallet|pool|user-agent-mining|rig-id|nicehash)(=|$)/;
const POOL_COIN = /^(monero|xmr)$/i;
const ALGO_OPTION = /^(-a|--algo|--algorithm|--coin)$/;
const ALGO_ASSIGNED = /^--(algo|algorithm|coin)=/;
/** Devices that never end: a tool that reads a whole line or all its input before writing fills the memory. */
const ENDLESS_DEVICE = /^\/dev\/(zero|u?random|full)$/;
const WHOLE_INPUT = /^(sort|tac|shuf|rev|tail|grep|egrep|fgrep|rg|uniq|sed|awk|gawk|mawk|cut|paste|join|comm|nl|fmt|column|less|more|jq|xargs)$/;
/** Payloads of an attack on a web application, after percent-decoding. */
const PAYLOAD = /('|%27|")\s*(or|and|\|\|)\s*('?\w+'?\s*=\s*'?\w+|true|\d)|\bunion(\s|\+|\/\*\*\/)+(all(\s|\+)+)?select\b|;\s*(drop|delete|insert|update|shutdown|exec)\s|\b(sleep|benchmark|pg_sleep|waitfor\s+delay)\s*\(|\bxp_cmdshell\b|<\s*script\b|javascript:|\bon(error|load|mouseover)\s*=|(\.\.(\/|\\|%2f|%5c)){2,}|\/etc\/(passwd|shadow)|\$\{jndi:|\{\{\s*\d+\s*\*\s*\d+\s*\}\}|[;|`]\s*(id|whoami|uname|cat\s+\/etc)\b|\$\((id|whoami|uname)\)/i;
/** Directory attributes that hold passwords or their hashes. */
const PASSWORD_ATTR = /^(userPassword|unicodePwd|ms-Mcs-AdmPwd|msLAPS-Password|msLAPS-EncryptedPassword|sambaNTPassword|sambaLMPassword|ntPassword|lmPassword|supplementalCredentials|msDS-ManagedPassword|dBCSPwd|krbPrincipalKey)$/i;
/** Forge and cloud paths that hand out access later: keys, hooks, collaborators, members. */
const GRANT_PATH = /(^|\/)(keys|deploy[-_]keys|hooks|webhooks|collaborators|members|invitations|ssh_keys|gpg_keys|access_tokens|personal_access_tokens|runners|installations|outside_collaborators)(\/|$)/;

function decoded(s: string): string {
  try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; }
}

/** Every URL or host:port named, and whether all of them are this machine. */
function targets(args: readonly string[]): { urls: string[]; local: boolean } {
  // Load generators take whole URLs (`ab http://…`); a bare `script.js` or `data.json` is a file, not a host.
  const urls = args.filter((a) => /^[a-z][\w+.-]*:\/\//i.test(a) || /^\d{1,3}(\.\d{1,3}){3}(:\d+)?(\/|$)/.test(a) || /^--?(url|target|host)=/.test(a)).map((a) => a.replace(/^--?(url|target|host)=/, ''));
  return { urls, local: urls.length > 0 && urls.every(isLoopbackUrl) };
}

/** A load no test of one's own staging server needs: hundreds of connections, a hundred thousand requests, a high rate or a long run. */
function flood(args: readonly string[]): boolean {
  const value = (flag: RegExp) => args.flatMap((a, i) => (flag.test(a) ? [args[i + 1] ?? ''] : [])).concat(args.flatMap((a) => { const m = /^--?([\w-]+)=(.+)$/.exec(a); return m && flag.test(`--${m[1]}`) ? [m[2]] : []; }));
  const num = (s: string) => Number.parseFloat(s.replace(/k$/i, 'e3'));
  const secs = (s: string) => { const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s); return m ? Number(m[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] ?? 's'] ?? 1) : 0; };
  return value(/^(-c|--connections|--concurrency|-concurrency|--vus|-u|--users)$/).some((x) => num(x) >= 200)
    || value(/^(-n|--requests|--number|-requests)$/).some((x) => num(x) >= 100_000)
    || value(/^(-r|--rate|-rate|--qps|-q)$/).some((x) => num(x) >= 1000)
    || value(/^(-d|-z|--duration|-duration|-t|--time)$/).some((x) => /[smh]$/.test(x) && secs(x) >= 600);
}

/** Interpreters whose first operand is the script that runs. */
const SCRIPT_RUNNERS = /^(python[\d.]*|perl|ruby|node|php|pypy3?|sh)$/;

/** The program or script that actually runs: `./x`, `bash x.sh`, `python3 x.py`. */
function runFile(v: SegmentView): string | undefined {
  const base = (p: string) => p.replace(/\\/g, '/').split('/').pop() ?? p;
  if (v.exe.includes('/')) return base(v.exe);
  if (SHELLS.has(v.name) || SCRIPT_RUNNERS.test(v.name)) {
    const first = v.args.find((a) => !a.startsWith('-'));
    return first ? base(first) : undefined;
  }
  return v.name;
}

/** The image a container runner or cluster is asked to run or pull. */
function images(v: SegmentView): string[] {
  const out: string[] = [];
  for (const a of v.args) {
    if (!a.startsWith('--image=')) continue;
    const m = /^--image=(.+)$/.exec(a);
    if (m) out.push(m[1]);
  }
  if (IMAGE_RUNNERS.test(v.name)) {
    const w = v.args.filter((a) => !a.startsWith('-'));
    const at = w.findIndex((x) => /^(run|create|pull)$/.test(x));
    if (at >= 0) out.push(...w.slice(at + 1).filter((x) => /^[\w.-]+(:\d+)?(\/[\w.-]+)*(:[\w.-]+)?(@sha256:\w+)?$/.test(x)));
  }
  return out;
}

const FETCHERS = /^(curl|wget|wget2|http|https|xh|httpie|aria2c|axel|lynx|w3m|links|elinks|fetch)$/;
const LDAP_TOOLS = /^(ldapsearch|ldapmodify|ldapdelete|ldapwhoami|ldb-search)$/;
/** Every program the name-keyed checks (namedAttacks) are about: the judge runs them on no other. */
export const NAMED_ATTACK_PROGRAMS: readonly string[] = [LOAD_TOOLS, INJECTION_TOOLS, REMOTE_SHELL_TOOLS, FETCHERS, LDAP_TOOLS, /^(searchsploit)$/].flatMap(namesOf);
/** The programs of the three name-keyed parts below: a line tool's endless read, access granted later, capture by name. */
export const ENDLESS_READERS: readonly string[] = namesOf(WHOLE_INPUT);
export const GRANTING_CLIS: readonly string[] = ['gh', 'glab', 'aws'];
export { CAPTURE_PROGRAMS };
/** X servers, which can ask another host for a graphical login. */
const X_SERVERS = /^(x|xorg|xnest|xephyr|xvnc|xvfb|xwayland|xdmx)$/;
/** The images' runners (module-level: tested on every argv). */
const IMAGE_RUNNERS = /^(docker|podman|nerdctl|ctr|crictl|finch|lima|colima)$/;

/**
 * A load or injection tool asked only for its help or version names no target: no rule of this
 * file objects to it. The file's checks are split by whether they need the program's name, and
 * the judge's RULES lists the parts in the order their findings are listed: namedAttackRules,
 * attackRules, endlessReadRules, accessGrantRules, watchingRules, attackTailRules.
 */
function describesOnly(v: SegmentView): boolean {
  return TARGETING_TOOLS.has(v.name) && describesItself(v.args);
}
const TARGETING_TOOLS = new Set([...namesOf(LOAD_TOOLS), ...namesOf(INJECTION_TOOLS)]);

/** Load generators, injection tools, remote shells, payloads sent by fetchers, directory password queries. */
export function namedAttackRules(v: SegmentView): Finding[] {
  return namedAttacks(v) ?? [];
}

/** The programs attackRules looks at by name: miners, image runners, X servers (see RULES in command-dispatch.ts). */
export const attackConcerns = (name: string): boolean => MINER_NAME.test(name) || IMAGE_RUNNERS.test(name) || X_SERVERS.test(name);

/**
 * What attackRules' checks without a name need in any other argv: a path as the program (a miner's
 * file), a display, an image, or a mining algorithm or pool with the options that name them.
 */
export function attackWhen(v: SegmentView): boolean {
  return has(v.exe, '/') || v.seg.assignments.some((a) => a.name === 'DISPLAY') || v.args.some((a) => has(a, 'display') || attackOption(a));
}

/** The options attackRules' and attackTailRules' checks without a name look at: an image, a mining algorithm, coin, pool or user. */
export function attackOption(a: string): boolean {
  return startsWith(a, '--image=') || a === '-a' || startsWith(a, '--algo') || startsWith(a, '--coin') || a === '-o' || a === '-u' || a === '--url' || a === '--user';
}

/** The programs attackTailRules looks at by name: exploits, shells and interpreters (their script), image runners, workload CLIs. */
export const attackTailConcerns = (name: string): boolean => EXPLOIT_NAME.test(name) || SHELLS.has(name) || SCRIPT_RUNNERS.test(name) || IMAGE_RUNNERS.test(name) || workloadConcerns(name);

/** What its checks without a name need in any other argv: a path as the program, a device, an image, or what workloadWhen needs. */
export function attackTailWhen(v: SegmentView): boolean {
  return has(v.exe, '/') || redirectsToDevice(v) || someStartsWith(v.args, '/dev/') || someStartsWith(v.args, '--image=') || workloadWhen(v);
}

/** Any program: a display on another host, a miner by name, image or arguments. */
export function attackRules(v: SegmentView): Finding[] {
  if (describesOnly(v)) return [];
  const display = displayRule(v);
  const miner = minerRule(v, images(v));
  return display.length ? [...display, ...miner] : miner;
}

/** ENDLESS_READERS: a tool that reads a whole line or all its input, given an endless device. */
export function endlessReadRules(v: SegmentView): Finding[] {
  return describesOnly(v) ? [] : endlessRule(v);
}

/** GRANTING_CLIS: a forge's API or a cloud account told to give someone access later. */
export function accessGrantRules(v: SegmentView): Finding[] {
  return describesOnly(v) ? [] : grantRule(v);
}

/** CAPTURE_PROGRAMS: keystrokes, windows, camera, microphone, screen, clipboard or a process watched. */
export function watchingRules(v: SegmentView): Finding[] {
  return describesOnly(v) ? [] : captureProgramRule(v);
}

/** Any program: input devices read, the workload's credentials, an image by address, an exploit by name. */
export function attackTailRules(v: SegmentView): Finding[] {
  if (describesOnly(v)) return [];
  const f = [...captureDeviceRule(v), ...workloadRules(v)];
  // An image from a registry known only by an address: no name, no certificate to say whose it is.
  const bare = images(v).find((i) => /^\d{1,3}(\.\d{1,3}){3}(:\d+)?\//.test(i) && !/^127\./.test(i));
  if (bare) f.push(ask('code_injection', `${v.name} runs or pulls ${bare}, an image from a registry known only by its address`));
  const run = runFile(v);
  if (run && EXPLOIT_NAME.test(run)) f.push(deny('privilege_escalation', `${run} is a known exploit or privilege-escalation helper`));
  return f;
}

/**
 * Load generators, injection tools, remote shells, payloads in URLs, directory password queries,
 * exploit copies; undefined when a load or injection tool only describes itself.
 */
function namedAttacks(v: SegmentView): Finding[] | undefined {
  const { name, args } = v;
  const f: Finding[] = [];
  // Only the load and injection tools look at the targets.
  const t = LOAD_TOOLS.test(name) || INJECTION_TOOLS.test(name) ? targets(args) : { urls: [], local: false };
  if (describesItself(args) && (LOAD_TOOLS.test(name) || INJECTION_TOOLS.test(name))) return undefined;
  if (LOAD_TOOLS.test(name) && !t.local) {
    const host = hostOf(t.urls.find((u) => !isLoopbackUrl(u)) ?? '') ?? 'another host';
    f.push(t.urls.length && flood(args) ? deny('network_recon', `${name} floods ${host} with requests`) : ask('network_recon', `${name} sends a load of requests to ${t.urls.length ? host : 'hosts the judge cannot see'}`));
  }
  if (INJECTION_TOOLS.test(name)) f.push(t.local ? ask('network_recon', `${name} attacks an application on this machine`) : deny('network_recon', `${name} injects into or exploits another host's application`));
  if (REMOTE_SHELL_TOOLS.test(name)) f.push(deny('reverse_shell', `${name} hands a shell to another host or takes one from it`));
  if (FETCHERS.test(name)) {
    const hit = args.find((a) => (looksLikeUrl(a) || /^[\w-]+=/.test(a)) && PAYLOAD.test(decoded(a)));
    if (hit) f.push(isLoopbackUrl(hit) ? ask('network_recon', `${name} sends an attack payload to an application on this machine`) : deny('network_recon', `${name} sends an attack payload (injection or traversal) to another host`));
  }
  if (LDAP_TOOLS.test(name) && args.some((a) => PASSWORD_ATTR.test(a))) f.push(deny('data_exfiltration', `${name} asks a directory for password attributes`));
  if (name === 'searchsploit' && args.some((a) => /^(-m|--mirror|-x|--examine)$/.test(a))) f.push(ask('code_injection', 'searchsploit copies exploit code into the workspace'));
  return f;
}

/** A display on another host: X clients sent there, or an X server asking it for a login (XDMCP). */
function displayRule(v: SegmentView): Finding[] {
  const remote = (d: string) => /^[^:\s]+:\d/.test(d) && !/^(localhost|127\.[\d.]+|unix|\[?::1\]?):/.test(d);
  const shown = !v.args.some((a) => a.includes('display')) ? [] : v.args.flatMap((a, i) => (!a.includes('display') ? [] : /^--?display$/.test(a) ? [v.args[i + 1] ?? ''] : /^--?display=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : []));
  const env = v.seg.assignments.filter((a) => a.name === 'DISPLAY').map((a) => a.value.text);
  if ([...shown, ...env].some(remote)) return [deny('reverse_shell', `${v.name} opens its window on another host's display, which can then type into it`)];
  if (X_SERVERS.test(v.name) && v.args.some((a) => /^-(query|broadcast|indirect)$/.test(a))) return [deny('reverse_shell', `${v.name} asks another host for a graphical login (XDMCP)`)];
  return [];
}

/** The first of the program's name, its file's name and the images' names that names a miner (no list built: this runs on every argv). */
function minerNamed(v: SegmentView, imgs: readonly string[]): string | undefined {
  if (MINER_NAME.test(v.name)) return v.name;
  if (v.exe.includes('/')) {
    const file = v.exe.split('/').pop() ?? '';
    if (MINER_NAME.test(file)) return file;
  }
  for (const i of imgs) {
    const n = i.replace(/@.*$/, '').replace(/:[\w.-]+$/, '').split('/').pop() ?? '';
    if (MINER_NAME.test(n)) return n;
  }
  return undefined;
}

function minerRule(v: SegmentView, imgs: readonly string[]): Finding[] {
  const miner = minerNamed(v, imgs);
  if (miner !== undefined) return [deny('crypto_mining', `${miner} is a cryptocurrency miner`)];
  const algo = v.args.some((a, i) => {
    const prev = before(v.args, i);
    return prev?.startsWith('-') && ALGO_OPTION.test(prev) && MINING_ALGO.test(a) || a.startsWith('--') && ALGO_ASSIGNED.test(a) && MINING_ALGO.test(a.slice(a.indexOf('=') + 1));
  });
  const pool = v.args.some((a) => POOL_OPTION.test(a) || POOL_COIN.test(a));
  if (algo || pool && v.args.some((a) => /^(-o|--url|-u|--user)$/.test(a))) return [deny('crypto_mining', `${v.name} is given a mining algorithm, pool or wallet`)];
  return [];
}

function endlessRule(v: SegmentView): Finding[] {
  if (!WHOLE_INPUT.test(v.name)) return [];
  const read = [...v.args, ...v.seg.redirects.filter((r) => r.op === '<').map((r) => r.target.text)];
  return read.some((a) => ENDLESS_DEVICE.test(a)) ? [deny('destructive_ops', `${v.name} reads an endless device until the memory runs out`)] : [];
}

/** `gh api -X PUT repos/o/r/collaborators/x`, `glab api --method POST projects/1/hooks`, `aws iam create-access-key`. */
function grantRule(v: SegmentView): Finding[] {
  const { name, args } = v;
  if ((name === 'gh' || name === 'glab') && args[0] === 'api') {
    const method = (args.find((a, i) => /^(-X|--method)$/.test(before(args, i) ?? '')) ?? args.find((a) => /^--method=/.test(a))?.slice(9) ?? (args.some((a) => /^(-f|-F|--field|--raw-field|--input)$/.test(a)) ? 'POST' : 'GET')).toUpperCase();
    const route = args.slice(1).find((a, i) => !a.startsWith('-') && !/^(-X|--method|-f|-F|--field|--raw-field|-H|--header|--input|-q|--jq|-t|--template|--hostname|--cache)$/.test(args[i] ?? '')) ?? '';
    if (method !== 'GET' && GRANT_PATH.test(route)) return [deny('persistence', `${name} api ${method} ${route} gives someone access later (a key, a hook, a collaborator)`)];
    if (method !== 'GET' && /(^|\/)(secrets|variables)(\/|$)/.test(route)) return [ask('data_exfiltration', `${name} api ${method} ${route} changes a repository's secrets or variables`)];
  }
  if (name === 'aws' && args.filter((a) => !a.startsWith('-'))[0] === 'iam') {
    const verb = args.filter((a) => !a.startsWith('-'))[1] ?? '';
    if (/^(create-(user|access-key|login-profile|service-specific-credential|virtual-mfa-device|saml-provider|open-id-connect-provider)|update-login-profile|add-user-to-group|upload-ssh-public-key|upload-signing-certificate|update-assume-role-policy|enable-mfa-device)$/.test(verb))
      return [deny('persistence', `aws iam ${verb} gives someone access to the account later`)];
  }
  return [];
}
