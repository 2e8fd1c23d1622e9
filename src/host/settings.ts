// VS Code settings → core configuration. Changes apply to the running runtime at once (no reload);
// problems are shown once each, as a warning with a button that opens the setting.
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { readConfig, settingsLookup, USER_ONLY_SETTINGS, type PincerConfig } from '../core/config';

export function readSettings(warn: (m: string) => void): PincerConfig {
  const cfg = vscode.workspace.getConfiguration('pincer');
  // The whole `pincer` section in one inspect: each scope's value is the tree of the settings set
  // there (`{ exec: { sandbox: { mode } } }`). An inspect per key cost the first tool call ~40 ms.
  const section = vscode.workspace.getConfiguration().inspect<Record<string, unknown>>('pincer');
  const tree = (t: Record<string, unknown> | undefined) => settingsLookup({ pincer: t });
  const [defaults, user, workspace, folder] = [section?.defaultValue, section?.globalValue, section?.workspaceValue, section?.workspaceFolderValue].map(tree);
  // The merged view of the section, also read once (a cfg.get per key cost a call per unset setting):
  // the configuration object's own values (vscode.d.ts: the "readable dictionary that backs this
  // configuration"). get('pincer') gave the same values behind a proxy that wraps every nested value
  // read in a proxy of its own, and comparing through those cost the first tool call ~10 ms.
  const merged = tree(Object.fromEntries(Object.entries(cfg).filter(([, v]) => typeof v !== 'function')));
  const scopes = (key: string) => {
    const s = { user: user(key), workspace: workspace(key), folder: folder(key) };
    // The section's user tree hides application-scoped values kept apart from it (in a profile other
    // than the default, those come from the default profile's settings): a value the merged view
    // shows that no scope above explains is read with an inspect of its own.
    if (s.user === undefined && !sameValue(merged(key), s.folder ?? s.workspace ?? defaults(key))) {
      const i = cfg.inspect(key);
      return { user: i?.globalValue, workspace: i?.workspaceValue, folder: i?.workspaceFolderValue };
    }
    return s;
  };
  return readConfig((key) => {
    // Only values someone set count; package.json defaults are the core's defaults too.
    const s = scopes(key);
    // A repository's settings must not loosen what commands run or choose where keys are sent: user
    // settings only. A value in the workspace is ignored, and the person is told where it belongs.
    if (USER_ONLY_SETTINGS.has(key)) {
      if (s.workspace !== undefined || s.folder !== undefined) {
        warn(`pincer.${key} is set in this workspace's settings, where it is ignored: only your user settings can set it (a repository must not choose it for you). Move it to your user settings if you want it.`);
      }
      return s.user ?? undefined;
    }
    return s.folder ?? s.workspace ?? s.user ?? undefined;
  }, warn);
}

/** isDeepStrictEqual, without its cost where a plain comparison decides (most settings are unset or a scalar). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  return isDeepStrictEqual(a, b);
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
