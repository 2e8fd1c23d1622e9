#!/usr/bin/env node
// run-host-tests.mjs — runs Pincer inside a REAL VS Code extension host, offline: code-server
// (VS Code 1.139 server + web workbench, from test/host/install-host.sh) and a headless Debian
// Chromium driven by playwright-core. It stands in for @vscode/test-electron, which downloads VS Code.
//
//  1. code-server on 127.0.0.1:<free port>, --auth none, throw-away user data / extensions / config,
//     and `--vscode-option enable-smoke-test-driver`: only with that flag does the built web
//     workbench honour the `payload` URL parameter (extensionDevelopmentPath, extensionTestsPath,
//     extensionEnvironment). The server-side `--vscode-option extensionDevelopmentPath=` is ignored.
//  2. e2e phase: each test/host/e2e/*.e2e.mjs on a fresh page, once the extension host is up (and,
//     for an extension activated at start-up, once it activated; Pincer activates on demand).
//  3. in-host phase: a page whose payload carries extensionTestsPath = inhost/mocha-runner.cjs;
//     VS Code awaits its run() and calls window.codeAutomationExit(code) in the page.
//  4. always: browser closed, code-server's process group killed, then a sweep kills by PID whatever
//     still carries this run's marker (PINCER_HOST_RUN) in its environment.
// `node test/host/run-host-tests.mjs --help` lists the options.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { HOST_DIR, ROOT, USAGE, parseArgs, preflight } from './lib/options.mjs';
import { HostMissingError, locateHost } from './lib/host-install.mjs';
import { prepareStateDir, serverEnv, spawnServer, waitHealthy } from './lib/code-server.mjs';
import { freePort, killGroup, pssKb, sleep, sweepMarker } from './lib/procs.mjs';
import { runE2eScript, runInHost } from './lib/phases.mjs';

const require = createRequire(import.meta.url);
const MARKER = 'PINCER_HOST_RUN';
const T0 = Date.now();
const stamp = () => `[${((Date.now() - T0) / 1000).toFixed(1).padStart(6)}s]`;
const log = (...a) => console.log(stamp(), ...a);

const tally = { passed: 0, failed: 0, exitCode: 0, e2e: [], inhost: undefined, errors: [] };
/** A problem that is not a test's own failure still shows as one failure in the summary line. */
function harnessProblem(msg, exitCode) {
  tally.errors.push(msg);
  tally.failed += 1;
  tally.exitCode = Math.max(tally.exitCode, exitCode);
  console.error(`run-host-tests: ${msg}`);
}
const summaryLine = () => `host: ${tally.passed} passed, ${tally.failed} failed`;

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  harnessProblem(`${e.message} (see --help)`, 2);
  console.log(summaryLine());
  process.exit(2);
}
if (opts.help) { console.log(USAGE); process.exit(0); }

let host;
let pre;
try {
  host = locateHost({ csDir: opts.csDir, chromium: opts.chromium });
  pre = preflight(opts);
} catch (e) {
  harnessProblem(e instanceof HostMissingError ? e.message : String(e?.stack || e), 2);
  console.log(summaryLine());
  process.exit(2);
}
for (const p of pre.problems) harnessProblem(p, 2);
if (pre.noTests) harnessProblem(pre.noTests, 1);
if (tally.exitCode) { console.log(summaryLine()); process.exit(tally.exitCode); }

// ------------------------------------------------------------------ run dir
// Stale artifacts of an earlier run would be mistaken for this run's (CI keeps the directory). The
// default directory is ours alone and is emptied; a chosen --out loses only what we write there.
fs.mkdirSync(opts.out, { recursive: true });
const ownOut = opts.out === path.join(ROOT, 'test-output', 'host');
for (const f of fs.readdirSync(opts.out)) {
  if (ownOut || /\.(png|log)$|^(results|inhost-results|timings)\.json|^workbench-logs$/.test(f)) fs.rmSync(path.join(opts.out, f), { recursive: true, force: true });
}
// Short path: VS Code's unix sockets go into TMPDIR below and must stay < 108 chars.
const RUN = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-host-'));
const RUN_ID = path.basename(RUN);
process.env[MARKER] = RUN_ID; // inherited by code-server, its children and Chromium
const dirs = prepareStateDir(RUN);
// Test-only extensions (test/host/fixtures/*: a scripted language model …) are installed into the
// profile's extensions folder: code-server loads only the last extensionDevelopmentPath.
for (const dir of fixtureDirs()) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  fs.cpSync(dir, path.join(dirs.extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`), { recursive: true });
}
// Playwright's Chromium profile and artifacts go here too, and vanish with the run dir.
process.env.TMPDIR = dirs.tmp;
// A .code-workspace file keeps its name (the workbench opens it as a workspace, not a folder).
const WS = path.join(RUN, opts.workspace.endsWith('.code-workspace') ? path.basename(opts.workspace) : 'workspace');
fs.cpSync(opts.workspace, WS, { recursive: true }); // a copy: tests may write into it
const REQ = path.join(RUN, 'requests');
fs.mkdirSync(REQ);
const settings = JSON.parse(fs.readFileSync(path.join(HOST_DIR, 'settings.json'), 'utf8'));
if (!opts.trusted) {
  // --trust-workspace off. Verified with code-server 4.139.1 and an extension that declares no
  // capabilities.untrustedWorkspaces: the folder opens in Restricted Mode (banner + status bar item,
  // vscode.workspace.isTrusted === false; tests see HOST_TRUST_WORKSPACE=off). The extension under
  // development is loaded anyway: it activates on onStartupFinished, its commands and webviews
  // work. So this mode tests what the extension does with isTrusted, not whether VS Code would
  // disable an installed copy. Terminals need trust: in the e2e phase createTerminal() raises a
  // modal "Do you trust the authors of the files in this folder?"; in the in-host phase (dialogs
  // suppressed by the smoke-test driver) the terminal never gets a process (processId unresolved
  // after 8 s), so in-host tests must not await a terminal there.
  Object.assign(settings, {
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'always',
  });
}
if (opts.settings) Object.assign(settings, JSON.parse(fs.readFileSync(opts.settings, 'utf8')));
fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));

const INHOST_RESULTS = path.join(opts.out, 'inhost-results.json');
const TESTLOG = path.join(opts.out, 'test-output.log');
const timings = {};
let server;
let browser;
let peakPssKb = 0;
const samplePss = () => { peakPssKb = Math.max(peakPssKb, pssKb(MARKER, RUN_ID)); };

// ------------------------------------------------------------------ cleanup
// Memoized: `timeout(1)` signals the harness AND its process group, so a second signal must wait
// for the same cleanup instead of exiting half-way.
let cleanupPromise;
let cleaningUp = false;
const cleanup = () => (cleanupPromise ??= doCleanup());
async function doCleanup() {
  cleaningUp = true;
  if (browser) await Promise.race([browser.close().catch(() => {}), sleep(10000)]);
  await killGroup(server);
  const still = await sweepMarker(MARKER, RUN_ID, (pids) => opts.verbose && log(`sweeping leftover pids ${pids.join(',')}`));
  if (still.length) console.error(`run-host-tests: WARNING processes still alive: ${still.join(',')}`);
  if (!opts.keepRunDir) fs.rmSync(RUN, { recursive: true, force: true });
  else log(`run dir kept: ${RUN}`);
}

// Set by a signal or the overall deadline: the phases still running then fail only because the
// browser is closing under them, which is noise, not a finding.
let stopping = false;
let finishing;
function finish() {
  stopping = true;
  return (finishing ??= (async () => {
    timings.totalMs = Date.now() - T0;
    timings.peakPssMiB = Math.round(peakPssKb / 1024);
    const results = { passed: tally.passed, failed: tally.failed, exitCode: tally.exitCode, errors: tally.errors, e2e: tally.e2e, inhost: tally.inhost, timings };
    try {
      fs.writeFileSync(path.join(opts.out, 'results.json'), JSON.stringify(results, null, 2));
      fs.writeFileSync(path.join(opts.out, 'timings.json'), JSON.stringify(timings, null, 2));
    } catch (e) { console.error(`run-host-tests: writing results failed: ${e.message}`); }
    await cleanup();
    log(`artifacts in ${path.relative(process.cwd(), opts.out) || '.'}; timings ${JSON.stringify(timings)}`);
    console.log(summaryLine());
    process.exit(tally.exitCode);
  })());
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { if (!finishing) { log(`got ${sig}, cleaning up`); harnessProblem(`interrupted by ${sig}`, 2); } finish(); });
}

// ------------------------------------------------------------------ phases
function countInHost(r) {
  const { results, exitCode, timedOut } = r;
  tally.inhost = { exitCode, timedOut, ...(results ?? {}) };
  if (results) {
    tally.passed += results.passes;
    tally.failed += results.failures;
    for (const t of results.results.filter((x) => x.state === 'failed')) {
      log(`  FAILED ${t.title}\n    ${String(t.error).split('\n').slice(0, 4).join('\n    ')}`);
    }
    if (results.failures) tally.exitCode = Math.max(tally.exitCode, 1);
  }
  if (timedOut) return harnessProblem('in-host tests timed out (the extension host never reported its exit)', 2);
  if (!results) return harnessProblem(`in-host run ended (exit code ${exitCode}) before mocha wrote results: see test-output.log and browser-console-inhost.log`, 1);
  if (exitCode !== 0 && !results.failures) return harnessProblem(`in-host run exited with code ${exitCode} although mocha reported no failure`, 1);
  if (results.passes + results.failures === 0) {
    return harnessProblem(`zero in-host tests ran${opts.grep ? ` (--grep ${opts.grep} matched none)` : ''}: a run without tests is not a pass`, 1);
  }
  log(`in-host: ${results.passes} passed, ${results.failures} failed`);
}

async function main() {
  const { chromium } = require('playwright-core');
  const sampler = setInterval(samplePss, 1000);
  const deadlineAt = T0 + opts.timeout * 1000;
  const deadline = setTimeout(() => { harnessProblem(`overall timeout of ${opts.timeout}s`, 2); finish(); }, opts.timeout * 1000);

  const port = await freePort();
  const tStart = Date.now();
  server = spawnServer(host, dirs, { port, trusted: opts.trusted, smokeDriver: true, graceSeconds: 15, idleSeconds: Number(process.env.HOST_IDLE_TIMEOUT || 120) },
    serverEnv(host, dirs), path.join(opts.out, 'code-server.log'));
  server.on('exit', (code, sig) => { if (!cleaningUp) log(`code-server exited unexpectedly (code ${code}, signal ${sig}): see code-server.log`); });
  log(`code-server pid ${server.pid} on http://127.0.0.1:${port}/ (run dir ${RUN})`);
  const timeLeft = () => Math.max(1000, deadlineAt - Date.now());
  await waitHealthy(port, timeLeft());
  timings.serverReadyMs = Date.now() - tStart;

  const tb = Date.now();
  browser = await chromium.launch({
    executablePath: host.chromium,
    headless: true,
    // Playwright's own handlers would process.exit() before our cleanup ran.
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  timings.browserLaunchMs = Date.now() - tb;
  log(`code-server ready after ${timings.serverReadyMs} ms, chromium after ${timings.browserLaunchMs} ms`);

  const hostEnv = {
    ...opts.env,
    HOST_HARNESS_REQUESTS: REQ,
    HOST_HARNESS_CLIENT: path.join(HOST_DIR, 'inhost', 'harness-client.cjs'),
    HOST_TEST_RESULTS: INHOST_RESULTS,
    HOST_TEST_LOG: TESTLOG,
    HOST_TEST_ARTIFACTS: opts.out,
    HOST_EXTENSION_PATH: opts.extension,
    HOST_TRUST_WORKSPACE: opts.trusted ? 'on' : 'off',
    HOST_MOCHA_SPEC: opts.mocha.join(','),
    ...(opts.grep ? { HOST_MOCHA_GREP: opts.grep } : {}),
  };
  const ctx = {
    opts, browser, port, deadlineAt, userDataDir: dirs.userData, workspace: WS, extId: pre.extId, activatesAtStartup: pre.activatesAtStartup, devPath: opts.extension,
    hostEnv, reqDir: REQ, inhostResults: INHOST_RESULTS, testLog: TESTLOG, timings,
    log: (...a) => !stopping && log(...a), vlog: (...a) => !stopping && opts.verbose && log(...a),
  };

  for (const script of opts.e2e) {
    const r = await runE2eScript(ctx, script);
    if (stopping) return;
    tally.e2e.push(r);
    if (r.state === 'passed') tally.passed += 1;
    else { tally.failed += 1; tally.exitCode = Math.max(tally.exitCode, 1); }
  }
  if (opts.mocha.length) {
    const r = await runInHost(ctx, path.join(HOST_DIR, 'inhost', 'mocha-runner.cjs'), Math.max(5000, deadlineAt - Date.now() - 5000));
    if (stopping) return;
    countInHost(r);
  } else log('in-host phase skipped (--mocha none)');

  clearTimeout(deadline);
  samplePss();
  clearInterval(sampler);
}

try {
  await main();
} catch (e) {
  if (!stopping) harnessProblem(`ERROR ${e?.stack || e}`, 2);
}
await finish();

function fixtureDirs() {
  const root = path.join(HOST_DIR, 'fixtures');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).map((f) => path.join(root, f)).filter((d) => fs.existsSync(path.join(d, 'package.json'))).sort();
}
