// The two phases of a harness run. Each returns plain results; run-host-tests.mjs adds them up.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { folderUrl, remoteUri } from './code-server.mjs';
import { activationCount, consoleErrors, describeWorkbench, hostReadyCount, openPage, startRequestPump, waitWorkbench } from './workbench.mjs';
import { sleep, waitFor } from './procs.mjs';
import { makeHelpers } from '../e2e/helpers.mjs';

/**
 * @typedef {object} Ctx
 * @property {object} opts        parsed options
 * @property {import('playwright-core').Browser} browser
 * @property {number} port
 * @property {number} deadlineAt  when the whole run times out (Date.now() time)
 * @property {string} userDataDir
 * @property {string} workspace   the run's copy of the workspace
 * @property {string} extId       publisher.name of the extension under test
 * @property {boolean} activatesAtStartup  its activationEvents hold `*` or onStartupFinished
 * @property {string} devPath     extensionDevelopmentPath
 * @property {Record<string,string>} hostEnv  environment for the extension host
 * @property {string} reqDir      harness-client request dir
 * @property {string} inhostResults  JSON written by mocha-runner.cjs
 * @property {string} testLog     plain text log written by mocha-runner.cjs
 * @property {Record<string, number>} timings
 * @property {(...a: unknown[]) => void} log
 * @property {(...a: unknown[]) => void} vlog
 */

/** How much sooner than its script's timeout a wait in an e2e script gives up (to name what it waited for). */
const WAIT_MARGIN_MS = 5000;

const devPayload = (ctx) => [['extensionDevelopmentPath', remoteUri(ctx.devPath)]];

/**
 * One e2e script on a fresh workbench page. Returns { script, state, durationMs, error? }. The script
 * has --e2e-timeout like a test its timeout: every wait in it (Playwright's, the helpers') may last
 * until then and no wait has a shorter budget, so a slow machine makes it slower, not red.
 */
export async function runE2eScript(ctx, script) {
  const name = path.basename(script).replace(/\.e2e\.mjs$/, '');
  const out = ctx.opts.out;
  const { page, close } = await openPage(ctx.browser, out, `e2e-${name}`, ctx.opts.verbose && ctx.log);
  const t0 = Date.now();
  const deadlineAt = Math.min(t0 + ctx.opts.e2eTimeout * 1000, ctx.deadlineAt);
  const timeLeft = () => Math.max(1000, deadlineAt - Date.now());
  // The waits inside end a little earlier, so one that never ends says what it waited for.
  const waitLeft = () => Math.max(1000, timeLeft() - WAIT_MARGIN_MS);
  // Playwright's default timeout follows what is left, so a wait started late ends in time too.
  const followDeadline = () => {
    page.setDefaultTimeout(waitLeft());
    page.setDefaultNavigationTimeout(waitLeft());
  };
  followDeadline();
  const following = setInterval(followDeadline, 1000);
  let overtime;
  let stopPump = () => {};
  const result = { script: path.basename(script), state: 'failed' };
  try {
    const before = { ready: hostReadyCount(ctx.userDataDir), activated: activationCount(ctx.userDataDir, ctx.extId) };
    await page.goto(folderUrl(ctx.port, ctx.workspace, [...devPayload(ctx), ['extensionEnvironment', JSON.stringify(ctx.hostEnv)]]));
    await waitWorkbench(page, waitLeft());
    ctx.timings[`e2e:${name}:workbenchReadyMs`] = Date.now() - t0;
    await waitFor(() => hostReadyCount(ctx.userDataDir) > before.ready, waitLeft(), 'the extension host (log: "Eager extensions activated")', 100);
    if (ctx.activatesAtStartup) {
      // `*` / onStartupFinished: the script may rely on it being active. (With workspace trust on
      // the extension under development still activates: see run-host-tests.mjs.)
      await waitFor(() => activationCount(ctx.userDataDir, ctx.extId) > before.activated, waitLeft(), `activation of ${ctx.extId}`, 100);
    }
    ctx.timings[`e2e:${name}:readyMs`] = Date.now() - t0;
    ctx.log(`e2e ${name}: workbench ready, ${ctx.activatesAtStartup ? `${ctx.extId} activated` : 'extension host ready'} after ${Date.now() - t0} ms`);
    stopPump = startRequestPump(ctx.reqDir, () => page, out, ctx.log);
    const mod = await import(pathToFileURL(script).href);
    if (typeof mod.default !== 'function') throw new Error(`${script} has no default export function`);
    const ts = Date.now();
    await Promise.race([
      mod.default({
        page, helpers: makeHelpers(page, { outDir: out, log: ctx.log, timeLeft: waitLeft }), log: ctx.log, outDir: out,
        workspace: ctx.workspace, extensionId: ctx.extId, env: ctx.hostEnv, userDataDir: ctx.userDataDir,
      }),
      new Promise((_, reject) => {
        overtime = setTimeout(() => reject(new Error(`still running after its ${ctx.opts.e2eTimeout} s (--e2e-timeout)`)), timeLeft());
      }),
    ]);
    result.durationMs = Date.now() - ts;
    result.state = 'passed';
    ctx.log(`e2e ${name}: PASSED (${result.durationMs} ms)`);
    await page.screenshot({ path: path.join(out, `e2e-${name}-final.png`) }).catch(() => {});
  } catch (e) {
    result.error = String(e?.stack || e);
    ctx.log(`e2e ${name}: FAILED: ${result.error}`);
    ctx.log(`e2e ${name}: the page at the failure: ${await describeWorkbench(page)}`);
    await page.screenshot({ path: path.join(out, `e2e-${name}-failure.png`) }).catch(() => {});
  } finally {
    clearInterval(following);
    clearTimeout(overtime);
    stopPump();
    await close();
  }
  return result;
}

/**
 * The in-host mocha phase. Returns { exitCode, timedOut, results } where results is what
 * mocha-runner.cjs wrote (undefined when it never got that far).
 */
export async function runInHost(ctx, testsEntry, timeoutMs) {
  const out = ctx.opts.out;
  let exited;
  const exitedP = new Promise((r) => (exited = r));
  const payload = [...devPayload(ctx), ['extensionTestsPath', remoteUri(testsEntry)], ['extensionEnvironment', JSON.stringify(ctx.hostEnv)]];
  const { page, close } = await openPage(ctx.browser, out, 'inhost', ctx.opts.verbose && ctx.log);
  // The page's own waits (loading the workbench) are bounded by the run's deadline only.
  page.setDefaultTimeout(timeoutMs);
  page.setDefaultNavigationTimeout(timeoutMs);
  // VS Code calls this in the page when the extension host that ran the tests has exited.
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    try {
      const dir = path.join(out, 'workbench-logs');
      fs.mkdirSync(dir, { recursive: true });
      for (const l of logs || []) fs.writeFileSync(path.join(dir, String(l.relativePath).replace(/[\\/]/g, '__')), l.contents);
    } catch { /* best effort */ }
    exited(code);
  });
  let printed = 0;
  const flushLog = () => {
    try {
      const s = fs.readFileSync(ctx.testLog, 'utf8');
      if (s.length > printed) { process.stdout.write(s.slice(printed)); printed = s.length; }
    } catch { /* nothing yet */ }
  };
  const tail = setInterval(flushLog, 250);
  const stopPump = startRequestPump(ctx.reqDir, () => page, out, ctx.log);
  const t0 = Date.now();
  let code;
  try {
    await page.goto(folderUrl(ctx.port, ctx.workspace, payload));
    await waitWorkbench(page, Math.max(1000, ctx.deadlineAt - Date.now()));
    ctx.timings.inhostWorkbenchReadyMs = Date.now() - t0;
    ctx.log(`in-host: workbench ready after ${ctx.timings.inhostWorkbenchReadyMs} ms, running tests`);
    code = await Promise.race([exitedP, sleep(timeoutMs).then(() => 'timeout')]);
  } finally {
    ctx.timings.inhostRunMs = Date.now() - t0;
    stopPump();
    clearInterval(tail);
    flushLog();
    // After a normal exit the extension host is gone (webviews disposed): this shows the final
    // editor layout only. Take UI screenshots during the tests (harness-client screenshot()).
    await page.screenshot({ path: path.join(out, 'inhost-final.png') }).catch(() => {});
    await close();
  }
  const results = fs.existsSync(ctx.inhostResults) ? JSON.parse(fs.readFileSync(ctx.inhostResults, 'utf8')) : undefined;
  if (code === 'timeout') ctx.log(`in-host: TIMEOUT after ${timeoutMs} ms waiting for the extension host to exit`);
  else if (code !== 0) ctx.log(`in-host: extension host exit code ${code}`);
  if (code !== 0 && !results) {
    // e.g. the test entry could not be loaded: the workbench console says why
    for (const l of consoleErrors(path.join(out, 'browser-console-inhost.log'))) ctx.log(`  ${l}`);
  }
  return { exitCode: code === 'timeout' ? undefined : code, timedOut: code === 'timeout', results };
}
