// Builds what ships: the extension (kept small: it is required at activation), the CLI, the storage
// worker (sql.js lives there, loaded on first use) and the webview. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { chatBuildOptions, copyChatAssets } from './webview-ui/chat/build.mjs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const watch = process.argv.includes('--watch');
// `--outdir DIR` builds elsewhere than dist/ (a helper's own folder), `--metafile` writes DIR/meta-<bundle>.json
// (what each bundle holds, for esbuild's analyzer).
const outIndex = process.argv.indexOf('--outdir');
const dist = outIndex > 0 ? process.argv[outIndex + 1] : 'dist';
const metafile = process.argv.includes('--metafile');
const MAX_EXTENSION_BYTES = 1024 * 1024; // what activation requires; the core loads on first use

const common = {
  bundle: true, minify: true, sourcemap: 'linked', logLevel: 'warning', legalComments: 'none',
  define: { PINCER_VERSION: JSON.stringify(pkg.version) },
};
/**
 * zod re-exports all of its 60-odd locales as `z.locales` (~250 KB of every bundle with zod, parsed
 * at every load, the first tool call's included). Pincer's messages are English and nothing switches
 * locale, so `z.locales` holds `en` only (zod's default, which it imports on its own anyway).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) => (a.importer.includes(`${path.sep}zod${path.sep}`) ? { path: path.resolve(a.resolveDir, '../locales/en.js'), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (a) => ({ contents: `export { default as en } from ${JSON.stringify(a.path)};`, resolveDir: path.dirname(a.path) }));
  },
};
/**
 * web-tree-sitter (the shell parser's runtime) loads `module` and `fs/promises` with `import()`. In a
 * CommonJS bundle each such import starts Node's ESM loader, a cost every `pincer check-command`
 * process paid. Both are built-ins, so they are plain requires instead, under names of their own (inside
 * the emscripten function a local `var require` shadows the real one).
 */
const treeSitterWithoutImport = {
  name: 'tree-sitter-without-import',
  setup(b) {
    b.onLoad({ filter: /tree-sitter-wasm[\\/]wasm[\\/]tree-sitter\.js$/ }, (a) => {
      const src = fs.readFileSync(a.path, 'utf8');
      // fs/promises only when a grammar is loaded from a path: loading it costs a process milliseconds.
      const out = 'const __pincerNodeModule = require("module"), __pincerFsPromises = () => require("fs/promises");\n'
        + src.replace('await import("module")', '__pincerNodeModule').replace('await import("fs/promises")', '__pincerFsPromises()');
      if (out.includes('import(')) throw new Error(`${a.path}: an import() is left; update the tree-sitter-without-import plugin`);
      return { contents: out, loader: 'js' };
    });
  },
};
/**
 * Heavy libraries a tool needs only on some calls are bundles of their own, required from the runtime at
 * their first use: pdf.js (the first PDF read) and playwright-core (the first browser call). A runtime
 * `require('./pdf-extract')` (or `'../web/pdf-extract'`) stays a require of dist/pdf-extract.js beside it.
 */
const LAZY_BUNDLES = { 'pdf-extract': 'src/core/web/pdf-extract.ts', 'browser-engine': 'src/core/browser/browser-engine.ts' };
const lazyBundlesApart = {
  name: 'lazy-bundles-apart',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^\\.\\.?/(.+/)?(${Object.keys(LAZY_BUNDLES).join('|')})$`) }, (a) => ({ path: `./${path.basename(a.path)}.js`, external: true }));
  },
};
/**
 * The same for whole packages: luxon (datetime's `at`), croner (the first cron schedule), linkedom
 * (web_search's HTML answers) and yaml (the first SKILL.md or agent file read) are dist/lazy-<name>.js,
 * required inside the function that uses them.
 */
const LAZY_PACKAGES = ['luxon', 'croner', 'linkedom', 'yaml'];
/** dist/lazy-<name>.js for a package name (`@vscode/tree-sitter-wasm` -> lazy-vscode-tree-sitter-wasm). */
const lazyFile = (pkgName) => `lazy-${pkgName.replace(/^@/, '').replace(/\//g, '-')}`;
const lazyApart = (name, packages) => ({
  name,
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${packages.join('|')})$`) }, (a) => (a.kind === 'entry-point' ? undefined : { path: `./${lazyFile(a.path)}.js`, external: true }));
  },
});
const lazyPackagesApart = lazyApart('lazy-packages-apart', LAZY_PACKAGES);
/**
 * Packages host-core requires only inside the code that needs them (execa for the first command run,
 * pg for a team store on Postgres, the shell parser's tree-sitter for the first command judged) are
 * bundles of their own for host-core only: every window's first tool call reads host-core and
 * deserializes its whole code cache, and these are ~290 KB of it (1,594 -> 1,306 KB). The CLI's
 * bundles keep them inlined (Node's own compile cache serves them there, and `pincer check-command`
 * would open a file more).
 */
const HOST_LAZY_PACKAGES = ['execa', 'pg', '@vscode/tree-sitter-wasm'];
const hostLazyPackagesApart = lazyApart('host-lazy-packages-apart', HOST_LAZY_PACKAGES);
/**
 * In a CommonJS bundle every module's `import * as vscode from 'vscode'` (or `import fs from 'node:fs'`)
 * becomes a copy of the whole external module, one getter defined per property (esbuild's __toESM):
 * host-core made 45 copies of the VS Code API and 34 of fs, a large part of loading the runtime. Such an
 * import goes through one module of the bundle instead, whose exports own nothing and have the real
 * module as prototype: each copy is then empty, and every property is read through the prototype.
 * Only modules whose functions never use `this` (an EventEmitter such as `process` would keep its
 * listeners on the empty object), and only ES imports: a library's `require('fs')` still gets fs itself.
 */
const sharedExternals = {
  name: 'shared-externals',
  setup(b) {
    b.onResolve({ filter: /^(vscode|(node:)?(fs|fs\/promises|path|os))$/ }, (a) => (a.kind === 'import-statement' ? { path: a.path.replace(/^node:/, ''), namespace: 'shared-external' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'shared-external' }, (a) => ({ contents: `module.exports = Object.create(require(${JSON.stringify(a.path)}));`, loader: 'js' }));
  },
};
/**
 * V8 keeps a script whose text has a single character above U+007F as a two-byte string: the first
 * tool call then decodes dist/host-core.js's 1.6 MB as UTF-8 (~3 ms in Node 24; ASCII read as latin1,
 * as bundle-loader.ts does, takes ~0.1 ms) and the runtime's text takes twice the memory. esbuild's output is ASCII except in
 * regular expression literals (and a tagged template's raw text, which must stay as written), so the
 * non-ASCII characters of our sources' regex literals are written as `\uXXXX` here, which means the
 * same character in any regular expression, with or without the u flag (a surrogate pair stays one
 * code point under u). Only the regex's `.source` text changes. build() checks the outputs stay ASCII.
 */
const NON_ASCII = /[^\x00-\x7f]/;
/**
 * `import { z } from 'zod'` names zod's namespace object as a value, so the bundle builds it: esbuild
 * defines one getter per export (~250, and the namespaces it holds: core, util, regexes…, ~950 in all)
 * at every load, and every `z.string()` goes through a getter. `import * as z from 'zod'` is the same
 * module with the same exports (zod's index re-exports classic/external.js under both), but esbuild then
 * turns `z.string` into the function itself and builds no namespace object for it. Only the build's
 * input changes; TypeScript reads the sources as written.
 */
const ZOD_NAMED_IMPORT = /^import \{ z \} from 'zod';$/m;
async function rewriteSource(file, text) {
  let out = text.replace(ZOD_NAMED_IMPORT, "import * as z from 'zod';");
  // Most files with non-ASCII text have it only in comments: a regex literal spans one line.
  if (out.split('\n').some((l) => NON_ASCII.test(l) && l.includes('/') && !/^\s*(\/\/|\*|\/\*)/.test(l))) out = await asciiRegexes(file, out);
  return out;
}
async function asciiRegexes(file, text) {
  const ts = (await import('typescript')).default;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const spans = [];
  const visit = (n) => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral && NON_ASCII.test(n.text)) spans.push([n.getStart(sf), n.end]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = text;
  for (const [start, end] of spans.reverse()) out = out.slice(0, start) + escapeNonAscii(out.slice(start, end)) + out.slice(end);
  return out;
}
const asciiRegexLiterals = {
  name: 'ascii-regex-literals-and-zod-namespace',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (a) => {
      const text = await fs.promises.readFile(a.path, 'utf8');
      const out = await rewriteSource(a.path, text);
      return out === text ? undefined : { contents: out, loader: 'ts' };
    });
  },
};
/** Each UTF-16 unit above U+007F as `\uXXXX`; an identity escape of one (`\→`, which is the character) loses its backslash. */
function escapeNonAscii(regex) {
  let out = '';
  for (const ch of regex.split('')) {
    if (!NON_ASCII.test(ch)) {
      out += ch;
      continue;
    }
    const slashes = /\\*$/.exec(out)[0].length;
    if (slashes % 2) out = out.slice(0, -1);
    out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
  return out;
}
/** The Node bundles must stay one-byte text (see asciiRegexLiterals): names the first non-ASCII character's place. */
function nonAsciiIn(file) {
  const text = fs.readFileSync(file, 'utf8');
  const m = NON_ASCII.exec(text);
  return m && `${file}: a non-ASCII character in ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}`;
}
// 'module' first: some dependencies (jsonc-parser) ship a UMD main that esbuild cannot follow.
// No import() in the output: the bundles are CommonJS, and import() of one of them (or of a built-in)
// would start the ESM loader; esbuild writes require() instead.
const node = {
  ...common, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], plugins: [asciiRegexLiterals, sharedExternals, zodEnglishOnly, treeSitterWithoutImport, lazyBundlesApart, lazyPackagesApart],
  supported: { 'dynamic-import': false },
};

/**
 * main.ts's `import('./cli-run')`, `import('./cli-config')`, `import('./cli-mcp-serve')`,
 * `import('./cli-hook')`, `import('./cli-cron')` and `import('./cli-team')`, and bin.ts's `import('./main')`, stay loads of
 * the bundles beside them (dist/cli-run.js, …, dist/cli-main.js): inlined, the MCP server's SDK, ajv and zod would make
 * every check-command read a bundle three times the size.
 */
const cliSubcommandsApart = {
  name: 'cli-subcommands-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/cli-(run|config|mcp-serve|hook|cron|team)$/ }, (a) => ({ path: `${a.path}.js`, external: true }));
    b.onResolve({ filter: /^\.\/main$/ }, (a) => (path.basename(a.importer) === 'bin.ts' ? { path: './cli-main.js', external: true } : undefined));
  },
};

const builds = [
  // The banner stamps the moment the bundle starts evaluating, so activation is measured from there.
  { ...node, entryPoints: ['src/extension.ts'], outfile: `${dist}/extension.js`, external: ['vscode'], banner: { js: 'globalThis.__pincerBundleStart=performance.now();' } },
  // The runtime behind the first command or view: required by extension.ts on first use.
  { ...node, entryPoints: ['src/host/host-core.ts'], outfile: `${dist}/host-core.js`, external: ['vscode'], plugins: [...node.plugins, hostLazyPackagesApart] },
  // The chat and the model SDKs (openai, @anthropic-ai/sdk): required by host-core on the first chat
  // use (src/host/chat/chat-lazy.ts), so the first tool call does not wait for them.
  { ...node, entryPoints: ['src/host/chat/chat-stack.ts'], outfile: `${dist}/host-chat.js`, external: ['vscode'] },
  // The MCP client (the MCP SDK, ajv): required by host-core when a server is defined (src/host/mcp-lazy.ts).
  { ...node, entryPoints: ['src/host/mcp/mcp-host.ts'], outfile: `${dist}/host-mcp.js`, external: ['vscode'] },
  // Serve Tools over MCP… (the MCP SDK's server): required by host-core when the command runs (src/host/lm/mcp-serve-lazy.ts).
  { ...node, entryPoints: ['src/host/lm/mcp-serve-host.ts'], outfile: `${dist}/host-mcp-serve.js`, external: ['vscode'] },
  // The CLI: dist/cli.js turns on Node's compile cache and loads dist/cli-main.js, which keeps
  // check-command small (scripts and hooks run it once per command); `tools`, `run` and the settings
  // reader (zod, every tool) are bundles of their own, loaded when used.
  { ...node, entryPoints: ['src/cli/bin.ts'], outfile: `${dist}/cli.js`, plugins: [cliSubcommandsApart] },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: `${dist}/cli-main.js`, plugins: [...node.plugins, cliSubcommandsApart] },
  { ...node, entryPoints: { 'cli-run': 'src/cli/cli-run.ts', 'cli-config': 'src/cli/cli-config.ts', 'cli-mcp-serve': 'src/cli/cli-mcp-serve.ts', 'cli-hook': 'src/cli/cli-hook.ts', 'cli-cron': 'src/cli/cli-cron.ts', 'cli-team': 'src/cli/cli-team.ts' }, outdir: dist, plugins: [...node.plugins, cliSubcommandsApart] },
  { ...node, entryPoints: ['src/core/storage/storage-worker.ts'], outfile: `${dist}/storage-worker.js` },
  // playwright-core reads its own package files at run time, so it is not bundled: it is copied whole to
  // dist/node_modules (it has no dependencies), where dist/browser-engine.js finds it.
  { ...node, entryPoints: LAZY_BUNDLES, outdir: dist, external: ['playwright-core'] },
  { ...node, entryPoints: Object.fromEntries([...LAZY_PACKAGES, ...HOST_LAZY_PACKAGES].map((p) => [lazyFile(p), p])), outdir: dist },
  // web_fetch's HTML → markdown converter (htmlparser2) on its worker thread (src/core/web/html-converter.ts).
  { ...node, entryPoints: ['src/core/web/web-convert-worker.ts'], outfile: `${dist}/web-convert-worker.js` },
  // Images shrunk and checked with pure-JS codecs on a worker thread of their own (src/core/media/image-fit.ts).
  { ...node, entryPoints: ['src/core/media/image-resize-worker.ts'], outfile: `${dist}/image-resize-worker.js` },
  // A Word document's zip checked under caps and converted to markdown (mammoth, turndown) on a worker thread of its own (src/core/media/read-document-tool.ts).
  { ...node, entryPoints: ['src/core/media/docx-convert-worker.ts'], outfile: `${dist}/docx-convert-worker.js` },
  // Chunks of a long text scrubbed on a worker thread beside the caller (src/core/guard/scrub-split.ts); without it, one thread.
  { ...node, entryPoints: ['src/core/guard/scrub-worker.ts'], outfile: `${dist}/scrub-worker.js` },
  { ...common, platform: 'browser', format: 'iife', target: 'chrome120', entryPoints: ['webview-ui/sidebar/main.ts'], outfile: `${dist}/webview/sidebar.js` },
  // The Team Board panel (src/host/teams/team-board-panel.ts).
  { ...common, platform: 'browser', format: 'iife', target: 'chrome120', entryPoints: ['webview-ui/teams/main.ts'], outfile: `${dist}/webview/team-board.js` },
  // The chat view (webview-ui/chat/build.mjs: chat.js, chat.css, the codicon font).
  chatBuildOptions(`${dist}/webview`),
];

fs.mkdirSync(`${dist}/webview`, { recursive: true });
fs.copyFileSync(path.join('node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'), `${dist}/sql-wasm.wasm`);
fs.cpSync(path.join('node_modules', 'playwright-core'), `${dist}/node_modules/playwright-core`, { recursive: true });
// The shell parser: VS Code's own tree-sitter build and its bash grammar, loaded on the first command judged.
for (const f of ['tree-sitter.wasm', 'tree-sitter-bash.wasm']) fs.copyFileSync(path.join('node_modules', '@vscode', 'tree-sitter-wasm', 'wasm', f), path.join(dist, f));
fs.copyFileSync('webview-ui/sidebar/style.css', `${dist}/webview/sidebar.css`);
fs.copyFileSync('webview-ui/teams/style.css', `${dist}/webview/team-board.css`);
copyChatAssets(`${dist}/webview`);

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile })));
  results.forEach((r, i) => metafile && fs.writeFileSync(`${dist}/meta-${path.basename(builds[i].outfile ?? builds[i].outdir ?? String(i), '.js')}.json`, JSON.stringify(r.metafile)));
  const nodeOutputs = builds.filter((b) => b.platform === 'node').flatMap((b) => b.outfile ? [b.outfile] : Object.keys(b.entryPoints).map((k) => `${b.outdir}/${k}.js`));
  const nonAscii = nodeOutputs.map(nonAsciiIn).filter(Boolean);
  if (nonAscii.length) {
    console.error(`esbuild: escape these (a regex literal's character as \\uXXXX), or the bundle loads as two-byte text:\n${nonAscii.join('\n')}`);
    process.exit(1);
  }
  const size = fs.statSync(`${dist}/extension.js`).size;
  console.log(`esbuild: dist/extension.js ${(size / 1024).toFixed(0)} KB, host-core ${(fs.statSync(`${dist}/host-core.js`).size / 1024).toFixed(0)} KB, host-chat ${(fs.statSync(`${dist}/host-chat.js`).size / 1024).toFixed(0)} KB, cli-main ${(fs.statSync(`${dist}/cli-main.js`).size / 1024).toFixed(0)} KB, storage-worker ${(fs.statSync(`${dist}/storage-worker.js`).size / 1024).toFixed(0)} KB`);
  if (size > MAX_EXTENSION_BYTES) {
    console.error(`esbuild: dist/extension.js is ${size} bytes, over the 1 MB budget: load the heavy part on first use.`);
    process.exit(1);
  }
}
