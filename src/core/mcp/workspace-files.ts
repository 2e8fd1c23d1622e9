// Which workspace files hold MCP server definitions, on their own: the extension watches them from the
// runtime's load, while the reader of their contents (its schemas and JSONC parser) loads when MCP starts.

/** The workspace files read, in order; the first definition of a name wins. */
export const WORKSPACE_MCP_FILES: readonly string[] = ['.vscode/mcp.json', '.mcp.json', '.cursor/mcp.json'];
