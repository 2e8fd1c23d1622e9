// Where custom tools are defined: `pincer.tools.custom` in the person's settings, then (only in a
// trusted workspace, as they run programs a repository chose) the workspace's own settings and its
// `.pincer/tools/*.json` files, read in name order. The first definition of a name wins; a later one,
// and every broken one, is reported with its file and field and left out. Nothing here runs anything.
import fs from 'node:fs';
import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import type { CustomToolDefinition, CustomToolSource } from './definition';

/**
 * The definitions' schemas and the JSONC parser, required when there is a definition to read: a window
 * with no custom tools (most) does not evaluate them when the runtime loads. Literal paths, so that
 * esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const definition = () => require('./definition') as typeof import('./definition');
const jsonc = () => require('jsonc-parser') as typeof import('jsonc-parser');
/* eslint-enable @typescript-eslint/no-require-imports */

/** The workspace folder that holds definition files, one tool (or an array of tools) per `*.json`. */
export const CUSTOM_TOOLS_DIR = path.join('.pincer', 'tools');

export interface CustomToolsInput {
  /** `pincer.tools.custom` from the person's own settings, and where that is (for messages). */
  user?: { value: unknown; file: string };
  /** `pincer.tools.custom` from the workspace's settings. */
  workspace?: { value: unknown; file: string };
  /** The primary workspace folder on a local disk; its `.pincer/tools/` is read. */
  workspaceFolder?: string;
  /** Workspace-defined tools are read only when the workspace is trusted (the CLI: --trust-workspace). */
  workspaceTrusted: boolean;
}

export interface CustomToolsRead {
  definitions: CustomToolDefinition[];
  /** `<file>: <field>: <what is wrong>`: that tool is not registered. */
  problems: string[];
  /** Workspace sources not read, and why (an untrusted workspace). */
  skipped: { file: string; reason: string }[];
}

export function readCustomTools(input: CustomToolsInput): CustomToolsRead {
  const out: CustomToolsRead = { definitions: [], problems: [], skipped: [] };
  const add = (value: unknown, source: CustomToolSource) => {
    const r = definition().readDefinitions(value, source);
    out.problems.push(...r.problems);
    for (const d of r.definitions) {
      const first = out.definitions.find((x) => x.name === d.name);
      if (first) out.problems.push(`${source.file}: name: "${d.name}" is already defined in ${first.source.file}; this one is not registered`);
      else out.definitions.push(d);
    }
  };
  if (input.user?.value !== undefined) add(input.user.value, { file: input.user.file, workspace: false });
  const workspaceSources = [
    ...(input.workspace?.value !== undefined ? [{ file: input.workspace.file, value: () => input.workspace!.value }] : []),
    ...definitionFiles(input.workspaceFolder).map((file) => ({ file, value: () => readFile(file) })),
  ];
  for (const s of workspaceSources) {
    if (!input.workspaceTrusted) {
      out.skipped.push({ file: s.file, reason: 'the workspace is not trusted, and its custom tools run programs it chose' });
      continue;
    }
    const v = s.value();
    if (v instanceof FileProblem) out.problems.push(v.message);
    else add(v, { file: s.file, workspace: true });
  }
  return out;
}

/** The definition files of a workspace, sorted by name (so the first of two same-named tools is stable). */
export function definitionFiles(workspaceFolder: string | undefined): string[] {
  if (!workspaceFolder) return [];
  const dir = path.join(workspaceFolder, CUSTOM_TOOLS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).sort().map((n) => path.join(dir, n));
}

class FileProblem {
  constructor(readonly message: string) {}
}

function readFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return new FileProblem(`${file}: cannot be read: ${(e as Error).message}`);
  }
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = jsonc();
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length) return new FileProblem(`${file}: (file): ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`);
  return value;
}
