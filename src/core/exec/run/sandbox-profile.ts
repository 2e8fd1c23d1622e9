// What a sandboxed command may touch: the bubblewrap arguments of the default profile. The whole file
// system is visible read-only; the workspace folders and the package managers' caches are writable;
// /tmp is private (one folder shared by the commands of a window, never the host's /tmp); credential stores are hidden; the network is either only the filtering proxy
// (through a unix socket bound into the sandbox) or, when the person allows it, the host's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Credential stores, keychains, browser profiles and editor secret storage: hidden when they exist. */
export const DEFAULT_SANDBOX_HIDE: readonly string[] = [
  '~/.ssh', '~/.aws', '~/.azure', '~/.config/gh', '~/.config/hub', '~/.config/gcloud', '~/.docker', '~/.kube',
  '~/.npmrc', '~/.yarnrc', '~/.pypirc', '~/.netrc', '~/.git-credentials', '~/.gnupg', '~/.password-store',
  '~/.pgpass', '~/.my.cnf', '~/.cargo/credentials', '~/.cargo/credentials.toml', '~/.terraform.d',
  '~/.local/share/keyrings', '~/Library/Keychains', '~/.mozilla', '~/.config/google-chrome', '~/.config/chromium',
  '~/.config/BraveSoftware', '~/.config/microsoft-edge', '~/snap/firefox', '~/snap/chromium',
  '~/.config/Code/User/globalStorage', '~/.vscode-server/data/User/globalStorage',
];

/** Package-manager caches: writable so installs work (only existing ones; ~/.npm is made when missing). */
export const DEFAULT_SANDBOX_CACHES: readonly string[] = [
  '~/.npm', '~/.cache/pip', '~/.cache/yarn', '~/.yarn/berry', '~/.cache/pnpm', '~/.local/share/pnpm',
  '~/.cargo/registry', '~/.cargo/git', '~/go/pkg/mod', '~/.cache/go-build', '~/.m2/repository',
  '~/.gradle/caches', '~/.cache/node-gyp', '~/.bun/install/cache',
];

/** Where the proxy's socket appears inside the sandbox, and the port the relay listens on there. */
export const SANDBOX_PROXY_SOCKET = '/tmp/.pincer-proxy.sock';
export const SANDBOX_PROXY_PORT = 3128;

export interface HiddenPath {
  path: string;
  /** A folder is covered by an empty tmpfs; a file by /dev/null (reads as empty). */
  dir: boolean;
}

export interface BubblewrapOptions {
  /** Canonical folders the command may write: the workspace folders and the caches. */
  writable: readonly string[];
  /** `proxy`: only the filtering proxy (the host socket given); `full`: the host's network. */
  network: { kind: 'proxy'; hostSocket: string } | { kind: 'full' } | { kind: 'none' };
  hide?: readonly HiddenPath[];
  /** A host folder that is the sandbox's /tmp (kept between commands); absent, an empty one per command. */
  tmp?: string;
}

/** The environment a sandboxed program gets on top of its own, so HTTP clients use the proxy (at `port` on loopback). */
export function proxyEnvironment(port = SANDBOX_PROXY_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, all_proxy: url,
    // Servers the command starts itself stay reachable without the proxy.
    NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1',
    // Node's own fetch honours the variables only when asked to.
    NODE_USE_ENV_PROXY: '1',
  };
}

/**
 * bwrap's arguments (without the command). Order matters: later mounts cover earlier ones, so the
 * private /tmp comes before the writable binds (a workspace under /tmp stays visible and writable)
 * and the hidden paths come last (a credentials folder stays hidden even inside a writable root).
 */
export function bubblewrapArgs(opts: BubblewrapOptions, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...(opts.tmp ? ['--bind', opts.tmp, '/tmp'] : ['--tmpfs', '/tmp'])];
  for (const w of opts.writable) args.push('--bind', w, w);
  // A working directory under /tmp outside every writable root would vanish under the private /tmp.
  if (isUnder(cwd, '/tmp') && !opts.writable.some((w) => isUnder(cwd, w))) args.push('--ro-bind', cwd, cwd);
  // A file gets /dev/null with device access kept: bwrap's plain binds are nodev, and a nodev
  // /dev/null fails every read with EACCES — which breaks npm on a hidden ~/.npmrc — rather than
  // reading as empty. Writes to it vanish; the real file is untouched either way.
  for (const h of opts.hide ?? []) args.push(...(h.dir ? ['--tmpfs', h.path] : ['--dev-bind', '/dev/null', h.path]));
  args.push('--unshare-all');
  if (opts.network.kind === 'full') args.push('--share-net');
  if (opts.network.kind === 'proxy') {
    args.push('--bind', opts.network.hostSocket, SANDBOX_PROXY_SOCKET);
    for (const [k, v] of Object.entries(proxyEnvironment())) args.push('--setenv', k, v);
  }
  // --new-session: no TIOCSTI keystrokes into the terminal that started us.
  args.push('--die-with-parent', '--new-session', '--chdir', cwd);
  return args;
}

/**
 * The script the sandbox's first shell runs before the command: the process limit, then (with the
 * proxy) the relay from 127.0.0.1:3128 to the proxy's socket, waited for until it listens, then the
 * command's own argv (`"$@"`: bash without rc files around exactly the text that was judged).
 */
export function sandboxSetupScript(opts: { maxProcesses: number; relay?: string }): string {
  const lines = [`ulimit -u ${opts.maxProcesses} || exit 126`];
  if (opts.relay) {
    lines.push(
      `${opts.relay} TCP-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${SANDBOX_PROXY_SOCKET} </dev/null >/dev/null 2>&1 &`,
      // Up to about 3 s for the relay to listen; bash's /dev/tcp needs no other program.
      `i=0; until { exec 3<>/dev/tcp/127.0.0.1/${SANDBOX_PROXY_PORT}; } 2>/dev/null; do i=$((i+1)); [ $i -gt 300 ] && break; sleep 0.01; done; exec 3>&- 3<&-`,
    );
  }
  lines.push('exec "$@"');
  return lines.join('\n');
}

export function isUnder(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function expandTilde(p: string, home = os.homedir()): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

/** The paths of `paths` (with `~/` expanded) that exist, each marked folder or file. */
export function existingHidden(paths: readonly string[], home = os.homedir()): HiddenPath[] {
  const out: HiddenPath[] = [];
  for (const p of paths) {
    try {
      const real = fs.realpathSync.native(expandTilde(p, home));
      out.push({ path: real, dir: fs.statSync(real).isDirectory() });
    } catch {
      /* does not exist: nothing to hide */
    }
  }
  return out;
}

/** The cache folders that exist (canonical), making ~/.npm first: npm fails without its cache. */
export function existingCaches(paths: readonly string[], home = os.homedir()): string[] {
  try {
    if (paths.includes('~/.npm')) fs.mkdirSync(path.join(home, '.npm'), { recursive: true });
  } catch {
    /* a home that cannot be written: npm will say so */
  }
  const out: string[] = [];
  for (const p of paths) {
    try {
      const real = fs.realpathSync.native(expandTilde(p, home));
      if (fs.statSync(real).isDirectory()) out.push(real);
    } catch {
      /* not there: nothing to open */
    }
  }
  return out;
}
