// The shell parser is tree-sitter in WebAssembly. After a few parses V8 starts optimising its large
// lexer on a background thread, and Node waits for background work before the event loop turns again
// or the process exits: seconds on a busy machine for a process that needed milliseconds. A one-shot
// process keeps the baseline code, which is fast enough for the commands it judges. It also checks
// each wasm function when it first runs rather than all of them at load: most of the grammar's and
// the runtime's functions never run in a process that judges one command (about 3 ms of CPU less
// per check-command, measured by perf over 40 processes); the files are Pincer's own, and a
// function is still validated before it is compiled.
import v8 from 'node:v8';

/**
 * Set once per process, before the CLI's bundle is compiled: V8 stamps its code caches with the
 * flags in force, so a flag set after a cache was read and before it is written would make every
 * later process reject that cache.
 */
export function shortLivedWasm(): void {
  v8.setFlagsFromString('--wasm-tiering-budget=2000000000 --wasm-lazy-validation');
}
