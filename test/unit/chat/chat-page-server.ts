// The chat webview in a real browser, without VS Code: the bundle built from the sources into a
// temp folder, the page the host ships (chatHtml: same CSP, same nonce rule) served from a loopback
// server, and a stub `acquireVsCodeApi` in front of the bundle that records what the page posts,
// keeps setState across reloads (sessionStorage) and lets the test post protocol messages in.
// Shared by chat-webview.test.ts and bench/chat-webview.mjs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chatHtml } from '../../../src/core/chat/chat-html';
import { CHAT_STUB } from './chat-page-stub';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Launch flags of the host harness (test/host/run-host-tests.mjs), headless. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Builds dist-like chat.js / chat.css / codicons into a new temp folder (webview-ui/chat/build.mjs). */
export async function buildChatBundle(): Promise<{ dir: string; bytes: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-chat-webview-'));
  await new Promise<void>((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'webview-ui', 'chat', 'build.mjs'), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chat bundle build failed (${code}): ${err}`))));
  });
  return { dir, bytes: fs.statSync(path.join(dir, 'chat.js')).size };
}

/** Some of VS Code's Dark Modern colours, for screenshots that look like the real view (`/?theme`). */
const DARK_THEME = `html { --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace; --vscode-editor-font-size: 13px;
  --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-sideBar-background: #181818; --vscode-input-background: #313131;
  --vscode-input-foreground: #cccccc; --vscode-input-border: #3c3c3c; --vscode-focusBorder: #0078d4; --vscode-textLink-foreground: #4daafc;
  --vscode-textCodeBlock-background: #2b2b2b; --vscode-widget-border: #313131; --vscode-panel-border: #2b2b2b; --vscode-badge-background: #616161;
  --vscode-badge-foreground: #f8f8f8; --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-button-secondaryBackground: #313131;
  --vscode-button-secondaryForeground: #cccccc; --vscode-errorForeground: #f85149; --vscode-editorWidget-background: #202020;
  --vscode-list-hoverBackground: #2a2d2e; --vscode-list-inactiveSelectionBackground: #37373d; --vscode-charts-green: #89d185; }`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

export interface ChatPageServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the page on 127.0.0.1 with the files of `dir`; the stub runs before the bundle (same nonce). */
export async function serveChatPage(dir: string): Promise<ChatPageServer> {
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/') {
      const nonce = randomBytes(18).toString('base64');
      const html = chatHtml({ cspSource: origin, nonce, script: '/chat.js', style: '/chat.css', codicons: '/codicon.css' })
        .replace('<script nonce=', `<script nonce="${nonce}" src="/stub.js"></script>\n<script nonce=`)
        .replace('<title>', url.searchParams.has('theme') ? '<link rel="stylesheet" href="/theme.css"><title>' : '<title>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    if (url.pathname === '/theme.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(DARK_THEME);
      return;
    }
    if (url.pathname === '/stub.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(CHAT_STUB);
      return;
    }
    const name = path.basename(url.pathname);
    const file = path.join(dir, name);
    if (!/^[\w.-]+$/.test(name) || !fs.existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
