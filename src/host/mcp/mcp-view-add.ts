// "Pincer: Add MCP Server…": asks for a name, the transport and the command line or URL, and where to
// keep it — the workspace's `.vscode/mcp.json` (VS Code's own format, comments and order kept) or the
// person's user settings (`pincer.mcp.servers`) — then writes it there. The MCP host sees the change
// like any other edit of those files and settings. The command line is split into argv by the same
// shell parser the exec judge uses, so quoting works as in a terminal and nothing is left ambiguous.
import * as vscode from 'vscode';
import { applyEdits, modify } from 'jsonc-parser';
import { parseCommand } from '../../core/exec/judge-lazy';

export interface AddServerRequest {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /** stdio: the command line (`npx -y @modelcontextprotocol/server-everything`). */
  commandLine?: string;
  /** http / sse: the server's URL. */
  url?: string;
  target: 'workspace' | 'user';
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Asks for what `request` does not give; answers where the server was written, or undefined when
 * cancelled. `taken`: the names of the servers already defined.
 */
export async function addMcpServer(folder: string | undefined, taken: ReadonlySet<string>, request?: Partial<AddServerRequest>): Promise<string | undefined> {
  const r = await complete(folder, taken, request ?? {});
  if (!r) return undefined;
  const entry = await serverEntry(r);
  if (typeof entry === 'string') {
    void vscode.window.showErrorMessage(`Pincer: ${entry}`);
    return undefined;
  }
  if (r.target === 'user') {
    const cfg = vscode.workspace.getConfiguration('pincer');
    const current = (cfg.inspect<Record<string, unknown>>('mcp.servers')?.globalValue ?? {});
    await cfg.update('mcp.servers', { ...current, [r.name]: entry }, vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(`Pincer: added the MCP server "${r.name}" to your user settings (pincer.mcp.servers).`);
    return 'user settings';
  }
  if (!folder) return undefined;
  const file = vscode.Uri.joinPath(vscode.Uri.file(folder), '.vscode', 'mcp.json');
  let text = '{\n  "servers": {}\n}\n';
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    // No file yet: it is created with the server in it.
  }
  if (!text.trim()) text = '{}';
  const edits = modify(text, ['servers', r.name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(applyEdits(text, edits)));
  void vscode.window.showInformationMessage(`Pincer: added the MCP server "${r.name}" to .vscode/mcp.json.`);
  return file.fsPath;
}

async function complete(folder: string | undefined, taken: ReadonlySet<string>, r: Partial<AddServerRequest>): Promise<AddServerRequest | undefined> {
  const transport = r.transport ?? (await vscode.window.showQuickPick([
    { label: 'Command (stdio)', description: 'a program Pincer starts, talking over its standard input and output', value: 'stdio' as const },
    { label: 'HTTP', description: 'a URL: streamable HTTP, falling back to SSE', value: 'http' as const },
    { label: 'SSE', description: 'a URL of an older server that only speaks SSE', value: 'sse' as const },
  ], { placeHolder: 'How does Pincer reach the server?' }))?.value;
  if (!transport) return undefined;
  const name = r.name ?? await vscode.window.showInputBox({
    prompt: 'A name for the server (its tools are called mcp_<name>__<tool>)', ignoreFocusOut: true,
    validateInput: (v) => (!NAME.test(v) ? 'Letters, digits, _ . - (start with a letter or digit; at most 64)' : taken.has(v) ? `"${v}" is already defined` : undefined),
  });
  if (!name) return undefined;
  if (!NAME.test(name) || taken.has(name)) {
    void vscode.window.showErrorMessage(`Pincer: "${name}" ${taken.has(name) ? 'is already defined' : 'is not a valid server name'}; nothing was written.`);
    return undefined;
  }
  const commandLine = transport === 'stdio'
    ? r.commandLine ?? await vscode.window.showInputBox({ prompt: 'The command line that starts it', placeHolder: 'npx -y @modelcontextprotocol/server-everything', ignoreFocusOut: true })
    : undefined;
  const url = transport !== 'stdio'
    ? r.url ?? await vscode.window.showInputBox({ prompt: 'The server\'s URL', placeHolder: 'https://example.com/mcp', ignoreFocusOut: true, validateInput: (v) => (validUrl(v) ? undefined : 'An http:// or https:// URL') })
    : undefined;
  if (transport === 'stdio' ? !commandLine : !url) return undefined;
  const target = r.target ?? (await vscode.window.showQuickPick([
    ...(folder ? [{ label: 'This workspace', description: '.vscode/mcp.json (shared with the repository; asks before its first start)', value: 'workspace' as const }] : []),
    { label: 'User settings', description: 'pincer.mcp.servers (yours, in every workspace)', value: 'user' as const },
  ], { placeHolder: 'Where should the server be kept?' }))?.value;
  if (!target) return undefined;
  return { name, transport, commandLine, url, target };
}

/** The definition in `.vscode/mcp.json`'s shape, or what is wrong with the command line or URL. */
async function serverEntry(r: AddServerRequest): Promise<Record<string, unknown> | string> {
  if (r.transport !== 'stdio') return validUrl(r.url ?? '') ? { type: r.transport, url: r.url } : `"${r.url}" is not an http:// or https:// URL.`;
  const parsed = await parseCommand(r.commandLine ?? '');
  const [segment, ...more] = parsed.segments.filter((s) => s.context === 'top');
  if (!segment || more.length || segment.assignments.length || segment.redirects.length || parsed.problems.length || segment.argv.some((w) => w.dynamic)) {
    return 'the command line must be one program with its arguments: no pipes, lists, redirects, variables or substitutions (they would need a shell, and MCP servers start without one).';
  }
  const [command, ...args] = segment.argv.map((w) => w.text);
  return { type: 'stdio', command, args };
}

function validUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
