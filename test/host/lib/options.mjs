// Command line of run-host-tests.mjs, with this project's defaults.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(HOST_DIR, '..', '..');

export const USAGE = `Usage: node test/host/run-host-tests.mjs [options]
Runs the extension inside a REAL VS Code extension host (code-server + headless Chromium), offline.
Phases: every e2e script (playwright UI, each on a fresh workbench page), then the in-host mocha
tests (TDD UI: suite/test) through the workbench's extensionTestsPath payload.

  --extension DIR      extension under test (default: project root, main from package.json)
  --mocha DIRS|none    compiled *.test.js files/dirs, comma separated (default: out/test/host/suite)
                       "none" skips the in-host phase (then at least one e2e script must run)
  --e2e FILES|none     e2e scripts, comma separated (default: test/host/e2e/*.e2e.mjs, if any)
  --workspace DIR      folder (or .code-workspace file) to open; COPIED into the run dir (default: sample-workspace/)
  --out DIR            artifacts (default: test-output/host/)
  --settings FILE      JSON merged over test/host/settings.json
  --env KEY=VALUE      environment for the extension host (repeatable)
  --grep PATTERN       in-host tests whose full title matches (regexp); e2e scripts whose file name matches
  --trust-workspace on|off  on (default): trusted; off: workspace trust enabled, folder in Restricted Mode
  --timeout SECONDS    whole run (default 1200): the only bound on the harness's own waits (server,
                       workbench, extension host), so a slow machine makes a run slower, not red
  --e2e-timeout SECONDS  each e2e script (default 300), as a test's timeout: any wait in it may last
                       until then (there is no shorter budget per step)
  --keep-run-dir       keep the throw-away run dir (user data, logs, workspace copy)
  --verbose            echo the browser console
  --cs-dir DIR         code-server install (default: $VSCODE_HOST_DIR or ~/.cache/vscode-host)
  --chromium PATH      (default: $CHROMIUM_PATH or /usr/bin/chromium)
Exit status: 0 all passed; 1 a test or e2e script failed, or no in-host test ran; 2 harness error/timeout.
Last line: "host: N passed, N failed" (e2e scripts count as tests; a harness error counts as a failure).`;

const list = (v) => v.split(',').map((p) => p.trim()).filter(Boolean).map((p) => path.resolve(p));

export function parseArgs(argv) {
  const o = { env: {}, timeout: 1200, e2eTimeout: 300, verbose: false, keepRunDir: false, trusted: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    switch (a) {
      case '--extension': o.extension = path.resolve(next()); break;
      case '--mocha': { const v = next(); o.mocha = v === 'none' ? [] : list(v); break; }
      case '--e2e': { const v = next(); o.e2e = v === 'none' ? [] : list(v); break; }
      case '--workspace': o.workspace = path.resolve(next()); break;
      case '--out': o.out = path.resolve(next()); break;
      case '--settings': o.settings = path.resolve(next()); break;
      case '--env': {
        const kv = next(); const j = kv.indexOf('=');
        if (j < 1) throw new Error(`--env wants KEY=VALUE, got ${kv}`);
        o.env[kv.slice(0, j)] = kv.slice(j + 1); break;
      }
      case '--grep': o.grep = next(); new RegExp(o.grep); break;
      case '--trust-workspace': {
        const v = next();
        if (v !== 'on' && v !== 'off') throw new Error('--trust-workspace wants on or off');
        o.trusted = v === 'on'; break;
      }
      case '--timeout': o.timeout = Number(next()); if (!(o.timeout > 0)) throw new Error('--timeout wants seconds > 0'); break;
      case '--e2e-timeout': o.e2eTimeout = Number(next()); if (!(o.e2eTimeout > 0)) throw new Error('--e2e-timeout wants seconds > 0'); break;
      case '--keep-run-dir': o.keepRunDir = true; break;
      case '--verbose': o.verbose = true; break;
      case '--cs-dir': o.csDir = path.resolve(next()); break;
      case '--chromium': o.chromium = next(); break;
      case '-h': case '--help': o.help = true; break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  o.extension ??= ROOT;
  o.mocha ??= [path.join(ROOT, 'out', 'test', 'host', 'suite')];
  o.e2e ??= defaultE2e();
  o.workspace ??= path.join(ROOT, 'sample-workspace');
  o.out ??= path.join(ROOT, 'test-output', 'host');
  if (o.grep) {
    const re = new RegExp(o.grep);
    o.e2e = o.e2e.filter((f) => re.test(path.basename(f)));
  }
  return o;
}

function defaultE2e() {
  const dir = path.join(HOST_DIR, 'e2e');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.e2e.mjs')).sort().map((f) => path.join(dir, f));
}

/** Recursively lists *.test.js / *.test.cjs under the given files/dirs (what mocha-runner.cjs will load). */
export function findTestFiles(specs) {
  const files = [];
  const walk = (p) => {
    if (fs.statSync(p).isDirectory()) {
      for (const f of fs.readdirSync(p).sort()) if (f !== 'node_modules') walk(path.join(p, f));
    } else if (/\.test\.c?js$/.test(p)) files.push(p);
  };
  for (const s of specs) if (fs.existsSync(s)) walk(s);
  return files;
}

/**
 * Checks that need no server: returns { extId, activatesAtStartup, problems[] } where problems are setup errors
 * (exit 2) and `noTests` says the in-host phase has nothing to run (exit 1).
 */
export function preflight(o) {
  const problems = [];
  let extId;
  let activatesAtStartup = false;
  const pkgFile = path.join(o.extension, 'package.json');
  if (!fs.existsSync(pkgFile)) problems.push(`no package.json in --extension ${o.extension}`);
  else {
    const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
    extId = `${pkg.publisher}.${pkg.name}`;
    activatesAtStartup = (pkg.activationEvents ?? []).some((e) => e === '*' || e === 'onStartupFinished');
    const main = pkg.main && path.resolve(o.extension, pkg.main);
    if (main && !fs.existsSync(main) && !fs.existsSync(`${main}.js`)) {
      problems.push(`${extId}'s main ${path.relative(process.cwd(), main)} does not exist: build it first (npm run build)`);
    }
  }
  for (const f of [...o.e2e, ...(o.settings ? [o.settings] : [])]) if (!fs.existsSync(f)) problems.push(`missing file ${f}`);
  if (!fs.existsSync(o.workspace)) problems.push(`missing workspace ${o.workspace}`);
  const testFiles = findTestFiles(o.mocha);
  let noTests;
  if (o.mocha.length && !testFiles.length) {
    noTests = `no compiled in-host tests (*.test.js) in ${o.mocha.map((m) => path.relative(process.cwd(), m) || '.').join(', ')}: ` +
      'write test/host/suite/*.test.ts and compile them (npx tsc -p .)';
  }
  if (!o.mocha.length && !o.e2e.length) noTests = 'nothing to run: --mocha none and no e2e script (check --e2e / --grep)';
  return { extId, activatesAtStartup, problems, noTests, testFiles };
}
