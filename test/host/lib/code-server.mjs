// Starting code-server (VS Code server + web workbench) on loopback, shared by the test harness and
// `npm start`. Everything it would write under $HOME or /tmp is redirected into `stateDir`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './procs.mjs';

/**
 * Directory layout inside stateDir. Unix socket paths must stay < 108 chars, so stateDir should be
 * short (VS Code puts vscode-ipc-*.sock handles into TMPDIR).
 */
export function stateDirs(stateDir) {
  return {
    userData: path.join(stateDir, 'user-data'),
    extensions: path.join(stateDir, 'extensions'),
    xdgData: path.join(stateDir, 'xdg-data'),
    xdgCache: path.join(stateDir, 'xdg-cache'),
    tmp: path.join(stateDir, 'tmp'),
    config: path.join(stateDir, 'config.yaml'),
  };
}

/** Creates the layout; `tmp` overrides where TMPDIR points (keep that path short). */
export function prepareStateDir(stateDir, { tmp } = {}) {
  const d = { ...stateDirs(stateDir), ...(tmp ? { tmp } : {}) };
  for (const dir of [path.join(d.userData, 'User'), d.extensions, d.xdgData, d.xdgCache, d.tmp]) fs.mkdirSync(dir, { recursive: true });
  // Without --config, code-server writes ~/.config/code-server/config.yaml (with a password).
  if (!fs.existsSync(d.config)) fs.writeFileSync(d.config, 'auth: none\n');
  return d;
}

/** Environment for code-server: Node 24 first on PATH, $HOME writes and /tmp litter redirected. */
export function serverEnv(host, dirs, extra = {}) {
  return {
    ...process.env,
    PATH: `${host.nodeBinDir}:${process.env.PATH}`,
    XDG_DATA_HOME: dirs.xdgData, // heartbeat + coder-logs, else ~/.local/share/code-server
    XDG_CACHE_HOME: dirs.xdgCache, // @vscode/deviceid, else ~/.cache/Microsoft
    TMPDIR: dirs.tmp, // vscode-ipc-<uuid>.sock per process, else left behind in /tmp
    ...extra,
  };
}

/**
 * @param {object} o
 * @param {number} o.port
 * @param {boolean} o.trusted        false = workspace trust on, the folder opens in Restricted Mode
 * @param {boolean} o.smokeDriver    true only for tests: makes the workbench honour ?payload=, but hides toasts
 * @param {number} [o.graceSeconds]  how long a closed page's extension host lives on
 * @param {number} [o.idleSeconds]   exit when no client was connected this long (safety net when our parent is SIGKILLed)
 */
export function serverArgs(host, dirs, o) {
  const args = [
    host.csEntry,
    '--bind-addr', `127.0.0.1:${o.port}`,
    '--auth', 'none',
    '--config', dirs.config,
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--disable-telemetry', '--disable-update-check',
    '--disable-getting-started-override', '--disable-proxy',
  ];
  if (o.trusted) args.push('--disable-workspace-trust');
  if (o.graceSeconds) args.push('--reconnection-grace-time', String(o.graceSeconds));
  if (o.idleSeconds) args.push('--idle-timeout-seconds', String(o.idleSeconds));
  // Side effect of this flag: notification toasts are not rendered (read the notification center).
  if (o.smokeDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  return args;
}

/** Spawns code-server detached (it leads its own process group, so killGroup() reaches all of it). */
export function spawnServer(host, dirs, o, env, logFile) {
  const fd = fs.openSync(logFile, o.appendLog ? 'a' : 'w');
  const child = spawn(host.nodeBin, serverArgs(host, dirs, o), { detached: true, stdio: ['ignore', fd, fd], env });
  fs.closeSync(fd);
  return child;
}

export async function waitHealthy(port, timeoutMs = 60000) {
  await waitFor(async () => {
    try { return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok; } catch { return false; }
  }, timeoutMs, `code-server /healthz on port ${port}`, 100);
}

/** Packaged route: installs a .vsix into the extensions dir (offline, < 1 s). Returns installed ids. */
export function installVsix(host, dirs, vsix, env) {
  const r = spawnSync(host.nodeBin, [host.csEntry, '--config', dirs.config, '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions, '--install-extension', vsix], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`installing ${vsix} failed:\n${r.stdout}${r.stderr}`);
  const list = JSON.parse(fs.readFileSync(path.join(dirs.extensions, 'extensions.json'), 'utf8'));
  return list.map((e) => e.identifier.id);
}

/** `vscode-remote://remote/abs/path`: code-server's remote authority is literally "remote". */
export function remoteUri(p) {
  return `vscode-remote://remote${p.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * Workbench URL; the folder path stays readable (slashes unescaped), which code-server accepts. A
 * `.code-workspace` file opens as a workspace (its folders may be virtual: any URI scheme).
 */
export function folderUrl(port, folder, payload) {
  const kind = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  const base = `http://127.0.0.1:${port}/?${kind}=${folder.split('/').map(encodeURIComponent).join('/')}`;
  return payload ? `${base}&payload=${encodeURIComponent(JSON.stringify(payload))}` : base;
}
