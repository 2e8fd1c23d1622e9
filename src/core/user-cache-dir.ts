// Where Pincer keeps what it can always rebuild (compiled code): the person's cache directory, never
// the repository and never the settings or state folders a backup would copy.
import os from 'node:os';
import path from 'node:path';

/**
 * Linux and the BSDs: $XDG_CACHE_HOME (else ~/.cache)/pincer; macOS: ~/Library/Caches/pincer;
 * Windows: %LOCALAPPDATA%\pincer\Cache.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'pincer', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'pincer');
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'pincer');
}
