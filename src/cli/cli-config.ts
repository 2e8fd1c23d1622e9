// Where the CLI finds its settings: the workspace's `.vscode/settings.json` (the same `pincer.*` keys
// the extension reads, so scripts and the editor agree), then an optional --config file on top.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readConfig, settingsLookup, USER_ONLY_SETTINGS, type PincerConfig } from '../core/config';
import { UsageError } from './usage-error';

export function readJsonc(file: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parseJsonc(fs.readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
  if (errors.length) {
    const e = errors[0];
    throw new UsageError(`${file}: ${printParseErrorCode(e.error)} at offset ${e.offset}; fix the file or leave it out.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${file}: expected a JSON object.`);
  return value as Record<string, unknown>;
}

export function loadCliConfig(workspace: string | undefined, configFile: string | undefined, warn: (m: string) => void): PincerConfig {
  // The workspace's file is the repository's word; --config is the person's. Settings that could
  // loosen what commands run are taken from --config only, as the editor takes them from user settings.
  const layers: { lookup: (key: string) => unknown; person: boolean }[] = [];
  if (configFile) {
    if (!fs.existsSync(configFile)) throw new UsageError(`--config ${configFile}: no such file.`);
    layers.push({ lookup: settingsLookup(readJsonc(configFile)), person: true });
  }
  if (workspace) {
    const ws = path.join(workspace, '.vscode', 'settings.json');
    if (fs.existsSync(ws)) layers.push({ lookup: settingsLookup(readJsonc(ws)), person: false });
  }
  return readConfig((key) => {
    for (const l of layers) {
      if (!l.person && USER_ONLY_SETTINGS.has(key)) continue;
      const v = l.lookup(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }, warn);
}
