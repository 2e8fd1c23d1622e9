// Loads the bash grammar of VS Code's own tree-sitter WASM build once per process, on first use: the
// runtime and grammar cost tens of milliseconds, which activation must not pay.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Parser } from '@vscode/tree-sitter-wasm';

let loading: Promise<Parser> | undefined;
/** The parser once loaded: a parse need not wait a microtask turn for a promise settled long ago. */
let loaded: Parser | undefined;

/** The shared parser if it has finished loading, else undefined (then await bashParser()). */
export function loadedBashParser(): Parser | undefined {
  return loaded;
}

/** The shared bash parser (one per process; parsing is synchronous, so sharing it is safe). */
export function bashParser(): Promise<Parser> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined; // a failed load (missing file) may succeed later; do not cache the failure
    throw err;
  });
  return loading;
}

/** Next to the running bundle first (esbuild copies the files into dist/), else from the package. */
function wasmFile(name: string): string {
  const beside = path.join(__dirname, name);
  if (fs.existsSync(beside)) return beside;
  // Built from parts so a bundler leaves the lookup to run time (the bundle uses the copies beside it).
  const pkg = path.dirname(require.resolve(path.posix.join('@vscode', 'tree-sitter-wasm', 'package.json')));
  return path.join(pkg, 'wasm', name);
}

async function load(): Promise<Parser> {
  const ts = await import('@vscode/tree-sitter-wasm');
  // The runtime's bytes are handed over too (emscripten's `wasmBinary`): left to find them, it reads
  // the file through fs.readFile, which starts libuv's thread pool in a process that needs none.
  const options = { locateFile: (file: string) => wasmFile(file), wasmBinary: fs.readFileSync(wasmFile('tree-sitter.wasm')) };
  await ts.Parser.init(options);
  // Bytes rather than a path: the runtime would load fs/promises to read it, a cost for every CLI process.
  const bash = await ts.Language.load(fs.readFileSync(wasmFile('tree-sitter-bash.wasm')));
  const parser = new ts.Parser();
  parser.setLanguage(bash);
  loaded = parser;
  return parser;
}
