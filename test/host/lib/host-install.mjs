// Finds the code-server + Node 24 + Chromium install that test/host/install-host.sh produces, and
// says exactly what to run when something is missing (the most common first-run failure).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const INSTALL_HINT = 'bash test/host/install-host.sh';

export class HostMissingError extends Error {}

/** Default install dir, the same one install-host.sh uses. */
export function defaultHostDir() {
  return process.env.VSCODE_HOST_DIR || path.join(os.homedir(), '.cache', 'vscode-host');
}

/**
 * @param {{ csDir?: string, chromium?: string }} [o]
 * @returns {{ csDir: string, csEntry: string, nodeBin: string, nodeBinDir: string, chromium: string }}
 */
export function locateHost(o = {}) {
  const csDir = o.csDir ?? defaultHostDir();
  const csEntry = path.join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  // code-server 4.13x refuses Node 20; install-host.sh puts Node 24 (npm package "node@24") here.
  const nodeBin = path.join(csDir, 'node_modules', '.bin', 'node');
  const chromium = o.chromium ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const missing = [];
  if (!fs.existsSync(csEntry)) missing.push(`code-server (${csEntry})`);
  if (!fs.existsSync(nodeBin)) missing.push(`node 24 (${nodeBin})`);
  if (!fs.existsSync(chromium)) missing.push(`chromium (${chromium})`);
  // install-host.sh marks a finished install; without the marker the postinstall may have failed
  // half-way and code-server would die later with a less helpful error.
  const complete = fs.existsSync(csDir) && fs.readdirSync(csDir).some((f) => f.startsWith('.complete-'));
  if (!missing.length && !complete) missing.push(`a finished install (no ${path.join(csDir, '.complete-*')} marker)`);
  if (missing.length) {
    const cmd = csDir === defaultHostDir() ? INSTALL_HINT : `VSCODE_HOST_DIR=${csDir} ${INSTALL_HINT}`;
    throw new HostMissingError(`missing ${missing.join(', ')}.\n  Install it with:  ${cmd}  (about 3 minutes, 740 MB)`);
  }
  return { csDir, csEntry, nodeBin, nodeBinDir: path.dirname(fs.realpathSync(nodeBin)), chromium };
}
