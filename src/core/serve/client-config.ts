// Ready-to-paste configuration for the MCP clients people use, pointing at a Pincer server served over
// streamable HTTP with its bearer token: Claude Code's `claude mcp add`, Codex's config.toml, and the
// `mcpServers` JSON read by Cursor and Cline. Which keys each client reads is its documented format.

/** One shell word, single-quoted unless it is plain. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function clientConfigSnippets(url: string, token: string): string {
  const header = `Authorization: Bearer ${token}`;
  return [
    '# Claude Code',
    `claude mcp add --transport http pincer ${shellWord(url)} --header ${shellWord(header)}`,
    '',
    // Codex takes a bearer token from an environment variable only, never inline in its file.
    `# Codex: ~/.codex/config.toml, after: export PINCER_MCP_TOKEN=${shellWord(token)}`,
    '[mcp_servers.pincer]',
    `url = ${JSON.stringify(url)}`,
    'bearer_token_env_var = "PINCER_MCP_TOKEN"',
    '',
    '# Cursor (.cursor/mcp.json), Cline (MCP settings)',
    JSON.stringify({ mcpServers: { pincer: { url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
    '',
  ].join('\n');
}
