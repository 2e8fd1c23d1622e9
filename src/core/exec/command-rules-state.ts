// System state changed (firewalls flushed or disabled, SELinux off, services stopped, the machine
// suspended or isolated), attacks on other hosts (password guessers, web and port scanners), and
// package managers or the editor re-pointed at another source. Status, list and version forms of the
// same programs only read, and stay allowed.
import { EDITOR, IPTABLES, NPX } from './command-option-tables';
import { hasLongSurely, parseOptions, valuesOf } from './command-options';
import { describesItself, onlyThisMachine, SNIFFERS } from './command-rules-network';
import { ask, deny, looksLikeUrl, type Finding, type SegmentView, before } from './command-view';
import { startsWith } from './command-strings';


/** Programs whose only use is attacking another host: guessing passwords, fuzzing or scanning web servers and networks. */
const ATTACK_TOOLS = new Set([
  'hydra', 'xhydra', 'medusa', 'ncrack', 'patator', 'crowbar', 'brutespray', 'thc-hydra', 'crackmapexec', 'cme', 'netexec', 'nxc', 'evil-winrm', 'kerbrute',
  'nikto', 'sqlmap', 'gobuster', 'ffuf', 'wfuzz', 'feroxbuster', 'dirb', 'dirbuster', 'dirsearch', 'wpscan', 'joomscan', 'droopescan', 'nuclei', 'whatweb', 'wafw00f',
  'masscan', 'zmap', 'rustscan', 'unicornscan', 'naabu', 'sx', 'nmap', 'hping', 'hping3', 'arp-scan', 'netdiscover', 'fping', 'zgrab', 'zgrab2',
  'amass', 'subfinder', 'assetfinder', 'findomain', 'dnsrecon', 'dnsenum', 'fierce', 'theharvester', 'recon-ng', 'sublist3r', 'shuffledns', 'massdns', 'dnsx', 'katana', 'gau', 'waybackurls', 'hakrawler',
  'enum4linux', 'enum4linux-ng', 'smbmap', 'rpcclient', 'nbtscan', 'onesixtyone', 'snmpwalk', 'snmp-check', 'ike-scan', 'sslscan', 'sslyze', 'testssl', 'testssl.sh',
  'msfconsole', 'msfvenom', 'msfdb', 'armitage', 'beef-xss', 'setoolkit', 'commix', 'xsstrike', 'dalfox', 'arjun', 'jaeles', 'zap-cli', 'skipfish', 'w3af', 'wapiti', 'arachni',
  'responder', 'bettercap', 'ettercap', 'arpspoof', 'dsniff', 'mitm6', 'macchanger', 'aircrack-ng', 'aireplay-ng', 'airodump-ng', 'reaver', 'wifite', 'bully', 'kismet', 'mdk3', 'mdk4',
  'tcpdump', 'tshark', 'dumpcap', 'ngrep', 'john', 'hashcat', 'ophcrack', 'hashid', 'crunch', 'cewl', 'slowloris', 'hulk', 'goldeneye', 'siege', 't50', 'thc-ssl-dos',
  'impacket-secretsdump', 'secretsdump.py', 'psexec.py', 'wmiexec.py', 'smbexec.py', 'impacket-psexec', 'impacket-wmiexec', 'impacket-smbexec', 'getuserspns.py', 'impacket-getuserspns', 'bloodhound-python', 'mimikatz', 'lazagne', 'pypykatz',
]);
/** Arguments that only ask a program about itself. */
const INFO_ARGS = /^(--?version|-V|--?help|-\?|version|help|--list-interfaces|-D|--usage|-h)$/;

/** `tcpdump -D`, `amass -version`, `ssh -V`, `nmap --help`: the program describes itself and does nothing else. */
export function isInfoForm(v: SegmentView): boolean {
  // Every word an option and one of them asks for help or the version: `nuclei -update-templates -h`.
  if (v.args.length > 1 && v.args.every((a) => startsWith(a, '-')) && v.args.some((a) => /^(--?(help|version)|-h)$/i.test(a)) && !/^(shutdown|halt|reboot|poweroff)$/.test(v.name)) return true;
  if (v.args.length !== 1 || !(INFO_ARGS.test(v.args[0]) || /^--?(version|help)$/i.test(v.args[0]))) return false;
  const a = v.args[0];
  // -h means "halt" to shutdown, -D "debug"/"daemon" to most programs: only where they describe the program.
  if (a === '-h') return !/^(shutdown|halt|reboot|poweroff|sort|du|df|ls|free|last)$/.test(v.name);
  if (a === '-D') return v.name === 'tcpdump' || v.name === 'tshark' || v.name === 'dumpcap';
  return true;
}

/**
 * Every program stateRules (and repointRules under it) can object to: the judge runs it on no other
 * (the dispatch contract at RULES in command-dispatch.ts). A new `case` below needs its name here.
 */
const STATE_PROGRAMS = new Set([
  'iptables', 'ip6tables', 'iptables-legacy', 'ip6tables-legacy', 'iptables-nft', 'ebtables', 'arptables',
  'iptables-restore', 'ip6tables-restore', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'netsh', 'socketfilterfw',
  'setenforce', 'aa-disable', 'aa-complain', 'aa-teardown', 'apparmor_parser', 'auditctl', 'spctl',
  'csrutil', 'systemctl', 'service', 'rc-service', 'sv', 'initctl', 'loginctl', 'chkconfig', 'update-rc.d',
  'rc-update', 'swapoff', 'ifdown', 'rfkill', 'pm-suspend', 'pm-hibernate', 'systemd-sleep', 'ip',
  'ifconfig', 'nmcli', 'route', 'timedatectl', 'hostnamectl', 'localectl', 'pmset', 'npm', 'pnpm', 'yarn',
  'bun', 'cnpm', 'pip', 'pip3', 'pipx', 'conda', 'mamba', 'poetry', 'composer', 'gem', 'uv', 'pdm', 'cargo',
  'nuget', 'dotnet', 'npx', 'pnpx', 'bunx', 'code', 'code-insiders', 'codium', 'cursor', 'windsurf',
  'vscodium', 'code-server',
]);

export function stateConcerns(name: string): boolean {
  return STATE_PROGRAMS.has(name) || ATTACK_TOOLS.has(name) || /^impacket-/.test(name);
}

export function stateRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if ((ATTACK_TOOLS.has(name) || /^impacket-/.test(name)) && !SNIFFERS.test(name) && !describesItself(args)) f.push(onlyThisMachine(args) ? ask('network_recon', `${name} scans or sniffs this machine`) : deny('network_recon', `${name} attacks, scans or sniffs other hosts`));
  switch (name) {
    case 'iptables': case 'ip6tables': case 'iptables-legacy': case 'ip6tables-legacy': case 'iptables-nft': case 'ebtables': case 'arptables': {
      const o = parseOptions(args, IPTABLES);
      if (o.short.has('L') || o.short.has('S') || hasLongSurely(o, 'list') || hasLongSurely(o, 'list-rules') || hasLongSurely(o, 'check') || o.short.has('C')) break;
      f.push(deny('destructive_ops', `${name} changes the firewall rules`));
      break;
    }
    case 'iptables-restore': case 'ip6tables-restore': case 'nft': {
      const w = args.filter((a) => !a.startsWith('-'));
      if (name === 'nft' && (w[0] === 'list' || args.every((a) => /^-(c|-check|a|-handle|n|-numeric|s|-stateless|j|-json)$/.test(a) || a === 'list') || args.includes('-c') || args.includes('--check'))) break;
      f.push(deny('destructive_ops', `${name} replaces or flushes firewall rules`));
      break;
    }
    // netsh does far more than the firewall: command-rules-windows.ts judges it by what it changes.
    case 'ufw': case 'firewall-cmd': case 'pfctl': case 'socketfilterfw': {
      if (args.every((a) => /^(status|verbose|numbered|--state|--list-.*|--get-.*|--query-.*|-s.*|--info-.*|show|app|list|info)$/.test(a) || /^-sr?$/.test(a))) break;
      f.push(deny('destructive_ops', `${name} changes or disables the firewall`));
      break;
    }
    case 'setenforce': if (!args.length || !/^(1|enforcing)$/i.test(args[0])) f.push(deny('destructive_ops', 'setenforce switches SELinux enforcement off')); break;
    case 'aa-disable': case 'aa-complain': case 'aa-teardown': f.push(deny('destructive_ops', `${name} switches AppArmor protection off`)); break;
    case 'apparmor_parser': if (args.some((a) => /^-(R|-remove)$/.test(a))) f.push(deny('destructive_ops', 'apparmor_parser -R removes an AppArmor profile')); break;
    case 'auditctl': if (args.some((a) => a === '-D' || a === '-e' || a === '--reset-lost')) f.push(deny('destructive_ops', 'auditctl deletes audit rules or disables auditing')); break;
    case 'spctl': if (args.some((a) => /--master-disable|--global-disable|--disable/.test(a))) f.push(deny('destructive_ops', 'spctl switches Gatekeeper off')); break;
    case 'csrutil': if (args.some((a) => /^(disable|clear)$/.test(a))) f.push(deny('destructive_ops', 'csrutil disables System Integrity Protection')); break;
    case 'systemctl': case 'service': case 'rc-service': case 'sv': case 'initctl': case 'loginctl': case 'chkconfig': case 'update-rc.d': case 'rc-update':
      f.push(...serviceRule(name, args)); break;
    case 'swapoff': case 'ifdown': case 'rfkill': case 'pm-suspend': case 'pm-hibernate': case 'systemd-sleep': f.push(deny('destructive_ops', `${name} changes the machine's state`)); break;
    case 'ip': case 'ifconfig': case 'nmcli': case 'route': if (args.some((a) => /^(down|off|flush|del|delete)$/.test(a))) f.push(deny('destructive_ops', `${name} takes a network interface or route down`)); break;
    case 'timedatectl': case 'hostnamectl': case 'localectl': if (args.some((a) => /^set-/.test(a))) f.push(deny('destructive_ops', `${name} changes system settings`)); break;
    case 'pmset': if (args.some((a) => /^(sleepnow|displaysleepnow|restoredefaults|disablesleep)$/.test(a))) f.push(deny('destructive_ops', 'pmset suspends the machine or changes its power settings')); break;
  }
  f.push(...repointRules(v));
  return f;
}

const STATE_VERBS = /^(stop|disable|mask|kill|isolate|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|rescue|emergency|default|halt|poweroff|reboot|kexec|soft-reboot|switch-root|set-default|terminate-session|terminate-user|kill-session|kill-user|down|off|del|remove|restart|reload|try-restart|reload-or-restart|daemon-reexec|revert|freeze|set-property|link|edit|preset|preset-all|enable|daemon-reload)$/;

function serviceRule(name: string, args: string[]): Finding[] {
  const w = args.filter((a) => !a.startsWith('-'));
  const verb = name === 'service' || name === 'rc-service' || name === 'sv' ? w.find((x, i) => i > 0 || name === 'sv') : name === 'chkconfig' ? w[1] : name === 'update-rc.d' ? w[1] : name === 'rc-update' ? w[0] : w[0];
  if (!verb || !STATE_VERBS.test(verb)) return [];
  if (name === 'systemctl' && args.includes('--user') && /^(restart|reload|try-restart|reload-or-restart|stop|start)$/.test(verb)) return [ask('destructive_ops', `systemctl --user ${verb} changes a running user service`)];
  if (/^(restart|reload|try-restart|reload-or-restart)$/.test(verb)) return [ask('destructive_ops', `${name} ${verb} interrupts a running service`)];
  return [deny('destructive_ops', `${name} ${verb} stops, disables or switches the system's services or state`)];
}

/** The public registries themselves. */
const OFFICIAL_REGISTRY = /^https:\/\/(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmjs\.com|pypi\.org\/simple|repo\.packagist\.org|rubygems\.org|index\.crates\.io|proxy\.golang\.org|api\.nuget\.org\/v3\/index\.json)\/?$/;

/** The channels of conda's public package host that conda and the big communities document: names, not URLs. */
const PUBLIC_CONDA_CHANNEL = /^(conda-forge|defaults|bioconda|pytorch|nvidia|main|r|msys2)$/;

/** Every setting the conda config command changes is `channels`, and every channel it adds is a public one. */
function publicChannelsOnly(args: string[]): boolean {
  return args.every((a, i) => !/^--(add|append|prepend|set|remove)$/.test(before(args, i) ?? '') || a === 'channels') &&
    args.every((a, i) => before(args, i) !== 'channels' || PUBLIC_CONDA_CHANNEL.test(a));
}

/** Settings that say where packages come from or what runs their scripts. */
const SOURCE_KEYS = /^(registry|@[\w.-]+:registry|script-shell|shell|node-options|git|ignore-scripts|strict-ssl|ca|cafile|proxy|https-proxy|http-proxy|noproxy|globalconfig|userconfig|prefix|init-module|onload-script|unsafe-perm|npmRegistryServer|unsafeHttpWhitelist|enableStrictSsl|yarnPath|global\.index-url|global\.extra-index-url|global\.trusted-host|install\.index-url|install\.extra-index-url|index-url|extra-index-url|trusted-host|global\.cert|channels|channel_alias|default_channels|custom_channels|repositories\..*|sources|source|secure-http|disable-tls|ssl_verify|verify_ssl|sslverify|repo-url|url\..*)$/i;

/** npm/pnpm/yarn/pip/conda/poetry/composer/gem config pointed at another source, the editor given an extension from a file or URL, npx of a URL. */
const PACKAGE_FLAG = /^(-p|--package)$/;

function repointRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const w = v.operands;
  if (/^(npm|pnpm|yarn|bun|cnpm|pip|pip3|pipx|conda|mamba|poetry|composer|gem|uv|pdm|cargo|nuget|dotnet)$/.test(name)) {
    const setting = w[0] === 'config' && /^(set|add|--add)$/.test(w[1] ?? '') ? w[2] : w[0] === 'set' && name !== 'pip' ? w[1] : w[0] === 'config' && name === 'conda' ? args[args.findIndex((a) => /^--(add|append|prepend|set)$/.test(a)) + 1] : w[0] === 'config' && name === 'poetry' ? w[1] : w[0] === 'config' && name === 'composer' ? w[1] : undefined;
    const key = (setting ?? '').split('=')[0].replace(/^--/, '');
    // Set back to the public registry itself (`npm config set registry https://registry.npmjs.org/`): nothing re-pointed.
    const urls = w.filter((a) => /:\/\//.test(a)).map((a) => a.replace(/^[^=]*=/, ''));
    if (urls.length && urls.every((u) => OFFICIAL_REGISTRY.test(u)) && /registry|index-url|^repo/i.test(key)) return [];
    // conda's own public channels (`conda config --add channels conda-forge`, as conda-forge's and
    // Bioconda's install guides say): packages come from where everyone's come from, nothing re-pointed.
    if (/^(conda|mamba)$/.test(name) && key === 'channels' && publicChannelsOnly(args)) return [];
    // Persistence: every later install or script run takes the new source or shell.
    if (setting && SOURCE_KEYS.test(key)) return [deny('persistence', `${name} config ${key} changes where packages come from or what runs their scripts`)];
    // Any config verb handed a URL points some setting at another server.
    if (/^(config|set)$/.test(w[0] ?? '') && w.some((a) => /^(https?|git\+\w+|git|ssh|svn):\/\//i.test(a)) && !args.some((a) => /^(--get|--list|-l)$/.test(a))) return [deny('persistence', `${name} config points a setting at another server (${w.find((a) => /:\/\//.test(a))})`)];
    if (name === 'gem' && w[0] === 'sources' && args.some((a) => /^(-a|--add)$/.test(a))) return [deny('persistence', 'gem sources --add adds a package source')];
    if (name === 'conda' && w[0] === 'config' && args.some((a) => /^--(add|append|prepend|set)$/.test(a)) && args.some((a) => /^(channels|channel_alias|default_channels|custom_channels)$/.test(a))) return [deny('persistence', 'conda config adds a package channel')];
  }
  // The package is the first operand (or `--package=`); a URL later on is the package's own argument (`npx playwright screenshot http://localhost:3000`).
  const runner = name === 'npx' || name === 'pnpx' || name === 'bunx' ? 0 : name === 'pnpm' && w[0] === 'dlx' || name === 'yarn' && w[0] === 'dlx' || name === 'npm' && /^(exec|x)$/.test(w[0] ?? '') ? 1 : -1;
  // A loop rather than flatMap with a closure and two regex literals per argument: this runs on every npx argv.
  const pkgs: string[] = [];
  if (runner >= 0) {
    if (w[runner] !== undefined) pkgs.push(w[runner]);
    for (let i = 0; i < args.length; i++) {
      if (PACKAGE_FLAG.test(before(args, i) ?? '')) pkgs.push(args[i]);
      else if (startsWith(args[i], '--package=')) pkgs.push(args[i].slice(10));
    }
    // npm takes any beginning of `--package` (`--pack=URL`): the table resolves it.
    if (args.some((a) => startsWith(a, '--'))) pkgs.push(...valuesOf(parseOptions(runner ? args.slice(args.indexOf(w[0]) + 1) : args, NPX), ['package'], 'p'));
  }
  if (pkgs.some((a) => looksLikeUrl(a) && /^(https?|git\+\w+|git|ssh|file):/i.test(a) || /^(github|gitlab|bitbucket|gist):/i.test(a) || /\.(tgz|tar\.gz)$/.test(a)))
    return [deny('code_injection', `${name} runs a package straight from a URL, a repository or a file`)];
  if (/^(code|code-insiders|codium|cursor|windsurf|vscodium|code-server)$/.test(name)) {
    const o = parseOptions(args, EDITOR);
    const exts = valuesOf(o, ['install-extension']);
    if (exts.some((e) => /[/\\]|\.vsix$/i.test(e) || /^[a-z][\w+.-]*:\/\//i.test(e))) return [deny('persistence', `${name} --install-extension installs an editor extension from a file or URL`)];
    if (exts.length) return [deny('package_install', `${name} --install-extension installs an editor extension from the marketplace (it runs with your rights)`)];
    if (valuesOf(o, ['extensions-dir']).length) return [ask('package_install', `${name} --extensions-dir loads extensions from another folder`)];
  }
  return [];
}
