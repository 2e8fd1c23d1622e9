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
    // A repository's settings must not loosen what commands may run: user settings only.
    if (USER_ONLY_SETTINGS.has(key)) return inspected.globalValue ?? undefined;
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
