// The ripgrep the search benchmarks compare against: the one inside the VS Code the host tests use
// (found by the same locator the extension uses), else one on PATH.
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { locateRipgrep } = require(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', process.env.PINCER_OUT ?? 'out', 'src', 'core', 'fs', 'ripgrep-locate.js'));

export function findRipgrep() {
  const appRoot = path.join(process.env.VSCODE_HOST_DIR || path.join(os.homedir(), '.cache', 'vscode-host'), 'node_modules', 'code-server', 'lib', 'vscode');
  const vscodeRg = locateRipgrep([appRoot], { pathEnv: '' });
  if (vscodeRg) return [vscodeRg, 'ripgrep shipped with VS Code (@vscode/ripgrep-universal)'];
  const onPath = locateRipgrep([]);
  return onPath ? [onPath, `ripgrep on PATH (${onPath})`] : [];
}
