// The hook tests run the real CLI (`pincer hook <format>`) on event payloads shaped as each agent's
// hooks reference documents them, in a temp workspace with a temp state directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

export interface HookRun {
  code: number | null;
  out: string;
  err: string;
  /** stdout as JSON (undefined when nothing was printed). */
  json?: Record<string, unknown>;
}

export interface HookPlace {
  /** The workspace (real path), with src/app.ts and a .git folder (denied to the file tools by default). */
  ws: string;
  /** A file beside the workspace. */
  outside: string;
  env: Record<string, string>;
  hook(format: string, event: unknown, args?: string[], env?: Record<string, string>): HookRun;
  pincer(args: string[]): HookRun;
  dispose(): void;
}

export function hookPlace(): HookPlace {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-hook-')));
  const ws = path.join(top, 'project');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  fs.mkdirSync(path.join(ws, '.git'));
  fs.writeFileSync(path.join(ws, '.git', 'config'), '[remote "origin"]\n');
  const outside = path.join(top, 'outside.txt');
  fs.writeFileSync(outside, 'outside\n');
  const env: Record<string, string> = { ...process.env as Record<string, string>, XDG_STATE_HOME: path.join(top, 'xdg') };
  delete env.CLAUDE_PROJECT_DIR;
  const run = (args: string[], input?: string, extra: Record<string, string> = {}): HookRun => {
    const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', timeout: 30_000, env: { ...env, ...extra }, cwd: top });
    const out = r.stdout;
    return { code: r.status, out, err: r.stderr, json: args[0] === 'hook' && out.trim() ? JSON.parse(out) as Record<string, unknown> : undefined };
  };
  return {
    ws, outside, env,
    hook: (format, event, args = [], extra = {}) => run(['hook', format, ...args], typeof event === 'string' ? event : JSON.stringify(event), extra),
    pincer: (args) => run(args),
    dispose: () => fs.rmSync(top, { recursive: true, force: true }),
  };
}
