// VS Code settings → core configuration. Changes apply to the running runtime at once (no reload);
// problems are shown once each, as a warning with a button that opens the setting.
import * as vscode from 'vscode';
import { readConfig, settingsLookup, USER_ONLY_SETTINGS, type PincerConfig } from '../core/config';

/**
 * The defaults this extension declares (package.json's contributes.configuration), by full name
 * (`pincer.exec.sandbox.mode`): what readSettings compares against instead of the section's
 * defaultValue, which VS Code builds on each read (~2-4 ms of the first tool call).
 */
export function declaredDefaults(packageJSON: unknown): Record<string, unknown> {
  const configuration = (packageJSON as { contributes?: { configuration?: unknown } }).contributes?.configuration;
  const sections = (Array.isArray(configuration) ? configuration : [configuration]) as { properties?: Record<string, { default?: unknown }> }[];
  return Object.fromEntries(sections.flatMap((c) => Object.entries(c?.properties ?? {}).map(([key, p]) => [key, p.default])));
}

/**
 * `declared`: declaredDefaults' answer. Another extension may declare other defaults for these
 * settings (configurationDefaults): a merged value that differs from the declared default is then
 * read with an inspect of its own, as an unexplained value is (below), so the answer is the same.
 */
export function readSettings(warn: (m: string) => void, declared?: Record<string, unknown>): PincerConfig {
  const cfg = vscode.workspace.getConfiguration('pincer');
  // The whole `pincer` section in one inspect: each scope's value is the tree of the settings set
  // there (`{ exec: { sandbox: { mode } } }`). An inspect per key cost the first tool call ~40 ms.
  const section = vscode.workspace.getConfiguration().inspect<Record<string, unknown>>('pincer');
  const tree = (t: Record<string, unknown> | undefined) => settingsLookup({ pincer: t });
  const [user, workspace, folder] = [section?.globalValue, section?.workspaceValue, section?.workspaceFolderValue].map(tree);
  const defaults = declared ? settingsLookup(declared) : tree(section?.defaultValue);
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

/**
 * Whether two settings values are equal: JSON values (scalars, arrays, plain objects), compared by
 * structure. node:util's isDeepStrictEqual answered the same but loaded Node's comparison module on
 * its first use, ~1 ms of the first tool call.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
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
