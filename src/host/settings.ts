// VS Code settings → core configuration. Changes apply to the running runtime at once (no reload);
// problems are shown once each, as a warning with a button that opens the setting.
import * as vscode from 'vscode';
import { readConfig, USER_ONLY_SETTINGS, type PincerConfig } from '../core/config';

export function readSettings(warn: (m: string) => void): PincerConfig {
  const cfg = vscode.workspace.getConfiguration('pincer');
  return readConfig((key) => {
    const inspected = cfg.inspect(key);
    // Only values someone set count; package.json defaults are the core's defaults too.
    if (!inspected) return undefined;
    // A repository's settings must not loosen what commands run or choose where keys are sent: user
    // settings only. A value in the workspace is ignored, and the person is told where it belongs.
    if (USER_ONLY_SETTINGS.has(key)) {
      if (inspected.workspaceValue !== undefined || inspected.workspaceFolderValue !== undefined) {
        warn(`pincer.${key} is set in this workspace's settings, where it is ignored: only your user settings can set it (a repository must not choose it for you). Move it to your user settings if you want it.`);
      }
      return inspected.globalValue ?? undefined;
    }
    return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? undefined;
  }, warn);
}

export function watchSettings(onChange: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('pincer')) onChange();
  });
}

/** Shows each distinct warning once per session of the window. */
export function createWarner(log: vscode.LogOutputChannel): (message: string) => void {
  const seen = new Set<string>();
  return (message) => {
    log.warn(message);
    if (seen.has(message)) return;
    seen.add(message);
    void vscode.window.showWarningMessage(`Pincer: ${message}`, 'Open Settings').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'pincer');
    });
  };
}
