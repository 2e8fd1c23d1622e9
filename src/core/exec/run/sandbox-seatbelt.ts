// The default profile on macOS, for Seatbelt (`sandbox-exec -p <profile>`), the same promises as the
// bubblewrap profile (sandbox-profile.ts) in Seatbelt's own terms: everything readable except the
// hidden credential stores and the machine's shared temp folders; writes only in the workspace
// folders, the package caches and the window's own temp folder (TMPDIR points there, since /tmp
// itself cannot be replaced); no network but the filtering proxy on a loopback port. Seatbelt
// applies the last rule that matches, so each narrowing comes after what it narrows.
// Not exercised on macOS in CI (the project's machines are Linux): the profile text is unit-tested.
import { proxyEnvironment, type HiddenPath } from './sandbox-profile';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export interface SeatbeltOptions {
  /** Canonical folders the command may write: the workspace folders and the caches. */
  writable: readonly string[];
  /** The window's private temp folder (writable; TMPDIR inside). */
  tmp: string;
  hide?: readonly HiddenPath[];
  /** `proxy`: only the filtering proxy's loopback port; `full`: the host's network; `none`. */
  network: { kind: 'proxy'; port: number } | { kind: 'full' } | { kind: 'none' };
}

/** A path as a Seatbelt string literal (backslash and quote escaped; control characters refused). */
export function sbplString(p: string): string {
  if (/[\0-\x1f]/.test(p)) throw new Error(`a path with a control character cannot go into a Seatbelt profile: ${JSON.stringify(p)}`);
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Temp folders every program on the Mac shares; the command gets its own instead. */
const SHARED_TEMP = ['/private/tmp', '/private/var/tmp', '/private/var/folders'];
/** Services that hand out keychain items: a credential store read through a service instead of a file. */
const KEYCHAIN_SERVICES = ['com.apple.SecurityServer', 'com.apple.securityd', 'com.apple.securityd.xpc', 'com.apple.security.agent'];

export function seatbeltProfile(o: SeatbeltOptions): string {
  const sub = (p: string) => `(subpath ${sbplString(p)})`;
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info*)',
    '(allow sysctl-read ipc-posix-shm iokit-open pseudo-tty)',
    '(allow mach-lookup)',
    `(deny mach-lookup ${KEYCHAIN_SERVICES.map((n) => `(global-name ${sbplString(n)})`).join(' ')})`,
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-read*)',
    `(deny file-read* ${SHARED_TEMP.map(sub).join(' ')})`,
    // The workspace may itself sit in a shared temp folder.
    `(allow file-read* ${[...o.writable, o.tmp].map(sub).join(' ')})`,
    `(allow file-write* ${[...o.writable, o.tmp].map(sub).join(' ')} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/[0-9]+$"))`,
  ];
  const hidden = o.hide ?? [];
  if (hidden.length) {
    const targets = hidden.map((h) => (h.dir ? sub(h.path) : `(literal ${sbplString(h.path)})`)).join(' ');
    lines.push(`(deny file-read* file-write* ${targets})`);
  }
  if (o.network.kind === 'full') lines.push('(allow network*)');
  if (o.network.kind === 'proxy') lines.push(`(allow network-outbound (remote ip "localhost:${o.network.port}"))`);
  return lines.join('\n') + '\n';
}

/**
 * sandbox-exec's argv around the sandbox's first shell (which sets the process limit, then execs
 * the command), and the variables it adds: TMPDIR, and with the proxy the HTTP(S)_PROXY set.
 */
export function seatbeltCommand(o: SeatbeltOptions, setup: string, inner: readonly string[], shell: string): { argv: string[]; env: Record<string, string> } {
  const env: Record<string, string> = { TMPDIR: o.tmp, ...(o.network.kind === 'proxy' ? proxyEnvironment(o.network.port) : {}) };
  return { argv: [SANDBOX_EXEC, '-p', seatbeltProfile(o), shell, '--norc', '--noprofile', '-c', setup, 'pincer-sandbox', ...inner], env };
}
