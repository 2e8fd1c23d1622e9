// Which tools a virtual workspace (virtual-folders.ts) cannot offer, and why. The file tools work
// there through the WorkspaceFs port; these need a folder on the local disk to run processes in, so
// they are left out of the toolset (the model is never offered them) and Show Effective Tools lists
// them with this reason.
import type { VirtualFolder } from './virtual-folders';

export interface HiddenTool {
  tool: string;
  reason: string;
}

/** The tools that need a local folder, with what each does there. */
const NEEDS_LOCAL_FOLDER: Readonly<Record<string, string>> = {
  exec: 'runs commands in a folder on the local disk',
  process: 'manages the commands exec started',
  credentialed_exec: 'runs commands with a credential in a folder on the local disk',
};

/** The tools of `toolNames` to hide for these virtual folders; none when there are none. */
export function hiddenForVirtualWorkspace(toolNames: readonly string[], folders: readonly VirtualFolder[]): HiddenTool[] {
  if (!folders.length) return [];
  const schemes = [...new Set(folders.map((f) => `${f.scheme}:`))].join(', ');
  return toolNames.filter((t) => t in NEEDS_LOCAL_FOLDER).map((tool) => ({
    tool,
    reason: `${tool} ${NEEDS_LOCAL_FOLDER[tool]}, and this is a virtual workspace: its folders (${schemes}) are served by a file system provider, with no local folder to run in.`,
  }));
}
