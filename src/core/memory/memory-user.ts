// Whose memory this is, on its own: the file tools ask on every call, while the memory's stores (the
// search index, the routed files) load when the memory is first opened.
import os from 'node:os';

/** Whose memory and per-user context files these are: pincer.user, else the OS user name. */
export function memoryUserId(configured: string | undefined): string {
  return configured || (osUserName ??= readOsUserName());
}

/**
 * Read once per process: the file tools ask for the user on every call, a process's user does not
 * change, and os.userInfo() is a password-database lookup (tens of µs, more on a busy machine).
 */
let osUserName: string | undefined;

function readOsUserName(): string {
  try {
    return os.userInfo().username || 'user';
  } catch {
    return 'user';
  }
}
