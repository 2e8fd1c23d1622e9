// Where the CLI's store lives, apart from the store itself, so `pincer hook` can find and open the
// database without loading the rest of the CLI's store (memory, sessions, agent definitions).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Linux and the BSDs: $XDG_STATE_HOME (else ~/.local/state)/pincer/<id>; macOS: ~/Library/Application
 * Support/pincer/<id>; Windows: %LOCALAPPDATA%\pincer\<id>. The id is a hash of the workspace's real
 * path, so every way of naming one folder finds one store.
 */
export function defaultStateDir(workspace: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  const id = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  const base = platform === 'win32' ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
    : platform === 'darwin' ? path.join(home, 'Library', 'Application Support')
      : env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(base, 'pincer', id);
}

/** The database's worker: beside the bundle (dist/storage-worker.js), or under core/storage in the compiled sources. */
export function storageWorkerPath(): string {
  const beside = path.join(__dirname, 'storage-worker.js');
  return fs.existsSync(beside) ? beside : path.join(__dirname, '..', 'core', 'storage', 'storage-worker.js');
}
