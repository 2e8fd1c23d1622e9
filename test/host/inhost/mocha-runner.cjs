// In-extension-host mocha entry: the module VS Code loads as extensionTestsPath. It follows
// @vscode/test-electron's contract: run() settles when the tests are done and rejects when any
// failed; VS Code then stops the extension host and reports the exit code to the page
// (window.codeAutomationExit), which run-host-tests.mjs turns into its own exit status.
//
// Environment (from the harness, through the payload's extensionEnvironment):
//   HOST_MOCHA_SPEC     comma separated files/directories (directories: recursive *.test.js)
//   HOST_MOCHA_UI       tdd (default: suite/test) | bdd
//   HOST_MOCHA_TIMEOUT  per-test timeout in ms (default 30000)
//   HOST_MOCHA_GREP     only tests whose full title matches this regexp
//   HOST_EXTENSION_PATH extension under test: mocha is resolved from there first
//   HOST_TEST_RESULTS   JSON results file            HOST_TEST_LOG  plain text log file
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');

function loadMocha() {
  const specDirs = (process.env.HOST_MOCHA_SPEC || '').split(',').filter(Boolean).map((p) => path.dirname(p));
  const from = [process.env.HOST_EXTENSION_PATH, ...specDirs, __dirname].filter(Boolean);
  return require(require.resolve('mocha', { paths: from }));
}

function collect(spec) {
  const files = [];
  const walk = (p) => {
    if (fs.statSync(p).isDirectory()) {
      for (const f of fs.readdirSync(p).sort()) if (f !== 'node_modules') walk(path.join(p, f));
    } else if (/\.test\.c?js$/.test(p)) files.push(p);
  };
  for (const s of spec.split(',').map((x) => x.trim()).filter(Boolean)) if (fs.existsSync(s)) walk(s);
  return files;
}

function writeResults(data) {
  if (process.env.HOST_TEST_RESULTS) fs.writeFileSync(process.env.HOST_TEST_RESULTS, JSON.stringify(data, null, 2));
}

function run() {
  const Mocha = loadMocha();
  const logFile = process.env.HOST_TEST_LOG;
  // The spec reporter prints printf-style through Base.consoleLog; in the extension host console
  // output only reaches the browser's log service (unformatted), so format it here and tee it
  // into HOST_TEST_LOG, which the harness streams to its stdout.
  Mocha.reporters.Base.consoleLog = (...args) => {
    const line = util.format(...args);
    console.log(line);
    if (logFile) fs.appendFileSync(logFile, `${line}\n`);
  };
  const mocha = new Mocha({
    ui: process.env.HOST_MOCHA_UI || 'tdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.HOST_MOCHA_TIMEOUT || 30000),
    grep: process.env.HOST_MOCHA_GREP ? new RegExp(process.env.HOST_MOCHA_GREP) : undefined,
  });
  const spec = process.env.HOST_MOCHA_SPEC;
  if (!spec) return Promise.reject(new Error('HOST_MOCHA_SPEC is not set'));
  const files = collect(spec);
  if (!files.length) return Promise.reject(new Error(`no *.test.js files found in ${spec}`));
  files.forEach((f) => mocha.addFile(f));

  return new Promise((resolve, reject) => {
    const results = [];
    let runner;
    try {
      runner = mocha.run((failures) => {
        const passes = results.filter((r) => r.state === 'passed').length;
        writeResults({ passes, failures, pending: results.filter((r) => r.state === 'pending').length, files, results });
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
    } catch (e) {
      // e.g. a test file threw while loading: record it, so the harness can say why
      writeResults({ passes: 0, failures: 1, files, results: [{ title: '(loading test files)', state: 'failed', error: String(e?.stack || e) }] });
      if (logFile) fs.appendFileSync(logFile, `loading test files failed: ${e?.stack || e}\n`);
      return reject(e);
    }
    // The running test, for waits that should last as long as the test may and no longer (host-util
    // waitFor, harness-client.cjs): they end, saying what they waited for, just before its timeout.
    runner.on('test', (t) => { globalThis.__pincerHostTest = { startedAt: Date.now(), timeout: () => t.timeout() }; });
    runner.on('test end', () => { globalThis.__pincerHostTest = undefined; });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), state: 'failed', error: String(err?.stack || err) }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
}

module.exports = { run };
