// In-extension-host side of run-host-tests.mjs: lets tests running INSIDE the VS Code extension
// host (which cannot see the browser) ask the harness, which drives Chromium, for a screenshot or
// for text rendered in the workbench / inside a webview's nested iframes. File based: the test
// writes <id>.req into HOST_HARNESS_REQUESTS, the harness answers <id>.res.
//
// Environment the harness gives the extension host (payload extensionEnvironment):
//   HOST_HARNESS_REQUESTS  request directory        HOST_HARNESS_CLIENT  absolute path of this file
//   HOST_TEST_RESULTS      JSON results of the run   HOST_TEST_LOG        plain text log (streamed)
//   HOST_TEST_ARTIFACTS    output dir (screenshots)  HOST_EXTENSION_PATH  extension under test
//   HOST_TRUST_WORKSPACE   "on" | "off" (off: the folder is open in Restricted Mode)
//
// Usage in a test (TypeScript):
//   const h = process.env.HOST_HARNESS_CLIENT ? require(process.env.HOST_HARNESS_CLIENT) : undefined;
//   await h?.screenshot('after-open');           // -> test-output/host/after-open.png
//   const txt = await h?.webviewText('#title');  // innerText inside a webview
//   const imgs = await h?.webviewImages('img');   // the images inside a webview, drawn or not
//   const t2 = await h?.pageText('.statusbar');  // innerText in the workbench DOM
// Everything returns undefined when not run by the harness.
'use strict';
const fs = require('fs');
const path = require('path');

let seq = 0;

/**
 * Milliseconds the running test has left (mocha-runner.cjs publishes it), less a margin so a wait
 * that never ends says what it waited for before mocha's bare timeout does; 10 minutes outside a test.
 */
function timeLeft() {
  const t = globalThis.__pincerHostTest;
  const ms = t ? t.timeout() : 0;
  return ms > 0 ? Math.max(1000, t.startedAt + ms - Date.now() - 2000) : 600_000;
}

function enabled() {
  return !!process.env.HOST_HARNESS_REQUESTS;
}

async function request(kind, args, timeoutMs = timeLeft()) {
  const dir = process.env.HOST_HARNESS_REQUESTS;
  if (!dir) return undefined;
  fs.mkdirSync(dir, { recursive: true });
  const id = `${Date.now()}-${process.pid}-${seq++}`;
  const reqFile = path.join(dir, `${id}.req`);
  const resFile = path.join(dir, `${id}.res`);
  // Written atomically: the harness only picks up complete *.req files.
  fs.writeFileSync(`${reqFile}.tmp`, JSON.stringify({ kind, ...args }));
  fs.renameSync(`${reqFile}.tmp`, reqFile);
  const t0 = Date.now();
  while (!fs.existsSync(resFile)) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`harness did not answer ${kind} within ${timeoutMs}ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = JSON.parse(fs.readFileSync(resFile, 'utf8'));
  fs.rmSync(resFile, { force: true });
  if (res.error) throw new Error(`harness ${kind} failed: ${res.error}`);
  return res.value;
}

/** Screenshot of the whole workbench; resolves to the PNG path. */
function screenshot(name, timeoutMs) {
  return request('screenshot', { name: String(name).replace(/[^A-Za-z0-9._-]/g, '_') }, timeoutMs);
}

/** innerText of the first element matching `selector` inside any webview, once there is one. */
function webviewText(selector, timeoutMs = timeLeft()) {
  return request('webviewText', { selector, timeoutMs: timeoutMs - 1000 }, timeoutMs);
}

/** The images matching `selector` inside a webview, once there is one: [{ alt, scheme, complete, width, height }]. */
function webviewImages(selector, timeoutMs = timeLeft()) {
  return request('webviewImages', { selector, timeoutMs: timeoutMs - 1000 }, timeoutMs);
}

/** innerText of the first element matching `selector` in the workbench page, once there is one. */
function pageText(selector, timeoutMs = timeLeft()) {
  return request('pageText', { selector, timeoutMs: timeoutMs - 1000 }, timeoutMs);
}

module.exports = { enabled, screenshot, webviewText, webviewImages, pageText };
