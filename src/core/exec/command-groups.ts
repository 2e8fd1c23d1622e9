// The second layer: the spec's 15 deny groups as regular expressions over one segment's argv
// (basename first, words joined by single spaces). Anchored at the command, so a word that only
// mentions `rm -rf` inside an argument (grep -r "rm -rf" .) does not trip them. The per-executable
// rules decide; these catch what a rule missed. Patterns are never shown to the model.
import type { GroupName } from './command-policy';

export const GROUP_PATTERNS: Readonly<Record<GroupName, readonly RegExp[]>> = {
  destructive_ops: [/^rm( -\S+)* -[a-zA-Z]*[rR]/, /^rm( \S+)* --recursive/, /^(mkfs(\.\w+)?|wipefs|shred|fdisk|sfdisk|parted|shutdown|reboot|halt|poweroff) ?/, /^dd .*of=\/dev\/(?!null)/, /^del \/[fsq]/i, /^format [a-z]:/i],
  data_exfiltration: [/^curl .*(-d|--data\S*|-F|--form|-T|--upload-file)[ =]?@/, /^(curl|wget) .*169\.254\.169\.254/, /^(scp|sftp|ftp|tftp|rclone) /, /^wget .*--(post|body)-(file|data)/],
  reverse_shell: [/^(nc|ncat|netcat|socat|telnet|cryptcat)( |$)/, /^openssl s_(client|server)/, /\/dev\/(tcp|udp)\//, /^mkfifo /, /^(python[\d.]*|perl|ruby|php|node) .*(socket|fsockopen|TCPSocket|pty\.spawn)/],
  code_injection: [/^eval( |$)/, /^(base64|openssl|xxd) .*(-d|--decode|-r)\b.*\|\s*(ba|z|da)?sh\b/],
  privilege_escalation: [/^(sudo|su|doas|pkexec|nsenter|unshare|mount|capsh|setcap|chroot)( |$)/, /^chmod ([ugoa]*\+[rwx]*s|[4-7][0-7]{3}) /],
  dangerous_paths: [/^(chmod|chown|chgrp)( -\S+)* \S+ \/(\s|$)/, /^chmod .*\+x \/(tmp|var\/tmp|dev\/shm)\//],
  env_injection: [/^(LD_\w+|DYLD_\w+|BASH_ENV|GIT_EXTERNAL_DIFF|GIT_SSH_COMMAND)=/, /^export (LD_PRELOAD|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|BASH_ENV)=/],
  container_escape: [/(^| )\/(var\/)?run\/docker\.sock\b/, /(^| )\/proc\/sys\//, /^docker (run|create) .*--privileged/],
  crypto_mining: [/^(xmrig|cpuminer|minerd|ethminer|cgminer|bfgminer)( |$)/, /stratum\+(tcp|ssl):\/\//],
  filter_bypass: [/^sort .*--compress-prog/, /^git .*--upload-pack/, /^rg .*--pre[= ]/, /^man .*--html/, /^tar .*--(to-command|checkpoint-action)/],
  network_recon: [/^(nmap|masscan|zmap|chisel|ngrok|cloudflared)( |$)/, /^(ssh|scp) \S*@/],
  package_install: [/^(pip3?|pipx) install \S/, /^npm (install|i|add) [^-\s]/, /^(apk add|apt(-get)? install|yarn add|pnpm add)( |$)/],
  persistence: [/^crontab (?!-l$)/, /^(at|launchctl) /, /^schtasks (?!\/query\b)/i],
  process_control: [/^kill .*-(9|KILL|SIGKILL)\b/, /^(killall|pkill)( |$)/],
  env_dump: [/^(env|printenv)$/, /(^| )\/proc\/(\d+|self)\/environ/],
  remote_destruction: [/^(terraform|tofu|pulumi|cdk|cdktf) destroy/, /^(dropdb|dropuser)( |$)/, /^kubectl (delete|drain)( |$)/, /^helm (uninstall|delete)( |$)/, /^npm unpublish/],
};

/** The first enabled group whose patterns match `line`, or undefined. */
const GROUP_ENTRIES = Object.entries(GROUP_PATTERNS) as [GroupName, readonly RegExp[]][];

/**
 * Every pattern as one alternation per flag set: a line none of them matches (nearly every line)
 * is settled by a couple of scans instead of forty, about ten times faster. A line that matches one
 * goes through the per-group loop, so which group wins is decided exactly as before. Patterns
 * anchored at the start (`^…`) go in their own alternation, which the regex engine tries at the
 * first character only; the few that may match anywhere (`/dev/tcp/`, `/proc/sys/`) scan the line.
 */
const ANY_PATTERN: readonly RegExp[] | undefined = (() => {
  const byKey = new Map<string, { flags: string; sources: string[] }>();
  for (const re of Object.values(GROUP_PATTERNS).flat()) {
    const flags = re.flags.replace(/[gy]/g, ''); // test() must not carry lastIndex between lines
    // `^` starts the source only as an anchor (`\^` would be an escaped caret, `[^…]` a class).
    const key = `${flags}\0${re.source.startsWith('^') && !re.flags.includes('m')}`;
    const entry = byKey.get(key) ?? { flags, sources: [] };
    entry.sources.push(`(?:${re.source})`);
    byKey.set(key, entry);
  }
  try {
    return [...byKey.values()].map(({ flags, sources }) => new RegExp(sources.join('|'), flags));
  } catch {
    return undefined; // patterns that cannot share one expression (duplicate group names): no shortcut
  }
})();

/** `res.some((re) => re.test(line))` as a loop: this runs on nearly every argv of every decision. */
function anyMatches(res: readonly RegExp[], line: string): boolean {
  for (let i = 0; i < res.length; i++) if (res[i].test(line)) return true;
  return false;
}

export function matchGroupPatterns(line: string, enabled: (g: GroupName) => boolean): GroupName | undefined {
  if (ANY_PATTERN && !anyMatches(ANY_PATTERN, line)) return undefined;
  for (const [g, res] of GROUP_ENTRIES) {
    if (enabled(g) && res.some((re) => re.test(line))) return g;
  }
  return undefined;
}
