// Custom tools in the CLI: those in --config's `pincer.tools.custom` load as they are; the workspace's
// (its `.vscode/settings.json` and `.pincer/tools/*.json`) only with --trust-workspace, as there is no
// one to ask and they run programs the repository chose. A `${secret:NAME}` is read from the
// environment variable PINCER_TOOL_SECRET_<NAME> (upper case, other characters as `_`).
import fs from 'node:fs';
import path from 'node:path';
import { settingsLookup } from '../core/config';
import type { CustomToolSecrets } from '../core/customtools/custom-tool';
import type { CustomToolDefinition } from '../core/customtools/definition';
import { readCustomTools } from '../core/customtools/sources';
import { readJsonc } from './cli-config';
import type { Values } from './main';

export function secretVariable(name: string): string {
  return `PINCER_TOOL_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export interface CliCustomTools {
  definitions: () => readonly CustomToolDefinition[];
  secrets: CustomToolSecrets;
}

export function cliCustomTools(values: Values, root: string, warn: (m: string) => void): CliCustomTools {
  const setting = (file: string) => settingsLookup(readJsonc(file))('tools.custom');
  const ws = path.join(root, '.vscode', 'settings.json');
  const read = readCustomTools({
    user: values.config ? { value: setting(values.config), file: values.config } : undefined,
    workspace: fs.existsSync(ws) ? { value: setting(ws), file: ws } : undefined,
    workspaceFolder: root,
    workspaceTrusted: !!values['trust-workspace'] && !values.untrusted,
  });
  for (const p of read.problems) warn(`custom tool: ${p}`);
  const how = values.untrusted ? 'not with --untrusted' : 'pass --trust-workspace to load them';
  for (const s of read.skipped) warn(`custom tools in ${s.file} not loaded: they run programs the workspace chose (${how})`);
  return {
    definitions: () => read.definitions,
    secrets: {
      get: async (name) => process.env[secretVariable(name)],
      howToSet: (name) => `Set the environment variable ${secretVariable(name)} for the pincer run.`,
    },
  };
}
