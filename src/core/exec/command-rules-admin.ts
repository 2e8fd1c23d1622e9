// Administration of the machine itself, on Linux, macOS and Windows: system packages removed, the
// shell history switched off or erased, desktop and system settings written (screen lock,
// quarantine, boot options), Windows registry, boot, event-log, shadow-copy, Defender and service
// changes (PowerShell cmdlets judged by verb and noun), macOS backups, firmware variables and
// accounts, and the account files edited. Reading forms (`reg query`, `Get-MpPreference`,
// `defaults read`, `gsettings get`, `apt list`) change nothing and stay allowed.
import { grantConcerns, grantRules } from './command-rules-grants';
import { ask, deny, type Finding, type SegmentView } from './command-view';

/** Settings whose change weakens the machine's protection: screen lock, quarantine, firewall, updates, remote access. */
const SECURITY_SETTING = /lock|screensaver|quarantine|firewall|gatekeeper|assessment|update|security|privacy|remote|sharing|password|idle-delay|automount|sudo|defender|smartscreen|uac|autologin|guest/i;
/** Registry keys that run something at start-up or log-on, or change how programs start. */
const AUTORUN_KEY = /\\(Run|RunOnce|RunServices|Winlogon|Image File Execution Options|Services|Policies|Shell Folders|Userinit|AppInit_DLLs|Active Setup|Explorer\\Run|Command Processor)(\\|\s|$)/i;
/** Registry hives that hold password hashes and the keys to decrypt them. */
const SECRET_HIVE = /^(HKLM|HKEY_LOCAL_MACHINE)\\+(SAM|SECURITY|SYSTEM)\\*$/i;
/** PowerShell nouns of the machine's protection, logging, services, accounts and start-up. */
const GUARDED_NOUN = /^(mppreference|mpthreat\w*|netfirewall\w*|executionpolicy|service|eventlog|winevent|scheduledtask|scheduledjob|localuser|localgroupmember|localgroup|itemproperty|bitlocker\w*|computerrestorepoint|processmitigation|auditpolicy|smbshare|smbserverconfiguration|wmiobject|ciminstance|netadapter|dnsclientserveraddress|tpm|secureboot\w*|appxpackage|windowsoptionalfeature|windowsfeature|volume|disk|partition|physicaldisk|virtualdisk|storagepool|computerrestore)$/;
/** Verbs that take a protection away or stop something; creating, starting or enabling asks instead. */
const WEAKEN_VERB = /^(set|add|remove|disable|stop|clear|uninstall|unregister|suspend|limit|reset|format|initialize)$/;
const CREATE_VERB = /^(new|register|enable|install|restart|start)$/;
/** A PowerShell cmdlet's name, verb-noun. */
const CMDLET = /^([a-z]+)-([a-z]\w*)$/;
/** The variables that switch the history off (historyRule), and the shell builtins that set, unset or clear it. */
const HISTORY_VAR = /^(HISTFILE|HISTSIZE|HISTFILESIZE|SAVEHIST|HISTIGNORE)$/;
const HISTORY_BUILTINS = /^(export|declare|typeset|set|local|readonly|unset|history)$/;

/** The programs adminRules looks at by name: cmdlets (verb-noun), the shell's history builtins, grantRules' programs. */
export const adminConcerns = (name: string): boolean => CMDLET.test(name) || HISTORY_BUILTINS.test(name) || grantConcerns(name);

/** What its checks without a name (the history switched off by a variable) need in any other argv: such an assignment. */
export const adminWhen = (v: SegmentView): boolean => v.seg.assignments.some((a) => HISTORY_VAR.test(a.name));

export function adminRules(v: SegmentView): Finding[] {
  const f: Finding[] = [...historyRule(v), ...grantRules(v)];
  const { name, args } = v;
  // Lower-cased arguments: only the cmdlet and Windows checks read them, so they are made on first use.
  let lowered: string[] | undefined;
  const lower = (): string[] => (lowered ??= args.map((a) => a.toLowerCase()));
  const ps = CMDLET.exec(name);
  // `Set-ExecutionPolicy RemoteSigned -Scope CurrentUser` is the documented set-up step; Bypass, Unrestricted or the whole machine is not.
  const everyday = ps?.[2] === 'executionpolicy' && !lower().some((a) => /^(bypass|unrestricted|localmachine)$/.test(a));
  if (ps && (WEAKEN_VERB.test(ps[1]) || CREATE_VERB.test(ps[1]))) {
    if (GUARDED_NOUN.test(ps[2]) && WEAKEN_VERB.test(ps[1]) && !everyday) f.push(deny('destructive_ops', `${v.exe} changes the machine's protection, logging, services, accounts or start-up`));
    else if (GUARDED_NOUN.test(ps[2])) f.push(ask('persistence', `${v.exe} changes the machine's services, accounts, policies or start-up`));
    else if (/^(remove|stop|clear|disable|uninstall|unregister)$/.test(ps[1])) f.push(ask('destructive_ops', `${v.exe} removes, stops or clears something`));
  }
  // A guarded cmdlet inside a script block (`… | ForEach-Object { Clear-EventLog $_.Log }`) is run just the same.
  const inner = ps ? args.join(' ').toLowerCase().match(/\b([a-z]+)-([a-z]\w*)\b/g)?.find((c) => { const m = /^([a-z]+)-(\w+)$/.exec(c); return !!m && WEAKEN_VERB.test(m[1]) && GUARDED_NOUN.test(m[2]); }) : undefined;
  if (inner) f.push(deny('destructive_ops', `${v.exe} runs ${inner}, which changes the machine's protection, logging, services, accounts or start-up`));
  if (ps && ps[2] === 'computer' && /^(stop|restart)$/.test(ps[1])) f.push(deny('destructive_ops', `${v.exe} stops or restarts the machine`));
  return f;
}

/**
 * Every program adminProgramRules can object to: the judge runs that part on no other (the
 * dispatch contract at RULES in command-dispatch.ts). A new `case` below needs its name here.
 */
export const ADMIN_PROGRAMS: readonly string[] = [
  'reagentc', 'manage-bde', 'apt', 'apt-get', 'aptitude', 'dnf', 'yum', 'zypper', 'apk', 'brew', 'snap',
  'port', 'choco', 'winget', 'scoop', 'flatpak', 'pkg', 'pacman', 'yay', 'paru', 'dpkg', 'rpm', 'gsettings',
  'dconf', 'defaults', 'xfconf-query', 'kwriteconfig5', 'kwriteconfig6', 'plutil', 'bcdedit', 'reg',
  'reg.exe', 'wevtutil', 'auditpol', 'vssadmin', 'wbadmin', 'wmic', 'sc', 'sc.exe', 'net', 'net.exe',
  'takeown', 'icacls', 'cacls', 'diskpart', 'mpcmdrun', 'cipher', 'tmutil', 'nvram', 'sysadminctl', 'dscl',
  'dseditgroup', 'createhomedir', 'fdesetup', 'systemsetup', 'kextload', 'kextunload', 'kmutil', 'xattr',
  'profiles', 'run-parts', 'vipw', 'vigr', 'pwconv', 'pwunconv', 'grpconv', 'grpunconv', 'chsh', 'chfn',
  'chage', 'service', 'invoke-rc.d', 'rc-service', 'sv', 'update-rc.d',
];

/** Package removal, desktop and system settings, boot, registry, logs, backups and accounts, by program. */
export function adminProgramRules(v: SegmentView): Finding[] {
  const f: Finding[] = [];
  const { name, args } = v;
  const w = v.operands;
  let lowered: string[] | undefined;
  const lower = (): string[] => (lowered ??= args.map((a) => a.toLowerCase()));
  switch (name) {
    case 'reagentc': if (lower().some((a) => /^\/(disable|setreimage|boottore)$/.test(a))) f.push(deny('destructive_ops', 'reagentc switches off or redirects the recovery environment')); break;
    case 'manage-bde': if (lower().some((a) => /^-(off|disable|forcerecovery)$/.test(a)) || lower().includes('-protectors') && lower().includes('-delete')) f.push(deny('destructive_ops', 'manage-bde switches BitLocker off or removes its protectors')); break;
    case 'apt': case 'apt-get': case 'aptitude': case 'dnf': case 'yum': case 'zypper': case 'apk': case 'brew': case 'snap': case 'port': case 'choco': case 'winget': case 'scoop': case 'flatpak': case 'pkg':
      if (/^(remove|purge|autoremove|erase|uninstall|rm|del|delete|autopurge)$/.test(w[0] ?? '')) f.push(ask('destructive_ops', `${name} ${w[0]} removes software from the machine`));
      break;
    case 'pacman': case 'yay': case 'paru': if (args.some((a) => /^-R\w*$|^--remove$/.test(a))) f.push(ask('destructive_ops', `${name} -R removes software from the machine`)); break;
    case 'dpkg': case 'rpm': if (args.some((a) => /^(-[rPe]|--remove|--purge|--erase)$/.test(a))) f.push(ask('destructive_ops', `${name} removes software from the machine`)); break;
    case 'gsettings': case 'dconf': case 'defaults': case 'xfconf-query': case 'kwriteconfig5': case 'kwriteconfig6': case 'plutil': {
      const writes = /^(set|reset|reset-recursively|write|delete|import|load|-s|--set|-r|--reset|-replace|-insert|-remove)$/.test(w[0] ?? '') || args.some((a) => /^(-s|--set|-r|--reset|--write|--key|-replace|-insert|-remove)$/.test(a)) || /^kwriteconfig/.test(name);
      if (writes) f.push(SECURITY_SETTING.test(args.join(' ')) ? deny('destructive_ops', `${name} switches off a protection of the machine (screen lock, quarantine, firewall, updates, sharing)`) : ask('persistence', `${name} changes a desktop or system setting outside the workspace`));
      break;
    }
    case 'bcdedit': if (!lower().every((a) => /^\/(enum|v|\?)$|^(all|active|firmware|bootmgr|\{[\w-]+\})$/.test(a))) f.push(deny('destructive_ops', 'bcdedit changes how the machine boots (recovery, safe mode, signing)')); break;
    // Registry keys keep their backslashes as written (a POSIX shell would take unquoted ones as escapes).
    case 'reg': case 'reg.exe': f.push(...regRule(lower()[0] ?? '', v.words.map((x) => (x.raw.includes('\\') && !/['"$`]/.test(x.raw) ? x.raw : x.text)))); break;
    case 'wevtutil': if (/^(cl|clear-log|sl|set-log|um|uninstall-manifest)$/.test(lower()[0] ?? '')) f.push(deny('destructive_ops', 'wevtutil clears or reconfigures an event log')); break;
    case 'auditpol': if (lower().some((a) => /^\/(clear|remove|set|restore)/.test(a))) f.push(deny('destructive_ops', 'auditpol changes or clears the audit policy')); break;
    case 'vssadmin': case 'wbadmin': if (lower().some((a) => /^(delete|resize)$/.test(a))) f.push(deny('destructive_ops', `${name} deletes backups or shadow copies`)); break;
    case 'wmic': if (lower().some((a) => /^(delete|call)$/.test(a))) f.push(deny('destructive_ops', 'wmic deletes or changes system objects')); break;
    case 'sc': case 'sc.exe': if (/^(stop|delete|config|create|failure|sdset|pause)$/.test(lower()[0] ?? '')) f.push(deny('destructive_ops', `sc ${lower()[0]} changes or stops a Windows service`)); break;
    case 'net': case 'net.exe': if (lower().some((a) => /^\/(add|delete|del|active:yes)$/.test(a)) || /^(stop|pause)$/.test(lower()[0] ?? '')) f.push(deny('persistence', 'net changes accounts, groups, shares or services')); break;
    case 'takeown': case 'icacls': case 'cacls': if (name === 'takeown' || lower().some((a) => /^\/(grant|setowner|reset|remove|deny)/.test(a))) f.push(ask('dangerous_paths', `${name} changes who owns or may use files`)); break;
    case 'diskpart': if (!args.every((a) => /^\/\?$/.test(a)) || !args.length) f.push(ask('destructive_ops', 'diskpart changes disks and partitions (its script is not read)')); break;
    case 'mpcmdrun': if (lower().some((a) => /^-(removedefinitions|disableservice|restore|addexclusion|removeexclusion)$/.test(a))) f.push(deny('destructive_ops', 'MpCmdRun removes Defender\'s definitions or exclusions')); break;
    case 'cipher': if (lower().some((a) => /^\/w/.test(a))) f.push(deny('destructive_ops', 'cipher /w wipes free space')); break;
    case 'tmutil': if (/^(disable|delete|deletelocalsnapshots|thinlocalsnapshots|removeexclusion|addexclusion|disablelocal|setdestination|removedestination)$/.test(w[0] ?? '')) f.push(deny('destructive_ops', `tmutil ${w[0]} switches off or deletes backups`)); break;
    case 'nvram': if (args.some((a) => /=|^-[cd]$/.test(a))) f.push(deny('destructive_ops', 'nvram changes firmware variables')); break;
    case 'sysadminctl': case 'dscl': case 'dseditgroup': case 'createhomedir':
      if (args.some((a) => /^-(addUser|deleteUser|resetPasswordFor|create|delete|append|merge|passwd|change|o)$/i.test(a) || /^(edit|create|delete)$/.test(a))) f.push(deny('persistence', `${name} creates, changes or deletes an account`));
      break;
    case 'fdesetup': if (/^(disable|remove|changerecovery|removerecovery)$/.test(w[0] ?? '')) f.push(deny('destructive_ops', 'fdesetup switches disk encryption off')); break;
    case 'systemsetup': if (args.some((a) => /^-set/i.test(a))) f.push(ask('destructive_ops', 'systemsetup changes system settings')); break;
    case 'kextload': case 'kextunload': case 'kmutil': f.push(deny('privilege_escalation', `${name} loads or unloads kernel extensions`)); break;
    case 'xattr': if (args.some((a) => /^-[a-z]*[dc]/.test(a)) && args.some((a) => /quarantine/.test(a)) || args.includes('-c') && args.some((a) => /^\/(Applications|Library|System|usr)\b/.test(a))) f.push(ask('destructive_ops', 'xattr removes the quarantine mark that makes the system check a download')); break;
    case 'profiles': if (/^(remove|-R|install|-I)$/.test(args[0] ?? '')) f.push(ask('destructive_ops', 'profiles installs or removes a configuration profile')); break;
    case 'run-parts': if (!args.some((a) => /^(--test|--list|--help|--version)$/.test(a))) f.push(ask('code_injection', 'run-parts runs every program in a folder, none of which the judge reads')); break;
    case 'vipw': case 'vigr': case 'pwconv': case 'pwunconv': case 'grpconv': case 'grpunconv': f.push(deny('privilege_escalation', `${name} edits the system's account or password files`)); break;
    case 'chsh': case 'chfn': case 'chage': if (args.length) f.push(ask('privilege_escalation', `${name} changes an account's shell, details or password ageing`)); break;
    case 'service': case 'invoke-rc.d': case 'rc-service': case 'sv': case 'update-rc.d':
      if (w.some((a) => a.includes('/'))) f.push(deny('privilege_escalation', `${name} is given a path, so it runs that program as a service script (with root's rights under sudo)`));
      break;
  }
  return f;
}

/**
 * The shell history switched off or erased: what was run can no longer be looked at afterwards.
 * `export HISTSIZE=10000` and `history | tail` keep it.
 */
function historyRule(v: SegmentView): Finding[] {
  const { name, args } = v;
  // Every check below needs an assignment or one of these programs (most argvs have neither).
  if (!v.seg.assignments.length && !HISTORY_BUILTINS.test(name)) return [];
  const off = (val: string) => /^(0|\/dev\/null|ignorespace:ignoredups\*?|\*|ignoreboth:\*|)$/.test(val) || val === '*';
  const pairs = [...v.seg.assignments.map((a) => [a.name, a.value.text] as const),
    ...(/^(export|declare|typeset|set|local|readonly)$/.test(name) ? args.filter((a) => a.includes('=')).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const) : [])];
  if (pairs.some(([n, val]) => /^(HISTFILE|HISTSIZE|HISTFILESIZE|SAVEHIST)$/.test(n) && off(val) || n === 'HISTIGNORE' && /^\*$|^\*:/.test(val)))
    return [deny('destructive_ops', 'the shell history is switched off, so what runs next leaves no trace')];
  // Unset, HISTFILE (bash) or SAVEHIST (zsh) means nothing is saved; HISTSIZE or HISTCONTROL unset keep more, not less.
  if (name === 'unset' && args.some((a) => /^(HISTFILE|SAVEHIST)$/.test(a))) return [deny('destructive_ops', 'unset switches the shell history off')];
  if (name === 'set' && args.includes('+o') && args.includes('history')) return [deny('destructive_ops', 'set +o history switches the shell history off')];
  if (name === 'history' && args.some((a) => /^-[a-z]*[cd]/.test(a))) return [ask('destructive_ops', 'history -c/-d erases the shell history')];
  return [];
}

function regRule(verb: string, args: string[]): Finding[] {
  const key = args[1] ?? '';
  if (/^(save|export)$/.test(verb)) return SECRET_HIVE.test(key) ? [deny('data_exfiltration', `reg ${verb} copies the hive that holds password hashes`)] : [ask('data_exfiltration', `reg ${verb} copies part of the registry into a file`)];
  if (/^(add|delete|import|load|unload|restore|copy)$/.test(verb)) {
    return AUTORUN_KEY.test(args.join(' ')) ? [deny('persistence', `reg ${verb} changes what runs at start-up or log-on, or a service or policy`)] : [ask('destructive_ops', `reg ${verb} changes the registry`)];
  }
  return [];
}
