// The runtime's own lazily required bundles (dist/host-chat.js, dist/host-mcp.js,
// dist/host-mcp-serve.js) compiled through V8's code cache, as extension.ts loads dist/host-core.js
// (bundle-loader.ts): a window's first chat or MCP use otherwise compiles a megabyte from source every
// time. Each is loaded once per extension host; its cache is written a few seconds after that first use
// (so it holds the code that use compiled), or when the window closes, whichever is first.
import * as path from 'path';
import type * as vscode from 'vscode';
import { loadBundle } from '../core/bundle-loader';
import { userCacheDir } from '../core/user-cache-dir';

/**
 * Long enough for the first use to be under way (the view resolved, the servers started), short enough
 * that a window used briefly still writes it: a write when the window closes rarely finishes.
 */
const SAVE_AFTER_MS = 5_000;

const loaded = new Map<string, unknown>();

/** `require(dist/<name>)` through the code cache; the same exports on every call. */
export function requireCachedBundle<T>(context: vscode.ExtensionContext, relPath: string): T {
  const file = context.asAbsolutePath(relPath);
  if (loaded.has(file)) return loaded.get(file) as T;
  const bundle = loadBundle(file, path.join(userCacheDir(), 'code-cache'));
  loaded.set(file, bundle.exports);
  const timer = setTimeout(() => void bundle.saveCache(), SAVE_AFTER_MS);
  timer.unref?.();
  context.subscriptions.push({ dispose: () => { clearTimeout(timer); void bundle.saveCache(); } });
  return bundle.exports as T;
}
