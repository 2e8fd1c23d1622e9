// Programs that ship with Windows and macOS and can be made to do an attacker's work ("living off
// the land"), judged by capability: fetching and running code (certutil, bitsadmin, mshta,
// regsvr32, rundll32, msiexec, PowerShell download cradles), running code through a signed system
// program (installutil, msbuild on a project from outside, cscript with another engine), dumping
// credentials (esentutl of the directory database, vaultcmd, comsvcs MiniDump), and switching
// protection off (Defender, the firewall, SIP, Gatekeeper, disks erased). Their everyday forms —
// `certutil -hashfile`, `bitsadmin /list`, `netsh interface show`, `diskutil list`, `powershell
// Get-ChildItem` — are not objected to. What `cmd /c`, `powershell -c` and `forfiles /c` run is
// unwrapped into commands of its own (command-wrappers-windows.ts) and judged like any other.
import { ask, deny, type Finding, type SegmentView } from './command-view';
import { decodePowerShell, powerShellText } from './command-wrappers-windows';

/** A location on another machine: a URL or a UNC share (`\\host\share`, `//host/share`). */
export function isRemoteLocation(a: string): boolean {
  return /(^|[:=])(https?|ftps?):\/\//i.test(a) || /(^|[:=])\\\\[^\\]/.test(a) || /^\/\/[\w.-]+\/./.test(a);
}

/** Folders any user can write, where a payload is dropped before it is run. */
export function isStagingPlace(a: string): boolean {
  return /(^|[:=])(?:[a-z]:)?[\\/]+(temp|tmp|windows[\\/]temp|users[\\/]public|programdata|perflogs)([\\/]|$)|%(temp|tmp|appdata|localappdata|public|programdata)%|[\\/]appdata[\\/]|\$env:(temp|tmp|appdata|public)/i.test(a)
    || /^\/(tmp|var\/tmp|dev\/shm)\//.test(a);
}

/** Signed system programs that load and run code they are pointed at (a DLL, a script, a project, an INF). */
const PROXY_EXEC = /^(installutil|regasm|regsvcs|msxsl|odbcconf|cmstp|ieexec|presentationhost|pcalua|mavinject|syncappvpublishingserver|infdefaultinstall|xwizard|msdt|csi|rcsi|dnscmd|microsoft\.workflow\.compiler|aspnet_compiler|scriptrunner|appvlp|atbroker|wlrmdr|verclsid|register-cimprovider|diskshadow|tttracer)$/;
const NAMES = new Set(['certutil', 'bitsadmin', 'mshta', 'rundll32', 'regsvr32', 'cscript', 'wscript', 'msiexec', 'msbuild', 'esentutl', 'ntdsutil', 'vaultcmd', 'cmdkey', 'netsh', 'fsutil', 'diskutil', 'csrutil', 'spctl', 'powershell', 'pwsh', 'powershell_ise', 'iex', 'invoke-expression', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod', 'start-bitstransfer', 'remove-item', 'ri', 'rd', 'del', 'erase', 'rmdir', 'procdump', 'comsvcs', 'sqlite3', 'get-childitem', 'gci', 'get-item', 'gi', 'dir', 'ls']);

/** Names this rule objects to (the dispatch contract in command-dispatch.ts). */
export function windowsConcerns(name: string): boolean {
  return NAMES.has(name) || PROXY_EXEC.test(name);
}

/** `%USERPROFILE%`, `C:\`, `C:\Users`, `C:\Windows`, `$env:USERPROFILE`, `~`: removing these recursively is never a developer's intent. */
function isWindowsCatastrophic(t: string): boolean {
  const s = t.replace(/[\\/]+/g, '/').replace(/\/\*?$/, '').toLowerCase();
  return /^[a-z]:$/.test(s) || /^[a-z]:\/(users|windows|program files( \(x86\))?|programdata)(\/\*)?$/.test(s) || /^[a-z]:\/users\/[^/]+(\/\*)?$/.test(s) || /^[a-z]:\/users\/\*\//.test(s)
    || /^(%(userprofile|homepath|systemroot|windir|systemdrive|programfiles|appdata|localappdata)%|\$env:(userprofile|homepath|systemroot|windir|systemdrive|appdata|localappdata)|\$home|~)(\/|$)/.test(s);
}

export function windowsRules(v: SegmentView): Finding[] {
  const { name } = v;
  // An unquoted Windows path keeps its backslashes in the source (`C:\Temp\x`); a POSIX shell would drop them.
  const args = v.words.map((w) => (w.raw.includes('\\') && !/['"$`]/.test(w.raw) ? w.raw : w.text));
  const lower = args.map((a) => a.toLowerCase());
  const has = (re: RegExp) => lower.some((a) => re.test(a));
  const remote = args.some(isRemoteLocation);
  const staged = args.some(isStagingPlace);
  if (PROXY_EXEC.test(name)) {
    return [remote || staged ? deny('code_injection', `${name} loads and runs code from another machine or a shared folder (a signed system program used to run a payload)`)
      : ask('code_injection', `${name} loads and runs the code it is given (a signed system program that runs what it is pointed at)`)];
  }
  switch (name) {
    case 'certutil':
      if (has(/^[-/](urlcache|verifyctl|f)$/) && remote || has(/^[-/](urlcache|verifyctl)$/)) return [deny('code_injection', 'certutil downloads a file (a common way to fetch a payload)')];
      if (has(/^[-/](decode|decodehex)$/)) return [staged || has(/\.(exe|dll|ps1|bat|cmd|vbs|js|hta|scr|msi)$/) ? deny('code_injection', 'certutil decodes a blob into a program') : ask('code_injection', 'certutil decodes a blob into a file')];
      return [];
    case 'bitsadmin':
      return has(/^\/(transfer|addfile|download|setnotifycmdline|create|resume|complete|upload)$/) ? [deny('code_injection', 'bitsadmin transfers files or sets a command to run when a job ends')] : [];
    case 'mshta':
      return args.length && !has(/^\/\?$/) ? [deny('code_injection', 'mshta runs an HTML application or script (code from a page, a URL or a scheme)')] : [];
    case 'rundll32':
      if (has(/javascript:|vbscript:|mshtml|runhtmlapplication|url\.dll|zipfldr|advpack|setupapi|shell32\.dll,\s*shellexec_rundll|pcwutl|shdocvw|ieframe|dfshim/) || remote || staged) return [deny('code_injection', 'rundll32 runs a script, a URL or a library from outside through a system library')];
      if (has(/comsvcs|minidump/)) return [deny('data_exfiltration', 'rundll32 comsvcs MiniDump dumps a process memory (credentials)')];
      return [ask('code_injection', 'rundll32 runs a function of the library it is given')];
    case 'regsvr32':
      return [remote || staged || has(/scrobj/) ? deny('code_injection', 'regsvr32 runs a script from a URL or a scriptlet (a common way to run a payload)') : ask('code_injection', 'regsvr32 registers a library, which runs its code')];
    case 'cscript': case 'wscript':
      if (has(/^\/\/e:/) || remote || staged) return [deny('code_injection', `${name} runs a script from another machine or a shared folder, or under another engine`)];
      return args.some((a) => !/^\/\//.test(a)) ? [ask('code_injection', `${name} runs a script the judge does not read`)] : [];
    case 'msiexec':
      if (remote && has(/^\/(i|package|a|j\w*|fa|update)$/) || has(/^\/[yz]$/)) return [deny('code_injection', 'msiexec installs a package from another machine, or registers a library')];
      if (has(/^\/(i|package|a|fa|update|j\w*)$/)) return [ask('package_install', 'msiexec installs a package (its custom actions run)')];
      if (has(/^\/(x|uninstall)$/)) return [ask('destructive_ops', 'msiexec removes software from the machine')];
      return [];
    case 'msbuild': {
      const project = args.find((a) => !/^[-/]/.test(a) || /^[a-z]:[\\/]/i.test(a) || /^\\\\/.test(a));
      return project && (remote || staged || /^[a-z]:[\\/]|^\\\\|^\/(?!.*\/\.\.)/i.test(project) && isStagingPlace(project)) ? [deny('code_injection', 'msbuild builds a project file from outside the workspace (its inline tasks run code)')] : [];
    }
    case 'esentutl': case 'ntdsutil':
      return has(/ntds|\\sam$|\\system$|\\security$|\/vss|ifm|snapshot/) ? [deny('data_exfiltration', `${name} copies the account database or a shadow copy of it (password hashes)`)] : name === 'ntdsutil' ? [ask('data_exfiltration', 'ntdsutil works on the directory database')] : [];
    case 'vaultcmd': return has(/^\/(listcreds|listproperties)/) ? [deny('data_exfiltration', 'vaultcmd lists the credentials Windows keeps')] : [];
    case 'cmdkey': return has(/^\/(list|add|generic|delete)/) ? [ask('data_exfiltration', 'cmdkey lists or changes the credentials Windows keeps')] : [];
    case 'procdump': return has(/lsass/) ? [deny('data_exfiltration', 'procdump dumps the memory of the process that holds the logged-in credentials')] : [];
    case 'netsh': {
      const line = lower.join(' ');
      if (/advfirewall|firewall/.test(line) && /(state\s+off|opmode\s+disable|reset|add\s+rule|set\s+rule|delete\s+rule)/.test(line)) return [deny('destructive_ops', 'netsh switches the firewall off or changes its rules')];
      if (/portproxy\s+(add|set)|add\s+helper|trace\s+start/.test(line)) return [deny('persistence', 'netsh forwards ports, loads a helper library or starts a capture')];
      if (/key\s*=\s*clear/.test(line)) return [deny('data_exfiltration', 'netsh shows saved Wi-Fi passwords')];
      return /^(set|add|delete|reset)$/.test(lower[1] ?? '') || /^(set|add|delete|reset)$/.test(lower[0] ?? '') ? [ask('destructive_ops', 'netsh changes the network configuration')] : [];
    }
    case 'fsutil':
      if (has(/^deletejournal$/)) return [deny('destructive_ops', 'fsutil deletes the change journal (the record of what changed on the disk)')];
      return has(/^(setzerodata|seteof|setshortname|setvaliddata)$/) ? [ask('destructive_ops', 'fsutil overwrites file data or metadata')] : [];
    case 'diskutil':
      return lower.some((a) => /^(erasedisk|erasevolume|zerodisk|randomdisk|secureerase|reformat|partitiondisk|deletevolume|deletecontainer|splitpartition|mergepartitions|resizevolume|unmountdisk)$/.test(a)) ? [deny('destructive_ops', 'diskutil erases or repartitions a disk')] : [];
    case 'csrutil': return /^(disable|clear|authenticated-root)$/.test(lower[0] ?? '') ? [deny('destructive_ops', 'csrutil switches System Integrity Protection off')] : [];
    case 'spctl': return has(/^--(master-disable|global-disable|disable|add|remove)$|^developer-mode$/) ? [deny('destructive_ops', 'spctl switches Gatekeeper off or exempts a program from it')] : [];
    case 'iwr': case 'irm': case 'invoke-webrequest': case 'invoke-restmethod': case 'start-bitstransfer':
      return v.pipedTo && /^(iex|invoke-expression|powershell|pwsh)$/.test(v.pipedTo.name) ? [deny('code_injection', `${name} downloads a script that is run as it arrives`)] : [];
    // Elixir's shell is also `iex` (`iex -S mix`): PowerShell's alias is the end of a pipe, or is given an expression.
    case 'iex': case 'invoke-expression': return name !== 'iex' || v.seg.joinedBy === '|' || args.some((a) => /[\s($]/.test(a)) ? [ask('code_injection', `${name} runs text as PowerShell code`)] : [];
    case 'remove-item': case 'ri': case 'rd': case 'del': case 'erase': case 'rmdir': {
      const recursive = has(/^(-r|-recurse|\/s)$/) || name === 'rd' && has(/^\/q$/);
      const targets = args.filter((a) => !/^-/.test(a) && !/^\/[a-z?]$/i.test(a));
      if (targets.some(isWindowsCatastrophic)) return [deny('destructive_ops', `${name} deletes a drive, the user's folder or a system folder`)];
      return recursive && name !== 'rmdir' ? [ask('destructive_ops', `${name} removes whole folders`)] : [];
    }
    case 'powershell': case 'pwsh': case 'powershell_ise': return powerShellRule(name, args);
    // PowerShell's `env:` drive is the whole environment (`Get-ChildItem env:`); one variable (`env:PATH`) is not.
    case 'get-childitem': case 'gci': case 'get-item': case 'gi': case 'dir': case 'ls':
      return args.some((a) => /^env:[\\/]?\*?$/i.test(a)) ? [deny('env_dump', `${name} env: lists every environment variable`)] : [];
    case 'sqlite3':
      // The Messages, Mail, Safari and TCC databases hold a person's messages and privacy grants.
      return has(/library\/(messages|mail|safari|application support\/com\.apple\.tcc|cookies)\//) ? [deny('data_exfiltration', 'sqlite3 reads a macOS database of messages, mail, browsing or privacy grants')] : [];
  }
  return [];
}

const DOWNLOAD = /(downloadstring|downloadfile|downloaddata|net\.webclient|invoke-webrequest|\biwr\b|invoke-restmethod|\birm\b|start-bitstransfer|\bwget\b|\bcurl\b|webrequest|httpclient|xmlhttp)/i;
const RUNS = /(\biex\b|invoke-expression|invoke-command|\bicm\b|start-process|\bsaps\b|\[scriptblock\]::create|add-type|reflection\.assembly|::load\b|&\s*\(|\|\s*&)/i;
const EVASION = /(amsiutils|amsiinitfailed|amsicontext|set-mppreference|add-mppreference|disablerealtimemonitoring|exclusionpath|exclusionprocess|clear-eventlog|remove-eventlog|wevtutil|etweventwrite|set-processmitigation|bypass\.ps1)/i;
const CREDS = /(mimikatz|sekurlsa|lsadump|\blsass\b|minidump|get-gpppassword|invoke-kerberoast|dpapi|\\sam\b|ntds\.dit|convertfrom-securestring|get-storedcredential|credentialmanager)/i;

/** A PowerShell command line: its code (after -Command, as its operands, or encoded) and how it was started. */
function powerShellRule(name: string, args: string[]): Finding[] {
  const encoded = args.findIndex((a) => /^[-/](e|ec|en|enc|enco|encodedcommand)$/i.test(a));
  const text = encoded >= 0 ? decodePowerShell(args[encoded + 1] ?? '') : powerShellText(args);
  const hidden = args.some((a, i) => /^[-/](w|win|window|windowstyle)$/i.test(a) && /^hidden$/i.test(args[i + 1] ?? ''));
  if (text !== undefined) {
    if (DOWNLOAD.test(text) && RUNS.test(text)) return [deny('code_injection', `${name} downloads code and runs it (a download cradle)`)];
    if (EVASION.test(text)) return [deny('destructive_ops', `${name} switches off the machine's malware protection or its event logs`)];
    if (CREDS.test(text)) return [deny('data_exfiltration', `${name} dumps or decrypts stored credentials`)];
    if (hidden && (DOWNLOAD.test(text) || RUNS.test(text))) return [deny('code_injection', `${name} runs code in a hidden window`)];
  }
  if (encoded >= 0) return [ask('code_injection', `${name} -EncodedCommand hides the command it runs${text === undefined ? ' (it does not decode)' : ''}`)];
  if (hidden) return [ask('code_injection', `${name} runs in a hidden window`)];
  if (args.some((a, i) => /^[-/](ep|ex|exec|executionpolicy)$/i.test(a) && /^(bypass|unrestricted)$/i.test(args[i + 1] ?? ''))) return [ask('code_injection', `${name} runs with the script execution policy bypassed`)];
  return [];
}
