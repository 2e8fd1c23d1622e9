// Where the CLI finds its settings: the workspace's `.vscode/settings.json` (the same `pincer.*` keys
// the extension reads, so scripts and the editor agree), then an optional --config file on top.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readConfig, settingsLookup, type PincerConfig } from '../core/config';

export class UsageError extends Error {}

function readJsonc(file: string): Record<string, unknown> {
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
  const layers: Record<string, unknown>[] = [];
  if (workspace) {
    const ws = path.join(workspace, '.vscode', 'settings.json');
    if (fs.existsSync(ws)) layers.push(readJsonc(ws));
  }
  if (configFile) {
    if (!fs.existsSync(configFile)) throw new UsageError(`--config ${configFile}: no such file.`);
    layers.push(readJsonc(configFile));
  }
  const lookups = layers.map(settingsLookup).reverse();
  return readConfig((key) => {
    for (const l of lookups) {
      const v = l(key);
      if (v !== undefined) return v;
    }
    return undefined;
  }, warn);
}
