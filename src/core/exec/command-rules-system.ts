// Rules for commands that destroy, escalate, kill, change system permissions, mine, escape a
// container or persist. Each looks at one segment's argv with real option parsing.
import { CHMOD, GIT, GIT_CLEAN, gitSubcommandTable, RM, SHRED, SYSCTL } from './command-option-tables';
import { hasFlag, hasLong, lastOn, parseOptions } from './command-options';
import { exhaustConcerns, exhaustRules, exhaustWhen } from './command-rules-exhaust';
import { ask, deny, denyAlways, namesOf, type Finding, type SegmentView, before } from './command-view';
import { someHas, startsWith } from './command-strings';

const DISK_TOOLS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|shred|blkdiscard|hdparm|badblocks|dmsetup|cryptsetup|lvremove|vgremove|pvremove|format)$/;
/** Pool and volume managers: only these verbs destroy; status, list and get read. */
const POOL_DESTROY = /^(destroy|labelclear|create|add|attach|detach|remove|replace|split|offline|reguid|rollback|initialize|trim)$/;
const POWER = /^(shutdown|reboot|halt|poweroff|telinit)$/;
const PRIV = /^(sudo|su|doas|pkexec|runuser|setpriv|nsenter|unshare|chroot|capsh|setcap|mount|umount|insmod|rmmod|modprobe|visudo|passwd|chpasswd|useradd|usermod|userdel|groupadd|gpasswd|newgrp|sudoedit|machinectl|ksu|calife|setuidgid)$/;
/** A mining pool's address (tested on every argument of every argv, so made once here). */
const STRATUM = /stratum\+(tcp|ssl|tls):\/\//i;
/** A command run through su or pkexec (SegmentView.seg.via). */
const SU_VIA = /^(su|pkexec)\b/;
const MINERS = /^(xmrig|xmr-stak|cpuminer|cpuminer-multi|minerd|ethminer|cgminer|bfgminer|nbminer|t-rex|phoenixminer|lolminer|nanominer|gminer|teamredminer|srbminer|ccminer|nheqminer|xmrig-proxy)$/;
/** Top-level system directories: recursive permission changes here break the machine. */
const SYSTEM_DIR = /^(\/+|\/(etc|usr|bin|sbin|lib|lib32|lib64|boot|var|sys|proc|dev|root|home|opt|srv|run|snap|System|Library|Applications|Users)(\/.*)?|~\/?|\$HOME\/?|\$\{HOME\}\/?|\/\*)$/;
const TMP_EXEC = /^\/(tmp|var\/tmp|dev\/shm)(\/|$)/;

/** Targets whose recursive removal is never a developer's intent. */
export function isCatastrophicTarget(t: string): boolean {
  const s = t.replace(/\/+$/, '') || '/';
  return s === '/' || s === '/*' || s === '~' || s === '~/*' || s === '.' || s === '..' || s === '*' || s === '.*' || /^\.\.(\/\.\.)*(\/\*)?$/.test(s)
    || /^(\$HOME|\$\{HOME\})(\/\*)?$/.test(s) || SYSTEM_DIR.test(s) || /^\/[^/]+\/?\*?$/.test(s);
}

/** Programs that delete the files they are given. */
export const REMOVERS = /^(rm|shred|unlink|rmdir|srm|wipe|rimraf|del|del-cli|trash|trash-put|rmtrash)$/;

/** A path that leaves the working folder: absolute, in the home folder, or up through `..`. */
export function isOutsidePath(p: string): boolean {
  return /^(\/|~|\$HOME|\$\{HOME\}|\.\.(\/|$))/.test(p);
}

/** `/` or the home folder itself (or everything in it): no setting makes deleting these a question. */
export function isRootOrHome(t: string): boolean {
  const s = t.replace(/\/+$/, '') || '/';
  return /^(\/\*?|~(\/\*)?|(\$HOME|\$\{HOME\})(\/\*)?)$/.test(s);
}

/** `sg GROUP -c CMD` runs as another group; `sg run -p …`, `sg scan`, `sg -p …` is ast-grep. */
function isNewgrpSg(args: readonly string[]): boolean {
  const first = args[0] ?? '';
  return first !== '' && !first.startsWith('-') && !/^(run|scan|test|new|lsp|completions|help|r|s|t|n)$/.test(first);
}

/**
 * Disks erased, workspace files shredded. The system checks are split by whether they need the
 * program's name, and the judge's RULES lists the parts in the order their findings are listed:
 * systemRules, privilegeRules, systemTailRules, systemProgramRules.
 */
/** Every program systemRules can object to (see RULES in command-dispatch.ts). */
export const systemConcerns = (name: string): boolean => name === 'shred' || DISK_TOOLS.test(name);

export function systemRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  // shred of workspace files (`shred -u secrets.local.json`) is a careful delete; of a device or anything outside, it is not.
  const shredsOwn = name === 'shred' && parseOptions(args, SHRED).operands.every((t) => !isOutsidePath(t) && !t.startsWith('-') && !/[*?]/.test(t) && t !== '.');
  if (shredsOwn && args.length) f.push(ask('destructive_ops', 'shred overwrites workspace files beyond recovery'));
  else if (DISK_TOOLS.test(name)) f.push(deny('destructive_ops', `${name} erases disks or files beyond recovery`));
  return f;
}

/** The programs privilegeRules is about (the dispatch contract at RULES in command-dispatch.ts). */
export const PRIVILEGE_PROGRAMS: readonly string[] = [...namesOf(POWER), 'init', 'systemctl', 'sudo', 'doas', ...namesOf(PRIV), 'sg'];

/** The machine stopped or restarted, a command run as another user, with other privileges or namespaces. */
export function privilegeRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if (POWER.test(name) || (name === 'init' && /^[06]$/.test(args[0] ?? '')) || (name === 'systemctl' && /^(poweroff|reboot|halt|kexec|rescue|emergency)$/.test(args.find((a) => !a.startsWith('-')) ?? '')))
    f.push(deny('destructive_ops', `${name} stops or restarts the machine`));
  // sudo and doas ask a person for a password anyway: what they run is judged on its own, and they ask.
  if (/^(sudo|doas)$/.test(name) && !args.some((a) => /^-(s|i|-shell|-login|E|-preserve-env)$/.test(a))) f.push(ask('privilege_escalation', `${name} runs the command as another user`));
  else if (name === 'mount' && args.every((a) => /^-(l|-show-labels)$/.test(a))) { /* `mount` alone lists what is mounted */ }
  else if (PRIV.test(name) || (name === 'sg' && isNewgrpSg(args))) f.push(deny('privilege_escalation', `${name} runs with other privileges or namespaces`));
  return f;
}

/** Any program: run through su or pkexec, a miner, a mining pool, storage pools, endless streams. */
/** The programs systemTailRules looks at by name (its own and exhaustRules'). */
export const systemTailConcerns = (name: string): boolean => MINERS.test(name) || name === 'zpool' || name === 'zfs' || exhaustConcerns(name);

/**
 * What its checks without a name need in any other argv: su or pkexec as a wrapper, a URL (a stratum
 * pool) or a device (exhaustWhen).
 */
export function systemTailWhen(v: SegmentView): boolean {
  return v.seg.via.some((w) => SU_VIA.test(w)) || someHas(v.args, '://') || exhaustWhen(v);
}

export function systemTailRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if (v.seg.via.some((w) => SU_VIA.test(w))) f.push(deny('privilege_escalation', 'the command runs through su/pkexec'));
  if (MINERS.test(name)) f.push(deny('crypto_mining', `${name} is a cryptocurrency miner`));
  if (args.some((a) => STRATUM.test(a))) f.push(deny('crypto_mining', 'the arguments point at a mining pool (stratum)'));
  if ((name === 'zpool' || name === 'zfs') && args.some((a) => POOL_DESTROY.test(a))) f.push(deny('destructive_ops', `${name} changes or destroys storage pools or datasets`));
  f.push(...exhaustRules(v));
  return f;
}

/**
 * Every program systemProgramRules can object to: the judge runs that part on no other (the
 * dispatch contract at RULES in command-dispatch.ts). A new `case` below needs its name here.
 */
export const SYSTEM_PROGRAMS: readonly string[] = [
  'rm', 'del', 'erase', 'rimraf', 'del-cli', 'trash', 'trash-put', 'rmtrash', 'trash-cli', 'rm-rf', 'dd',
  'chmod', 'chown', 'chgrp', 'setfacl', 'chattr', 'kill', 'killall', 'pkill', 'skill', 'slay', 'killall5',
  'xkill', 'crontab', 'fcrontab', 'incrontab', 'rc-update', 'chkconfig', 'update-rc.d', 'pm2',
  'forever-service', 'nssm', 'loginctl', 'launchd', 'supervisord', 'supervisorctl', 'networksetup',
  'launchctl', 'at', 'batch', 'schtasks', 'systemctl', 'find', 'docker', 'podman', 'nerdctl', 'git',
  'sysctl', 'seq', 'yes', 'jot', 'truncate',
];

/** Removal, devices, permissions, signals, schedulers and services, find, containers and git, by program. */
export function systemProgramRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  switch (name) {
    case 'rm': f.push(...rmRule(args)); break;
    // Removal tools from package registries (`npx rimraf`, `pnpm dlx del-cli`) delete like rm -r.
    // Windows `del /q *.log`: switches, not paths; only `/s` reaches into folders.
    case 'del': case 'erase': {
      const windows = args.some((a) => /^\/[a-z](:\S*)?$/i.test(a)) || name === 'erase';
      // Otherwise `del` is the npm package del-cli, which deletes like rm -r.
      f.push(...(windows ? rmRule([...(args.some((a) => /^\/s$/i.test(a)) ? ['-r'] : []), ...args.filter((a) => !/^\/[a-z](:\S*)?$/i.test(a))]) : rmRule(['-r', ...args.filter((a) => !a.startsWith('-'))])));
      break;
    }
    case 'rimraf': case 'del-cli': case 'trash': case 'trash-put': case 'rmtrash': case 'trash-cli': case 'rm-rf': f.push(...rmRule(['-r', ...args.filter((a) => !a.startsWith('-'))])); break;
    case 'dd': f.push(...ddRule(args)); break;
    case 'chmod': case 'chown': case 'chgrp': case 'setfacl': case 'chattr': f.push(...permRule(name, args)); break;
    case 'kill': f.push(...killRule(args)); break;
    case 'killall': case 'pkill': case 'skill': case 'slay': {
      const hard = args.some((a) => /^-(9|KILL|SIGKILL|s)$/i.test(a) || /^--signal(=|$)/.test(a)) || args.some((a) => /^-u$|^--euid|^--uid/.test(a));
      f.push(hard ? deny('process_control', `${name} kills processes by name with SIGKILL or for a whole user`) : ask('process_control', `${name} kills processes by name`));
      break;
    }
    case 'killall5': case 'xkill': f.push(deny('process_control', `${name} kills processes it picks`)); break;
    case 'crontab': case 'fcrontab': case 'incrontab': if (!(args.length === 1 && args[0] === '-l')) f.push(deny('persistence', `${name} installs a scheduled job`)); break;
    // Services started at boot: the init system's own switches.
    case 'rc-update': if (/^(add|-a)$/.test(args[0] ?? '')) f.push(deny('persistence', 'rc-update add starts a service at every boot')); break;
    case 'chkconfig': if (args.some((a) => /^(on|--add)$/.test(a))) f.push(deny('persistence', 'chkconfig turns a service on at boot')); break;
    case 'update-rc.d': if (args.some((a) => /^(defaults|enable|start|defaults-disabled)$/.test(a))) f.push(deny('persistence', 'update-rc.d starts a service at boot')); break;
    // Process managers and service wrappers installed to start with the machine or the login.
    case 'pm2': case 'forever-service': case 'nssm': case 'loginctl': case 'launchd': case 'supervisord':
      if (args.some((a) => /^(startup|install|enable-linger)$/.test(a))) f.push(ask('persistence', `${name} ${args.find((a) => /^(startup|install|enable-linger)$/.test(a))} makes programs start with the machine or outlive the login`));
      break;
    // A program group added to a running supervisor is started now and restarted whenever it stops.
    case 'supervisorctl': if (/^(add|update)$/.test(args.find((a) => !a.startsWith('-')) ?? '')) f.push(ask('persistence', `supervisorctl ${args.find((a) => !a.startsWith('-'))} starts programs the supervisor keeps restarting`)); break;
    // macOS network settings: a proxy or DNS server set here sees every connection.
    case 'networksetup': if (args.some((a) => /^-set(web|secureweb|socksfirewall|ftp|streaming|gopher)proxy$|^-setautoproxyurl$|^-setdnsservers$|^-setproxybypassdomains$/i.test(a))) f.push(deny('data_exfiltration', 'networksetup sends the machine\'s traffic or name lookups through another server')); break;
    case 'launchctl': if (!/^(list|print|print-disabled|version|help|blame|dumpstate|managerpid|manageruid|managername)$/.test(args[0] ?? '')) f.push(deny('persistence', 'launchctl loads or changes what runs later')); break;
    case 'at': case 'batch': if (!(args.length && args.every((a) => /^-(l|V)$/.test(a)))) f.push(deny('persistence', `${name} schedules something to run later`)); break;
    // `schtasks /query` lists; /create, /change and /run make or start a task.
    case 'schtasks': if (!args.length || !args.every((a) => /^\/(query|fo|v|nh|tn|\?)$/i.test(a) || !a.startsWith('/') && !/^\/(create|change|run|delete|end)/i.test(a)) || !args.some((a) => /^\/(query|\?)$/i.test(a))) f.push(deny('persistence', `${name} schedules something to run later`)); break;
    case 'systemctl': if (args.some((a) => /^(enable|link|edit|set-property|mask|daemon-reload|preset)$/.test(a))) f.push(deny('persistence', 'systemctl changes what starts with the system')); break;
    case 'find': f.push(...findRule(args)); break;
    case 'docker': case 'podman': case 'nerdctl': f.push(...containerRule(name, args)); break;
    case 'git': f.push(...gitDestructive(args)); break;
    case 'sysctl': if (hasFlag(parseOptions(args, SYSCTL), 'w', ['write']) || args.some((a) => a.includes('='))) f.push(deny('privilege_escalation', 'sysctl changes kernel settings')); break;
    // An endless list fed to xargs or parallel with no limit on processes starts them without end.
    case 'seq': case 'yes': case 'jot': if ((name !== 'seq' || args.some((a) => /^(inf|infinity|\d{7,})$/i.test(a))) && v.pipedTo && /^(xargs|parallel)$/.test(v.pipedTo.name) && v.pipedTo.args.some((a, i) => /^(-P0|--max-procs=0|-j0|--jobs=0)$/.test(a) || /^(-P|--max-procs|-j|--jobs)$/.test(a) && v.pipedTo?.args[i + 1] === '0'))
      f.push(deny('destructive_ops', `${name} feeds an endless list to ${v.pipedTo.name} with no limit on processes (a fork bomb)`));
      break;
    case 'truncate': if (args.some((a) => /^\/dev\//.test(a) && !/^\/dev\/null$/.test(a))) f.push(deny('destructive_ops', 'truncate on a device')); break;
  }
  return f;
}

function rmRule(args: string[]): Finding[] {
  const o = parseOptions(args, RM);
  const recursive = hasFlag(o, 'rR', ['recursive']);
  const targets = o.operands;
  if (hasLong(o, 'no-preserve-root')) return [denyAlways('destructive_ops', 'rm --no-preserve-root removes the whole filesystem')];
  if (targets.some(isRootOrHome)) return [denyAlways('destructive_ops', `rm${recursive ? ' -r' : ''} on the root or the home folder`)];
  if (targets.some(isCatastrophicTarget)) return [deny('destructive_ops', `rm${recursive ? ' -r' : ''} on a top-level, home or parent folder`)];
  if (recursive) return [ask('destructive_ops', `rm -r removes whole folders (${targets.join(' ') || 'no target'})`)];
  return [];
}

function ddRule(args: string[]): Finding[] {
  const of = args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (of.some((p) => /^\/dev\//.test(p) && !/^\/dev\/(null|stdout|stderr)$/.test(p))) return [deny('destructive_ops', 'dd writes straight to a device')];
  if (args.some((a) => /^if=\/dev\/(sd|nvme|hd|vd|xvd|mmcblk|disk|mem|kmem|port)/.test(a))) return [deny('data_exfiltration', 'dd reads a raw disk or memory device')];
  return [];
}

function permRule(name: string, args: string[]): Finding[] {
  // `chmod -x FILE` and `chmod -w DIR` are modes (take a permission away), not options.
  const o = parseOptions(name === 'chmod' ? args.map((a) => (/^-[rwxXst]+$/.test(a) ? `\0${a}` : a)) : args, CHMOD);
  const recursive = hasFlag(o, 'R', ['recursive']);
  const f: Finding[] = [];
  const withMode = (name === 'chmod' || name === 'chown' || name === 'chgrp') && !hasLong(o, 'reference');
  const mode: string | undefined = withMode ? o.operands[0] : undefined;
  const targets: string[] = withMode ? o.operands.slice(1) : o.operands;
  if (name === 'chmod' && mode && (/^[ugoa]*[+=][rwxXt]*s/.test(mode) || /^[0-7]?[4-7][0-7]{3}$/.test(mode) && mode.length === 4 && /^[4-7]/.test(mode)))
    f.push(deny('privilege_escalation', 'chmod sets the setuid/setgid bit'));
  if (name === 'chown' && mode && /^root\b|^0(:|$)/.test(mode)) f.push(deny('privilege_escalation', 'chown hands files to root'));
  if (targets.some((t) => SYSTEM_DIR.test(t.replace(/\/+$/, '') || '/') || t === '/')) f.push(deny('dangerous_paths', `${name}${recursive ? ' -R' : ''} on a system or home folder`));
  if (name === 'chmod' && mode && /x|[1357]/.test(mode) && targets.some((t) => TMP_EXEC.test(t))) f.push(deny('dangerous_paths', 'chmod makes a file in a shared temp folder executable'));
  if (name === 'chattr' || name === 'setfacl') f.push(ask('dangerous_paths', `${name} changes file attributes or ACLs`));
  return f;
}

const KILL_SIGNALS = /^(-?9|KILL|SIGKILL)$/i;

function killRule(args: string[]): Finding[] {
  const f: Finding[] = [];
  let i = 0;
  let signal = 'TERM';
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') { i++; break; }
    if (a === '-s' || a === '-n' || a === '--signal') signal = args[++i] ?? '';
    else if (a.startsWith('--signal=')) signal = a.slice(9);
    else if (/^-s./.test(a) || /^-n./.test(a)) signal = a.slice(2);
    else if (a === '-l' || a === '-L' || a === '--list' || a === '--table') return [];
    else if (/^-[A-Za-z0-9]+$/.test(a) && !/^-\d+$/.test(a) || /^-\d+$/.test(a) && i === 0) signal = a.slice(1);
    else break;
  }
  const pids = args.slice(i);
  if (KILL_SIGNALS.test(signal)) f.push(deny('process_control', 'kill with SIGKILL gives the process no chance to clean up'));
  if (pids.some((p) => /^(-?1|0|-\d+)$/.test(p))) f.push(deny('process_control', 'kill aimed at init, every process or a whole process group'));
  return f;
}

function findRule(args: string[]): Finding[] {
  const roots: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || a === '(' || a === '!') break;
    roots.push(a);
  }
  // Every setuid or setgid program on the machine: the first step of a privilege escalation.
  if (args.some((a, i) => before(args, i) === '-perm' && /^([-/]?[2467]\d{3}|[-/]?[ug]=s|[-/]?u\+s|[-/]?g\+s)$/.test(a)) && roots.some((r) => isCatastrophicTarget(r) || isOutsidePath(r)))
    return [ask('privilege_escalation', 'find lists the setuid and setgid programs of the machine')];
  const removes = args.includes('-delete') || args.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && REMOVERS.test((args[i + 1] ?? '').split('/').pop() ?? ''));
  if (removes) {
    if (roots.some(isRootOrHome)) return [denyAlways('destructive_ops', 'find -delete over the root or the home folder')];
    // `find . -name '*.pyc' -delete` is everyday cleanup: the working folder only asks.
    if (roots.length === 0 || roots.some((r) => isCatastrophicTarget(r) && !/^\.\/?$/.test(r))) return [deny('destructive_ops', 'find deletes over a top-level, home or parent folder')];
    if (roots.some(isOutsidePath)) return [deny('destructive_ops', 'find deletes files outside the workspace')];
    return [ask('destructive_ops', 'find deletes every file it matches')];
  }
  return [];
}

/** The sources of `-v SRC:DST`, `--volume=SRC:DST` and `--mount type=bind,source=SRC,…`. */
function mountSources(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = /^(-v|--volume|--mount)$/.test(args[i]) ? args[i + 1] ?? '' : /^(--volume|--mount)=/.test(args[i]) ? args[i].slice(args[i].indexOf('=') + 1) : /^-v./.test(args[i]) ? args[i].slice(2) : undefined;
    if (v === undefined) continue;
    const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(v)?.[1] ?? (v.includes('=') ? undefined : v.split(':')[0]);
    if (src) out.push(src);
  }
  return out;
}

/** A container handed the home folder (or a credential store in it): everything the person can read goes in with it. */
function homeMount(name: string, sub: string, args: string[]): Finding[] {
  const src = mountSources(args).map((s) => s.replace(/^["']|["']$/g, ''));
  const home = src.find((s) => /^(~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+)\/?$/.test(s));
  if (home) return [deny('container_escape', `${name} ${sub} mounts the home folder (${home}), with every key and token in it`)];
  const secret = src.find((s) => /^(~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+)\/\.(ssh|aws|kube|docker|gnupg|config\/gcloud|azure|netrc|git-credentials|npmrc)\b/.test(s));
  return secret ? [deny('data_exfiltration', `${name} ${sub} mounts a credential store (${secret}) into the container`)] : [];
}

function containerRule(name: string, args: string[]): Finding[] {
  const joined = args.join(' ');
  const f: Finding[] = [];
  const sub = args.find((a) => !startsWith(a, '-'));
  if (sub === 'run' || sub === 'create' || sub === 'exec') {
    if (/--privileged\b|--cap-add[= ](ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH)|--(pid|ipc|uts|userns|cgroupns)[= ]host|--security-opt[= ](apparmor|seccomp)[:=]unconfined|--device[= ]\/dev\//i.test(joined))
      f.push(deny('container_escape', `${name} ${sub} with host privileges or namespaces`));
    if (/(^|\s)(-v|--volume|--mount)[= ]?(\S*\s)?\/?(:|\/:|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/etc|\/root|\/proc|\/sys|\/dev)\b/.test(joined) || /(-v|--volume)[= ]\/:/.test(joined) || /source=\/(,|$|\s)/.test(joined))
      f.push(deny('container_escape', `${name} ${sub} mounts the host's root, system folders or the docker socket`));
    f.push(...homeMount(name, sub, args));
  }
  if (args.some((a) => /docker\.sock|containerd\.sock|podman\.sock/.test(a) && /(^|=|:\/\/)\//.test(a))) f.push(deny('container_escape', `${name} talks to a container runtime socket`));
  if (sub === 'system' && args.includes('prune') || sub === 'volume' && args.includes('prune')) f.push(ask('destructive_ops', `${name} prune deletes data`));
  return f;
}

function gitDestructive(args: string[]): Finding[] {
  const o = parseOptions(args, GIT);
  const sub = o.operands[0];
  const rest = args.slice(args.indexOf(sub ?? '') + 1);
  const ro = parseOptions(rest, gitSubcommandTable(sub ?? ''));
  // git takes the last of `-n`/`--dry-run` and `--no-dry-run`: `-fn --no-dry-run` deletes.
  if (sub === 'clean' && hasFlag(ro, 'f', ['force']) && !lastOn(rest, GIT_CLEAN, 'n', 'dry-run')) return [ask('destructive_ops', 'git clean -f deletes untracked files')];
  if (sub === 'push' && (hasFlag(ro, 'f', ['force', 'force-with-lease', 'mirror', 'delete']) || ro.operands.some((x) => x.startsWith('+') || x.startsWith(':'))))
    return [ask('destructive_ops', 'git push that rewrites or deletes remote history')];
  if (sub === 'reset' && hasLong(ro, 'hard')) return [ask('destructive_ops', 'git reset --hard discards uncommitted work')];
  if (sub === 'filter-branch' || sub === 'filter-repo') return [ask('destructive_ops', `git ${sub} rewrites history`)];
  if (sub === 'worktree' && /^(remove|prune)$/.test(ro.operands[0] ?? '') && hasFlag(ro, 'f', ['force'])) return [ask('destructive_ops', `git worktree ${ro.operands[0]} --force deletes a checkout with its uncommitted work`)];
  return [];
}
