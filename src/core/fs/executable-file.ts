// Whether a path names a regular file this process may execute (a directory with the x bit does not count).
import fs from 'node:fs';

export function isExecutableFile(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
