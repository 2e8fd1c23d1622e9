// Rules for commands that talk to the network: uploads and local files sent out (exfiltration),
// raw sockets and listeners (reverse shells), scanners and tunnels (recon), DNS lookups that carry
// data. A plain GET (curl https://…, curl localhost:3000/health) is allowed.
import { hasFlag, hasLong, parseOptions, valuesOf } from './command-options';
import { ask, deny, isLoopbackUrl, isMetadataUrl, looksLikeUrl, type Finding, type SegmentView } from './command-view';

const SOCKET_TOOLS = /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|socat|telnet|cryptcat|pwncat|sbd|dnscat2?|iodine|ptunnel)$/;
const RECON = /^(nmap|masscan|zmap|rustscan|unicornscan|hping3?|arp-scan|netdiscover|nikto|gobuster|ffuf|dirb|sqlmap|amass|subfinder|wpscan|responder|bettercap|tcpdump|tshark|wireshark|ettercap)$/;
const TUNNELS = /^(ngrok|chisel|cloudflared|frpc|frps|bore|lt|localtunnel|sshuttle|autossh|ligolo|ligolo-ng|inlets|serveo|pagekite|tailscale|zrok|gost|iodine)$/;
const REMOTE_COPY = /^(scp|sftp|ftp|tftp|lftp|rsync|rcp|rclone|smbclient|s3cmd)$/;
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
  const o = parseOptions(args, { shortValue: 'irwcsCGWEFTyBfmzZYjaQ', longValue: ['interface', 'read', 'write', 'count', 'snapshot-length'] });
  if (valuesOf(o, ['read'], 'r').length && !valuesOf(o, ['interface'], 'i').length) return [];
  return [ask('network_recon', `${name} captures the traffic on this machine's network interfaces`)];
}

/** ssh: `-G` prints the configuration; a login or a remote command asks; tunnels and proxies are denied. */
function sshRule(name: string, args: string[]): Finding[] {
  if (name === 'ssh' && args.includes('-G')) return [];
  const o = parseOptions(args, { shortValue: 'bcDEeFIiJLlmOopQRSWw', longValue: [] });
  if (name === 'ssh' && (o.short.has('R') || o.short.has('D') || o.short.has('L') || o.short.has('w') || o.short.has('J') || valuesOf(o, [], 'o').some((x) => /^(ProxyCommand|LocalCommand|PermitLocalCommand|RemoteForward|LocalForward|DynamicForward)/i.test(x))))
    return [deny('network_recon', 'ssh opens a tunnel or runs a local command')];
  return [ask('network_recon', `${name} logs in to another machine`)];
}

export function networkRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if (SOCKET_TOOLS.test(name)) f.push(deny('reverse_shell', `${name} opens raw network connections or listeners`));
  // `openssl s_client … < /dev/null` only looks at a server's certificate: nothing is wired to it.
  const probe = args[0] === 's_client' && v.seg.redirects.some((r) => r.op === '<' && r.target.text === '/dev/null');
  if (name === 'openssl' && /^(s_client|s_server)$/.test(args[0] ?? '') && !probe) f.push(deny('reverse_shell', `openssl ${args[0]} opens a raw TLS connection`));
  if (name === 'mkfifo' || (name === 'mknod' && args.includes('p'))) f.push(deny('reverse_shell', 'a named pipe is the usual way to wire a shell to a socket'));
  // Scanning or sniffing only this machine (a dev server's port, the loopback interface) asks.
  const local = onlyThisMachine(args);
  if (SNIFFERS.test(name)) f.push(...snifferRule(name, args));
  else if (RECON.test(name) && !describesItself(args)) f.push(local ? ask('network_recon', `${name} scans or sniffs this machine`) : deny('network_recon', `${name} scans or sniffs the network`));
  if (TUNNELS.test(name)) f.push(deny('network_recon', `${name} opens a tunnel to the outside`));
  if (name === 'ssh' || name === 'mosh' || name === 'rsh' || name === 'rlogin' || name === 'ssh-copy-id') f.push(...sshRule(name, args));
  if (REMOTE_COPY.test(name) && (name !== 'rsync' || args.some((a) => /^[^-/][^/]*:|^rsync:\/\/|^[\w.-]+@/.test(a)))) f.push(deny('data_exfiltration', `${name} copies files to or from another machine`));
  if (/^(dig|nslookup|host|drill|resolvectl|getent)$/.test(name) && v.words.some((w) => w.dynamic)) f.push(deny('data_exfiltration', `${name} with a value computed at run time can carry data out in DNS queries`));
  if (args.some((a) => /^\/dev\/(tcp|udp)\//.test(a)) || v.seg.redirects.some((r) => /^\/dev\/(tcp|udp)\//.test(r.target.text))) f.push(deny('reverse_shell', 'the arguments open a /dev/tcp socket'));
  if (name === 'curl') f.push(...curlRule(args));
  if (name === 'wget' || name === 'wget2') f.push(...wgetRule(args));
  if (/^(http|https|xh|httpie|aria2c|axel)$/.test(name)) f.push(...httpieRule(name, args));
  return f;
}

const CURL_UPLOAD = ['data', 'data-binary', 'data-raw', 'data-ascii', 'data-urlencode', 'form', 'form-string', 'upload-file', 'json', 'post301'];

function curlRule(args: string[]): Finding[] {
  const o = parseOptions(args, {
    shortValue: 'dFTXHoeuAbcKrxUwmEQzyYCtDP',
    longValue: [...CURL_UPLOAD, 'request', 'header', 'output', 'user', 'user-agent', 'cookie', 'cookie-jar', 'config', 'proxy', 'unix-socket',
      'abstract-unix-socket', 'url', 'referer', 'max-time', 'connect-timeout', 'retry', 'dump-header', 'trace', 'trace-ascii', 'stderr', 'write-out', 'resolve', 'connect-to', 'interface', 'cacert', 'cert', 'key', 'range', 'limit-rate'],
  });
  const urls = [...o.operands, ...valuesOf(o, ['url'])];
  const f: Finding[] = [];
  const payloads = valuesOf(o, CURL_UPLOAD, 'dFT');
  const method = (valuesOf(o, ['request'], 'X')[0] ?? '').toUpperCase();
  const remote = urls.some((u) => !isLoopbackUrl(u));
  if (payloads.some((p) => /(^|=)[@<]/.test(p)) || valuesOf(o, ['upload-file'], 'T').length) f.push(deny('data_exfiltration', 'curl uploads a local file'));
  else if ((payloads.length || /^(POST|PUT|PATCH)$/.test(method)) && remote) f.push(deny('data_exfiltration', 'curl sends data to a remote host'));
  if (urls.some((u) => /^(file|dict|gopher|ldap|tftp|telnet|scp|sftp|smb|smtp)s?:/i.test(u))) f.push(deny('data_exfiltration', 'curl with a file:, gopher:, dict: or similar URL reaches local files or raw services'));
  if (urls.some(isMetadataUrl)) f.push(deny('data_exfiltration', 'curl asks the cloud metadata service for credentials'));
  if (valuesOf(o, ['unix-socket', 'abstract-unix-socket']).some((s) => /docker|containerd|podman/.test(s))) f.push(deny('container_escape', 'curl talks to the container runtime socket'));
  if (valuesOf(o, ['config'], 'K').length) f.push(ask('data_exfiltration', 'curl reads its options from a file the policy cannot see'));
  if (valuesOf(o, ['header'], 'H').some((h) => /\$|@/.test(h) && /^@/.test(h))) f.push(deny('data_exfiltration', 'curl reads headers from a local file'));
  return f;
}

function wgetRule(args: string[]): Finding[] {
  const o = parseOptions(args, { shortValue: 'OoaiePUTtwYBel', longValue: ['post-data', 'post-file', 'body-data', 'body-file', 'method', 'output-document', 'input-file', 'header', 'execute', 'use-askpass', 'directory-prefix'] });
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
  if (hasFlag(parseOptions(args), '', ['form', 'multipart']) || /^(POST|PUT|PATCH)$/i.test(args[0] ?? '')) {
    if (args.some((a) => looksLikeUrl(a) && !isLoopbackUrl(a))) return [deny('data_exfiltration', `${name} sends data to a remote host`)];
  }
  return [];
}
