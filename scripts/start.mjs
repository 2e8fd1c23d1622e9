#!/usr/bin/env node
// `npm start`: opens a real VS Code (code-server, in the browser) with Pincer loaded on a sample
// workspace, prints the URL and runs until Ctrl-C, then stops every process it started.
//
//   npm start                    # builds dist/ first (package.json), then runs this
//   node scripts/start.mjs [FOLDER]   FOLDER defaults to .pincer-dev/workspace, a copy of
//                                sample-workspace/ made once and kept, so your edits survive
//   PORT=9000 npm start          # default 8080; a busy port falls back to a free one
//   PINCER_EXTENSION_DIR=/abs    # load another extension folder instead of this project
//
// How Pincer is loaded: the project folder is symlinked into a run-local --extensions-dir as
// <publisher>.<name>-<version> (code-server 4.139 scans the folder and registers it, < 1 ms). That
// is a normal user session: unlike the test harness, no enable-smoke-test-driver flag, so
// notification toasts show. A rebuilt dist/ takes effect after "Developer: Reload Window".
// (The packaged route — vsce package + code-server --install-extension — works too, but took
// 12 s to package offline and loads a snapshot instead of the live build.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostMissingError, INSTALL_HINT, locateHost } from '../test/host/lib/host-install.mjs';
import { folderUrl, prepareStateDir, serverEnv, spawnServer, waitHealthy } from '../test/host/lib/code-server.mjs';
import { freePort, killGroup, portIsFree, sweepMarker } from '../test/host/lib/procs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEV = path.join(ROOT, '.pincer-dev');
const MARKER = 'PINCER_DEV_SESSION'; // value: DEV; every process we start carries it
const SESSION_FILE = path.join(DEV, 'session.json'); // { pid, tmp } of the running start.mjs
const fail = (msg) => { console.error(`npm start: ${msg}`); process.exit(1); };

// ------------------------------------------------------------------ install
let host;
try {
  host = locateHost();
} catch (e) {
  if (!(e instanceof HostMissingError)) throw e;
  console.log(`code-server is not installed yet (${e.message.split('\n')[0]}); running ${INSTALL_HINT}`);
  const r = spawnSync('bash', [path.join(ROOT, 'test', 'host', 'install-host.sh')], { stdio: 'inherit' });
  if (r.status !== 0) fail(`${INSTALL_HINT} failed (exit ${r.status})`);
  try { host = locateHost(); } catch (e2) { fail(e2.message); }
}

// ---------------------------------------------------------------- extension
const extDir = path.resolve(process.env.PINCER_EXTENSION_DIR || ROOT);
const pkg = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
const main = path.resolve(extDir, pkg.main || 'extension.js');
if (!fs.existsSync(main) && !fs.existsSync(`${main}.js`)) fail(`${path.relative(ROOT, main)} does not exist: run npm run build (npm start does)`);

// ------------------------------------------------- one session per project
fs.mkdirSync(DEV, { recursive: true });
const previous = readSession();
if (previous.pid && previous.pid !== process.pid && isStartProcess(previous.pid)) {
  fail(`already running (pid ${previous.pid}); stop it with Ctrl-C in its terminal or: kill ${previous.pid}`);
}
// An earlier session that was SIGKILLed leaves code-server behind (it still carries the marker)
// and its temp dir.
const stale = await sweepMarker(MARKER, DEV);
if (stale.length) fail(`could not stop processes of an earlier session: ${stale.join(', ')}`);
if (previous.tmp?.startsWith(path.join(os.tmpdir(), 'pincer-dev-'))) fs.rmSync(previous.tmp, { recursive: true, force: true });

function readSession() {
  try { return JSON.parse(fs.readFileSync(SESSION_FILE, 'utf8')); } catch { return {}; }
}
function isStartProcess(pid) {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start.mjs'); } catch { return false; }
}

// ------------------------------------------------------------ state + folder
const folder = path.resolve(process.argv[2] || path.join(DEV, 'workspace'));
if (!process.argv[2] && !fs.existsSync(folder)) fs.cpSync(path.join(ROOT, 'sample-workspace'), folder, { recursive: true });
if (!fs.existsSync(folder)) fail(`no such folder ${folder}`);
// TMPDIR gets VS Code's unix sockets (paths < 108 chars): keep it short, outside a deep checkout.
const dirs = prepareStateDir(DEV, { tmp: fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-dev-')) });
fs.writeFileSync(SESSION_FILE, JSON.stringify({ pid: process.pid, tmp: dirs.tmp }));

// Seeded once, so settings people change in the session survive restarts.
const userSettings = path.join(dirs.userData, 'User', 'settings.json');
if (!fs.existsSync(userSettings)) {
  const s = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'host', 'settings.json'), 'utf8'));
  fs.writeFileSync(userSettings, JSON.stringify(s, null, 2));
}

// Only the current build is loaded: the extensions dir is rebuilt on every start.
fs.rmSync(dirs.extensions, { recursive: true, force: true });
fs.mkdirSync(dirs.extensions);
fs.symlinkSync(extDir, path.join(dirs.extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`));

// --------------------------------------------------------------------- serve
const wanted = Number(process.env.PORT || 8080);
let port = wanted;
if (!(await portIsFree(wanted))) {
  port = await freePort();
  console.log(`port ${wanted} is busy, using ${port}`);
}
const logFile = path.join(DEV, 'code-server.log');
// A reloaded page's old extension host would otherwise linger for 3 h (5 min once another page connects).
const server = spawnServer(host, dirs, { port, trusted: true, graceSeconds: 60 }, serverEnv(host, dirs, { [MARKER]: DEV }), logFile);

let stopping;
function stop(code) {
  return (stopping ??= (async () => {
    await killGroup(server);
    const left = await sweepMarker(MARKER, DEV);
    if (left.length) console.error(`npm start: WARNING processes still alive: ${left.join(', ')}`);
    fs.rmSync(dirs.tmp, { recursive: true, force: true });
    if (readSession().pid === process.pid) fs.rmSync(SESSION_FILE, { force: true });
    process.exit(code);
  })());
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => { console.log('\nstopping Pincer...'); stop(0); });
server.on('exit', (code, sig) => {
  if (stopping) return;
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  console.error(`npm start: code-server exited (code ${code}, signal ${sig}). Last lines of ${logFile}:\n${tail}`);
  stop(1);
});

try {
  await waitHealthy(port);
} catch (e) {
  console.error(`npm start: ${e.message}; see ${logFile}`);
  await stop(1);
}
console.log(`Pincer is running: ${folderUrl(port, folder)}`);
console.log(`(${pkg.publisher}.${pkg.name} from ${extDir}; workspace ${folder}; log ${path.relative(process.cwd(), logFile)}; Ctrl-C stops it)`);
