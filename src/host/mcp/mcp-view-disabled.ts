// Servers the person disabled from the MCP Servers view: kept per workspace, so a server stays stopped
// across reloads until it is enabled again there. Read by the MCP host before it starts servers.
import type * as vscode from 'vscode';

const DISABLED_SERVERS_KEY = 'pincer.mcp.disabledServers';

export function disabledServers(state: vscode.Memento): ReadonlySet<string> {
  return new Set(state.get<string[]>(DISABLED_SERVERS_KEY, []));
}

export async function setServerDisabled(state: vscode.Memento, name: string, disabled: boolean): Promise<void> {
  const now = new Set(disabledServers(state));
  if (disabled) now.add(name);
  else now.delete(name);
  await state.update(DISABLED_SERVERS_KEY, [...now].sort());
}
