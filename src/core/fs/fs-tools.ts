// The filesystem toolset, built from one set of dependencies so every tool resolves paths through the
// same guard and writes through the same reviewer. Write tools wait for a person's review, so they
// are interactive: no default time limit and no slow-tool notice while the diff is open.
import type { Tool } from '../tools/types';
import { createApplyPatchTool } from './tools/apply-patch';
import { createEditTool } from './tools/edit';
import { createGlobTool } from './tools/glob';
import { createGrepTool } from './tools/grep';
import { createListFilesTool } from './tools/list-files';
import { createReadFileTool } from './tools/read-file';
import { createWriteFileTool } from './tools/write-file';
import type { FsToolDeps } from './types';

export interface FsToolsOptions {
  /** ripgrep for grep (locateRipgrep's answer); undefined: grep's worker fallback. */
  rgPath?: string;
  denyPaths?: readonly string[];
  home?: string;
  maxResultChars?: number;
}

export function createFsTools(deps: FsToolDeps, opts: FsToolsOptions = {}): Tool[] {
  const writes = [createWriteFileTool(deps), createEditTool(deps), createApplyPatchTool(deps)]
    .map((t) => ({ ...t, interactive: true }) as Tool);
  return [
    createReadFileTool(deps, { maxResultChars: opts.maxResultChars }),
    createListFilesTool(deps),
    createGlobTool(deps),
    createGrepTool(deps, { rgPath: opts.rgPath, denyPaths: opts.denyPaths, home: opts.home }) as unknown as Tool,
    ...writes,
  ];
}

export const FS_TOOL_NAMES = ['read_file', 'list_files', 'glob', 'grep', 'write_file', 'edit', 'apply_patch'] as const;
