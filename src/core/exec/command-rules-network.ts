// Rules for commands that talk to the network: uploads and local files sent out (exfiltration),
// raw sockets and listeners (reverse shells), scanners and tunnels (recon), DNS lookups that carry
// data. A plain GET (curl https://…, curl localhost:3000/health) is allowed.
import { CURL, CURL_UPLOAD, HTTPIE, SSH, TCPDUMP, WGET } from './command-option-tables';
import { hasFlag, hasLong, parseOptions, valuesOf } from './command-options';
import { isOutsidePath } from './command-rules-system';
import { ask, deny, hostOf, isLoopbackUrl, isMetadataUrl, looksLikeUrl, type Finding, type SegmentView } from './command-view';
import { someStartsWith } from './command-strings';
import { redirectsToDevice } from './command-rules-exhaust';

/** Workspace files that hold secrets by their name: keys, certificates, .env files, credential and token files. */
export const SECRET_FILE = /(^|\/)(\.env([.\w-]*)?|[^/]*\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|ovpn|tfstate)|id_(rsa|dsa|ecdsa|ed25519)|[^/]*(credential|secret|token|passw)[^/]*|\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.htpasswd)$/i;
/** Anonymous drop and request-capture sites: nobody uploads a build artifact there. */
const DROP_HOST = /(^|\.)(transfer\.sh|webhook\.site|requestbin\.\w+|pipedream\.net|beeceptor\.com|hookbin\.com|0x0\.st|file\.io|termbin\.com|paste\.\w+|pastebin\.com|ix\.io|sprunge\.us|bashupload\.com|temp\.sh|oast\.\w+|interact\.sh|burpcollaborator\.net|ngrok\.(io|app)|trycloudflare\.com|anonfiles\.com|gofile\.io|catbox\.moe|litterbox\.catbox\.moe|tmpfiles\.org|filebin\.net|discord(app)?\.com|api\.telegram\.org)$/i;

const SOCKET_TOOLS = /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|socat|telnet|cryptcat|pwncat|sbd|dnscat2?|iodine|ptunnel)$/;
const RECON = /^(nmap|masscan|zmap|rustscan|unicornscan|hping3?|arp-scan|netdiscover|nikto|gobuster|ffuf|dirb|sqlmap|amass|subfinder|wpscan|responder|bettercap|tcpdump|tshark|wireshark|ettercap)$/;
/** Proxies that sit between this machine and the servers it talks to, reading and changing the traffic (TLS included). */
const INTERCEPTORS = /^(mitmproxy|mitmdump|mitmweb|sslsplit|sslstrip|sslsniff|dnschef|burpsuite|polarproxy|evilginx|evilginx2|modlishka|proxychains|proxychains4|redsocks)$/;
const TUNNELS = /^(ngrok|chisel|cloudflared|frpc|frps|bore|lt|localtunnel|sshuttle|autossh|ligolo|ligolo-ng|inlets|serveo|pagekite|tailscale|zrok|gost|iodine)$/;
const REMOTE_COPY = /^(scp|sftp|ftp|tftp|lftp|rsync|rcp|rclone|smbclient|s3cmd)$/;
/** Bash's socket paths (tested on every argument of every argv, so made once here). */
const DEV_SOCKET = /^\/dev\/(tcp|udp)\//;
/** Every target named is this machine (localhost, 127.x, ::1, the loopback interface). */
export function onlyThisMachine(args: readonly string[]): boolean {
  return args.some((a) => /^(localhost|127(\.\d+){3}|::1|lo|lo0)$/.test(a)) && !args.some((a) => /^(\d{1,3}(\.\d{1,3}){3}(\/\d+)?|[\w-]+(\.[\w-]+)+)$/.test(a) && !/^127\./.test(a));
}

/** Packet capture: on this machine's own interfaces, so it asks; reading a saved capture file looks at nothing live. */
export const SNIFFERS = /^(tcpdump|tshark|dumpcap|ngrep|tcpflow|termshark|wireshark)$/;

/**
 * A help, version or listing form of a scanner or attack tool (`amass enum -h`, `gobuster dir --help`,
 * `nikto -H`, `john --list=formats`): it names no target, so it only describes itself.
 */
export function describesItself(args: readonly string[]): boolean {
  // `-h`, `-H`, `-V` also name a host or a hosts file to some tools (`medusa -h target`): only alone, or after one subcommand word.
  const short = (a: string) => /^(-h|-H|-V|-\?)$/.test(a);
  const asked = args.some((a) => /^(--?help|--?version|--?list(=\S*)?|--?list-[\w-]+|--usage|help|version)$/i.test(a))
    || args.some(short) && args.filter((a) => !short(a)).every((a, i, rest) => rest.length === 1 && /^[a-z][\w-]*$/.test(a));
  return asked && !args.some((a) => looksLikeUrl(a) && !/\.(txt|lst|json|ya?ml|pcap|pcapng|conf)$/i.test(a) || /^\d{1,3}(\.\d{1,3}){3}/.test(a) || /\/\d{1,2}$/.test(a));
}

function snifferRule(name: string, args: string[]): Finding[] {
  if (describesItself(args)) return [];
  const o = parseOptions(args, TCPDUMP);
  if (valuesOf(o, ['read'], 'r').length && !valuesOf(o, ['interface'], 'i').length) return [];
  return [ask('network_recon', `${name} captures the traffic on this machine's network interfaces`)];
}

/**
 * ssh: `-G` prints the configuration; a login, a remote command, a local forward (`-L`) or a jump
 * through a bastion (`-J`) asks; a reverse or dynamic tunnel (`-R`, `-D`, `-w`) and options that run
 * a local program are denied.
 */
function sshRule(name: string, args: string[]): Finding[] {
  if (name === 'ssh' && args.includes('-G')) return [];
  const o = parseOptions(args, SSH);
  if (name === 'ssh' && (o.short.has('R') || o.short.has('D') || o.short.has('w') || valuesOf(o, [], 'o').some((x) => /^(ProxyCommand|LocalCommand|PermitLocalCommand|RemoteForward|DynamicForward|KnownHostsCommand)/i.test(x))))
    return [deny('network_recon', 'ssh opens a reverse or dynamic tunnel, or runs a local command')];
  if (name === 'ssh' && (o.short.has('L') || o.short.has('J') || valuesOf(o, [], 'o').some((x) => /^LocalForward/i.test(x)))) return [ask('network_recon', 'ssh forwards a local port or jumps through another host')];
  return [ask('network_recon', `${name} logs in to another machine`)];
}

/** The host part of a socat address or an nc argument, when it names one (`TCP:host:port`, `TCP-LISTEN:80,bind=host`). */
function socketHosts(name: string, args: string[]): string[] {
  if (name !== 'socat') return args.filter((a) => !a.startsWith('-') && !/^\d+(-\d+)?$/.test(a));
  return args.filter((a) => !a.startsWith('-')).map((a) => {
    const bind = /(?:^|,)bind=([^,:]+)/i.exec(a)?.[1];
    if (bind) return bind;
    const m = /^(?:tcp[46]?|udp[46]?|openssl|sctp)(?:-connect)?:([^:,]+):/i.exec(a);
    return m ? m[1] : /^(?:tcp|udp|openssl|sctp)[46]?-listen:/i.test(a) ? '0.0.0.0' : a;
  });
}

/**
 * Raw sockets: a shell wired to a socket (`-e`, `-c`, `EXEC:`, `SYSTEM:`) or any address beyond this
 * machine is a reverse shell waiting to happen; a port probe of this machine (`nc -z localhost 5432`)
 * only checks a dev server is up, and a relay between two loopback addresses asks.
 */
function socketRule(name: string, args: string[]): Finding {
  const runs = args.some((a) => /^-[a-z]*[ec]$|^--(exec|sh-exec|lua-exec)/i.test(a) || /^(exec|system|pty):/i.test(a) || /,(pty|setsid)(,|$)/i.test(a));
  const hosts = socketHosts(name, args);
  const loopback = hosts.length > 0 && hosts.every((h) => /^(localhost|127(\.\d+){3}|::1|\[::1\]|stdio|stdin|stdout|-)$/i.test(h) || /^(stdio|stdin|stdout|-)$/i.test(h));
  if (!/^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|socat)$/.test(name) || runs || !loopback) return deny('reverse_shell', `${name} opens raw network connections or listeners`);
  if (name !== 'socat' && args.some((a) => /^-[a-y]*z/.test(a)) && !args.some((a) => /^-[a-z]*l/.test(a))) return ask('network_recon', `${name} -z probes a port on this machine`);
  return ask('reverse_shell', `${name} relays or listens on this machine only`);
}

/** A tunnel's own status, version or list form reads; a tunnel of a local port to a public address asks; anything else is denied. */
function tunnelRule(name: string, args: string[]): Finding[] {
  const sub = args.find((a) => !a.startsWith('-')) ?? '';
  if (/^(status|version|help|list|ls|info|whois|ip|netcheck|ping|login|logout|config|completion|update|diagnose|api|credits)$/.test(sub) || !args.length) return [];
  const local = /^(ngrok|cloudflared|zrok|lt|localtunnel|bore)$/.test(name) && args.every((a) => !/:\/\//.test(a) || /^[a-z]+:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/i.test(a.replace(/^--url=/, '')));
  return [local ? ask('network_recon', `${name} publishes a port of this machine to the internet`) : deny('network_recon', `${name} opens a tunnel to the outside`)];
}

/** The programs networkRules looks at by name (the dispatch contract at RULES in command-dispatch.ts). */
export function networkConcerns(name: string): boolean {
  return SOCKET_TOOLS.test(name) || SNIFFERS.test(name) || RECON.test(name) || TUNNELS.test(name) || INTERCEPTORS.test(name) || REMOTE_COPY.test(name)
    || /^(openssl|mkfifo|mknod|ssh|mosh|rsh|rlogin|ssh-copy-id|dig|nslookup|host|drill|resolvectl|getent|curl|wget|wget2|http|https|xh|httpie|aria2c|axel)$/.test(name);
}

/** What networkRules' one check without a name needs in any other argv: a device path (a bash socket is one). */
export function networkWhen(v: SegmentView): boolean {
  return someStartsWith(v.args, '/dev/') || redirectsToDevice(v);
}

export function networkRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if (SOCKET_TOOLS.test(name)) f.push(socketRule(name, args));
  // `openssl s_client … < /dev/null` only looks at a server's certificate: nothing is wired to it.
  const probe = args[0] === 's_client' && v.seg.redirects.some((r) => r.op === '<' && r.target.text === '/dev/null');
  if (name === 'openssl' && /^(s_client|s_server)$/.test(args[0] ?? '') && !probe) f.push(deny('reverse_shell', `openssl ${args[0]} opens a raw TLS connection`));
  if (name === 'mkfifo' || (name === 'mknod' && args.includes('p'))) f.push(deny('reverse_shell', 'a named pipe is the usual way to wire a shell to a socket'));
  // Scanning or sniffing only this machine (a dev server's port, the loopback interface) asks.
  if (SNIFFERS.test(name)) f.push(...snifferRule(name, args));
  else if (RECON.test(name) && !describesItself(args)) f.push(onlyThisMachine(args) ? ask('network_recon', `${name} scans or sniffs this machine`) : deny('network_recon', `${name} scans or sniffs the network`));
  if (TUNNELS.test(name)) f.push(...tunnelRule(name, args));
  if (INTERCEPTORS.test(name) && !describesItself(args)) f.push(/^(mitmproxy|mitmdump|mitmweb|proxychains4?)$/.test(name) ? ask('network_recon', `${name} intercepts traffic between this machine and other servers`) : deny('network_recon', `${name} intercepts and rewrites other people's traffic`));
  if (name === 'ssh' || name === 'mosh' || name === 'rsh' || name === 'rlogin' || name === 'ssh-copy-id') f.push(...sshRule(name, args));
  // Copying to a named server is how a build is deployed: it asks. What is copied (a credential, the home folder) is judged by the path rules.
  if (REMOTE_COPY.test(name) && !(/^(rclone|s3cmd)$/.test(name) && /^(ls|lsd|lsl|lsf|lsjson|size|about|listremotes|version|du|info|tree|help)$/.test(args.find((a) => !a.startsWith('-')) ?? 'help')) && (name !== 'rsync' || args.some((a) => /^[^-/][^/]*:|^rsync:\/\/|^[\w.-]+@/.test(a))))
    f.push(ask('data_exfiltration', `${name} copies files to or from another machine`));
  if (/^(dig|nslookup|host|drill|resolvectl|getent)$/.test(name) && v.words.some((w) => w.dynamic)) f.push(deny('data_exfiltration', `${name} with a value computed at run time can carry data out in DNS queries`));
  if (args.some((a) => DEV_SOCKET.test(a)) || v.seg.redirects.some((r) => DEV_SOCKET.test(r.target.text))) f.push(deny('reverse_shell', 'the arguments open a /dev/tcp socket'));
  if (name === 'curl') f.push(...curlRule(args));
  if (name === 'wget' || name === 'wget2') f.push(...wgetRule(args));
  if (/^(http|https|xh|httpie|aria2c|axel)$/.test(name)) f.push(...httpieRule(name, args));
  return f;
}

function curlRule(args: string[]): Finding[] {
  const o = parseOptions(args, CURL);
  const urls = [...o.operands, ...valuesOf(o, ['url'])];
  const f: Finding[] = [];
  const payloads = valuesOf(o, CURL_UPLOAD, 'dFT');
  const method = (valuesOf(o, ['request'], 'X')[0] ?? '').toUpperCase();
  const remote = urls.some((u) => !isLoopbackUrl(u));
  const files = [...payloads.flatMap((p) => /(?:^|=)[@<]([^;]*)/.exec(p)?.[1] ?? []), ...valuesOf(o, ['upload-file'], 'T')];
  // A report or an artifact sent to this machine or to a CI service is everyday work (it asks when
  // the host is another); stdin, a file outside the workspace, a key, an .env or a paste site is not.
  if (files.length && !remote) { /* a dev server on this machine */ }
  else if (files.some((p) => p === '-' || p === '.' || isOutsidePath(p) || SECRET_FILE.test(p)) || urls.some((u) => DROP_HOST.test(hostOf(u) ?? ''))) f.push(deny('data_exfiltration', 'curl uploads a local file (stdin, a secret, something outside the workspace, or to a drop site)'));
  else if (files.length) f.push(ask('data_exfiltration', `curl uploads ${files.join(', ')} to ${hostOf(urls.find((u) => !isLoopbackUrl(u)) ?? '') ?? 'another host'}`));
  else if ((payloads.length || /^(POST|PUT|PATCH)$/.test(method)) && remote) f.push(deny('data_exfiltration', 'curl sends data to a remote host'));
  if (urls.some((u) => /^(file|dict|gopher|ldap|tftp|telnet|scp|sftp|smb|smtp)s?:/i.test(u))) f.push(deny('data_exfiltration', 'curl with a file:, gopher:, dict: or similar URL reaches local files or raw services'));
  if (urls.some(isMetadataUrl)) f.push(deny('data_exfiltration', 'curl asks the cloud metadata service for credentials'));
  if (valuesOf(o, ['unix-socket', 'abstract-unix-socket']).some((s) => /docker|containerd|podman/.test(s))) f.push(deny('container_escape', 'curl talks to the container runtime socket'));
  if (valuesOf(o, ['config'], 'K').length) f.push(ask('data_exfiltration', 'curl reads its options from a file the policy cannot see'));
  if (valuesOf(o, ['header'], 'H').some((h) => /\$|@/.test(h) && /^@/.test(h))) f.push(deny('data_exfiltration', 'curl reads headers from a local file'));
  return f;
}

function wgetRule(args: string[]): Finding[] {
  const o = parseOptions(args, WGET);
  const f: Finding[] = [];
  if (valuesOf(o, ['post-file', 'body-file']).length) f.push(deny('data_exfiltration', 'wget uploads a local file'));
  else if ((valuesOf(o, ['post-data', 'body-data']).length || /^(POST|PUT|PATCH)$/i.test(valuesOf(o, ['method'])[0] ?? '')) && o.operands.some((u) => !isLoopbackUrl(u))) f.push(deny('data_exfiltration', 'wget sends data to a remote host'));
  if (valuesOf(o, ['execute'], 'e').some((x) => /use_askpass|post_file|body_file/.test(x)) || hasLong(o, 'use-askpass')) f.push(deny('filter_bypass', 'wget -e/--use-askpass runs another program'));
  if (valuesOf(o, ['input-file'], 'i').length) f.push(ask('data_exfiltration', 'wget reads its URLs from a file'));
  if (o.operands.some(isMetadataUrl)) f.push(deny('data_exfiltration', 'wget asks the cloud metadata service for credentials'));
  return f;
}

function httpieRule(name: string, args: string[]): Finding[] {
  if (args.some((a) => /^[\w-]+(:=@|=@|@)\/?\S/.test(a) && !looksLikeUrl(a))) return [deny('data_exfiltration', `${name} uploads a local file`)];
  if (hasFlag(parseOptions(args, HTTPIE), '', ['form', 'multipart']) || /^(POST|PUT|PATCH)$/i.test(args[0] ?? '')) {
    if (args.some((a) => looksLikeUrl(a) && !isLoopbackUrl(a))) return [deny('data_exfiltration', `${name} sends data to a remote host`)];
  }
  return [];
}
