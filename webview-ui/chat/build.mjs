// The chat webview's build: dist/webview/chat.js (browser, iife, minified), chat.css and the codicon
// font it uses, and chat-highlight.js, which the page loads when a code block first needs it.
// esbuild.mjs builds it with everything else; the browser tests and the benchmark run this file
// alone into a folder of their own: `node webview-ui/chat/build.mjs OUT_DIR`.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

/** esbuild options for chat.js and the highlighter it loads on first need, chat-highlight.js (minified, linked source maps). */
export function chatBuildOptions(outDir) {
  return {
    entryPoints: { chat: path.join(here, 'main.ts'), 'chat-highlight': path.join(here, 'highlight-chunk.ts') }, outdir: outDir,
    bundle: true, minify: true, sourcemap: 'linked', legalComments: 'none', logLevel: 'warning',
    platform: 'browser', format: 'iife', target: 'chrome120',
    // The browser's URL parser does what markdown-it asks of punycode.js (see the file).
    alias: { 'punycode.js': path.join(here, 'punycode-lite.ts') },
  };
}

/** chat.css and the codicons (the font the icons are drawn with; CC-BY-4.0, from @vscode/codicons). */
export function copyChatAssets(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  fs.copyFileSync(path.join(here, 'style.css'), path.join(outDir, 'chat.css'));
  const codicons = path.join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(codicons, f), path.join(outDir, f));
}

export async function buildChat(outDir) {
  copyChatAssets(outDir);
  await esbuild.build(chatBuildOptions(outDir));
  return {
    script: path.join(outDir, 'chat.js'), bytes: fs.statSync(path.join(outDir, 'chat.js')).size,
    highlightBytes: fs.statSync(path.join(outDir, 'chat-highlight.js')).size,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'webview'));
  const { bytes, highlightBytes } = await buildChat(out);
  console.log(`chat webview: ${path.relative(root, out) || '.'}/chat.js ${(bytes / 1024).toFixed(1)} KB (chat-highlight.js ${(highlightBytes / 1024).toFixed(1)} KB, loaded on first need)`);
}
