// Which browser the browser tool drives: the one the person named in pincer.browser.executablePath,
// else the first Chrome, Chromium or Edge found where their installers put them. Pincer downloads no
// browser of its own; when none is found the error says how to install one and which setting to set.
import path from 'node:path';
import { isExecutableFile } from '../fs/executable-file';

export class BrowserNotFound extends Error {
  override readonly name = 'BrowserNotFound';
}

/** The usual install paths of Chrome, Chromium and Edge, per platform, most common first. */
export function candidatePaths(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') {
    return ['Google Chrome', 'Chromium', 'Microsoft Edge', 'Google Chrome Canary'].flatMap((app) => {
      const bundle = `${app}.app/Contents/MacOS/${app}`;
      return [path.join('/Applications', bundle), path.join(env.HOME ?? '', 'Applications', bundle)];
    });
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      path.win32.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      path.win32.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      path.win32.join(r, 'Chromium', 'Application', 'chrome.exe'),
    ]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome', '/usr/bin/microsoft-edge', '/usr/bin/microsoft-edge-stable', '/snap/bin/chromium'];
}

export function installAdvice(platform: NodeJS.Platform = process.platform): string {
  const how = platform === 'darwin' ? 'install Google Chrome (or Chromium, or Microsoft Edge)'
    : platform === 'win32' ? 'install Google Chrome or Microsoft Edge'
      : 'install Chromium (Debian/Ubuntu: `sudo apt install chromium`; Fedora: `sudo dnf install chromium`) or Google Chrome';
  return `To use the browser tool, ${how}, or set the user setting pincer.browser.executablePath to the path of a Chrome, Chromium or Edge executable.`;
}

/** The executable to launch, or BrowserNotFound saying what was looked for and how to fix it. */
export function findBrowser(configured: string | undefined, exists: (p: string) => boolean = isExecutableFile): string {
  if (configured) {
    if (exists(configured)) return configured;
    throw new BrowserNotFound(`pincer.browser.executablePath is "${configured}", which is not an executable file. ${installAdvice()}`);
  }
  const found = candidatePaths().find(exists);
  if (found) return found;
  throw new BrowserNotFound(`No Chrome, Chromium or Edge was found (looked in ${candidatePaths().join(', ')}). ${installAdvice()}`);
}

