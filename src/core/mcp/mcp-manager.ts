// The servers of a window (or a CLI run) and their tools in the registry. Each server's tools are
// registered as `mcp_<server>__<tool>` (groups `mcp` and `mcp:<server>`) when it connects and again
// whenever its list changes (a `list_changed` notification, a reconnect), so the next request sees
// the change; a server's secrets are registered with the scrubber for as long as it runs. A server
// that fails to start is reported and leaves the others alone. When the servers bring more tools than
// pincer.mcp.maxEagerTools, they are registered deferred behind mcp_tool_search (tool-search.ts).
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { minimatch } from 'minimatch';
import { Emitter } from '../events';
import type { Scrubber } from '../guard/scrubber';
import type { Registry } from '../tools/registry';
import type { ResolvedServer } from './config-expand';
import { McpConnection, type McpConnectionOptions, type McpPromptInfo, type McpState } from './mcp-connection';
import { resourceAttachment, type ResourceAttachment } from './mcp-resource';
import { destructiveAsk, type DestructiveAskDeps } from './destructive-ask';
import { bridgeTool, DEFAULT_MCP_TIMEOUT_MS } from './mcp-tool';
import { bridgedToolNames, pairKey } from './tool-names';
import { TOOL_SEARCH_NAME, ToolSearchIndex, toolSearchTool } from './tool-search';

export const DEFAULT_MAX_EAGER_TOOLS = 40;

export interface McpManagerDeps {
  registry: Registry;
  scrubber: Scrubber;
  roots: () => readonly string[];
  /** A server's stderr and connection notes, scrubbed. */
  log?: (server: string, line: string) => void;
  clientVersion?: string;
  /** Asks before each call of a tool its server marks destructive; absent: such calls are refused. */
  approvals?: DestructiveAskDeps;
  /** Connection timings (tests shorten them). */
  connection?: Partial<Omit<McpConnectionOptions, 'roots' | 'log' | 'clientVersion' | 'elicit' | 'sample'>>;
  /** More MCP tools than this (pincer.mcp.maxEagerTools, default 40) are deferred behind mcp_tool_search. */
  maxEagerTools?: () => number;
  /** Answers a server's elicitation request (elicitation.ts); absent: not offered to servers. */
  elicit?: (server: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** Answers a server's sampling request (sampling.ts); absent: not offered to servers. */
  sample?: (server: string, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
}

export interface McpServerStatus {
  name: string;
  file: string;
  transport: string;
  state: McpState;
  error?: string;
  /** Pincer names of its registered tools. */
  tools: string[];
  /** True when its tools wait behind mcp_tool_search. */
  deferred: boolean;
}

interface Entry {
  conn: McpConnection;
  server: ResolvedServer;
  tools: string[];
  /** Its last stderr lines and connection notes, scrubbed (Show Output in the MCP Servers view). */
  output: string[];
  deferred: boolean;
}

/** Lines of output kept per server. */
const OUTPUT_KEPT = 1_000;

export class McpManager {
  /** A server was added, stopped, changed state or tools (the MCP Servers view and the status bar listen). */
  readonly onDidChange = new Emitter<void>();
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: McpManagerDeps) {}

  /**
   * Starts these servers and waits until each has connected or failed; answers the failures, one
   * message per server. A name already known keeps its connection (one that gave up reconnecting
   * tries again now); a changed definition is the caller's to stop first.
   */
  async start(servers: readonly ResolvedServer[]): Promise<{ server: string; error: string }[]> {
    const started = servers.map((s) => this.entries.get(s.def.name) ?? this.add(s));
    const outcomes = await Promise.all(started.map(async (e) => {
      try {
        await e.conn.connect();
        return undefined;
      } catch (err) {
        return { server: e.conn.name, error: (err as Error).message };
      }
    }));
    return outcomes.filter((o): o is { server: string; error: string } => o !== undefined);
  }

  async stop(name: string): Promise<void> {
    const e = this.entries.get(name);
    if (!e) return;
    this.entries.delete(name);
    await e.conn.close();
    for (const t of e.tools) this.deps.registry.unregister(t);
    this.sync();
    for (const s of e.server.secrets) if (!this.secretInUse(s)) this.deps.scrubber.unregister(s);
  }

  status(): McpServerStatus[] {
    return [...this.entries.values()].map((e) => ({
      name: e.conn.name, file: e.server.def.source.file, transport: e.server.def.transport,
      state: e.conn.state, error: e.conn.lastError, tools: [...e.tools], deferred: e.deferred,
    }));
  }

  /** Registers the tools again, deciding anew which wait behind mcp_tool_search (pincer.mcp.maxEagerTools changed). */
  refreshTools(): void {
    this.sync();
  }

  /** A server's kept output: stderr and connection notes, scrubbed, oldest first. */
  output(name: string): readonly string[] {
    return this.entries.get(name)?.output ?? [];
  }

  /** A server's resources (connecting first if it is down); undefined for a server not known. */
  async resources(name: string): Promise<{ uri: string; name: string; description?: string; mimeType?: string }[] | undefined> {
    return this.entries.get(name)?.conn.listResources();
  }

  /** One resource of a server as a chat attachment (mcp-resource.ts: capped, scrubbed); undefined for a server not known. */
  async readResource(name: string, uri: string): Promise<ResourceAttachment | undefined> {
    const e = this.entries.get(name);
    if (!e) return undefined;
    return resourceAttachment(name, uri, await e.conn.readResource(uri), (t) => this.deps.scrubber.scrub(t));
  }

  /** A server's prompts (connecting first if it is down); undefined for a server not known. */
  async prompts(name: string): Promise<McpPromptInfo[] | undefined> {
    return this.entries.get(name)?.conn.listPrompts();
  }

  /** The running definition of a server, to compare with a new one. */
  definition(name: string): ResolvedServer | undefined {
    return this.entries.get(name)?.server;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((n) => this.stop(n)));
  }

  private add(server: ResolvedServer): Entry {
    for (const s of server.secrets) this.deps.scrubber.register(s);
    const name = server.def.name;
    const output: string[] = [];
    const log = (line: string) => {
      const clean = this.deps.scrubber.scrub(line);
      output.push(`${new Date().toISOString()} ${clean}`);
      if (output.length > OUTPUT_KEPT) output.splice(0, output.length - OUTPUT_KEPT);
      this.deps.log?.(name, clean);
    };
    const { elicit, sample } = this.deps;
    const conn = new McpConnection(server, {
      ...this.deps.connection, clientVersion: this.deps.clientVersion ?? '0.0.0', roots: this.deps.roots, log,
      ...(elicit ? { elicit: (params, signal) => elicit(name, params, signal) } : {}),
      ...(sample ? { sample: (params, signal) => sample(name, params, signal) } : {}),
    });
    const entry: Entry = { conn, server, tools: [], deferred: false, output };
    this.entries.set(name, entry);
    conn.onToolsChanged.on(() => this.sync());
    conn.onStateChanged.on((s) => {
      if (s === 'failed' || s === 'closed') this.sync();
      this.onDidChange.fire();
    });
    return entry;
  }

  private secretInUse(value: string): boolean {
    return [...this.entries.values()].some((e) => e.server.secrets.includes(value));
  }

  /** Every server's current tools into the registry, named together so collisions resolve the same way each time. */
  private sync(): void {
    const reg = this.deps.registry;
    const ours = new Set([...this.entries.values()].flatMap((e) => e.tools));
    for (const n of ours) reg.unregister(n);
    reg.unregister(TOOL_SEARCH_NAME);
    const live = [...this.entries.values()].map((e) => ({ e, tools: e.conn.state === 'failed' || e.conn.state === 'closed' ? [] : e.conn.tools.filter((t) => permitted(e.server, t)) }));
    const taken = new Set(reg.list().map((t) => t.name));
    const names = bridgedToolNames(live.flatMap(({ e, tools }) => tools.map((t) => ({ server: e.conn.name, tool: t.name }))), taken);
    // A server may say always (deferTools: true) or never (false); the rest wait when they are too many together.
    const total = live.reduce((n, l) => n + l.tools.length, 0);
    const tooMany = total > (this.deps.maxEagerTools?.() ?? DEFAULT_MAX_EAGER_TOOLS);
    for (const { e } of live) e.deferred = e.server.def.deferTools ?? tooMany;
    for (const { e, tools } of live) {
      const timeoutMs = e.server.def.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
      e.tools = [];
      for (const t of [...tools].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const name = names.get(pairKey(e.conn.name, t.name))!;
        const destructive = t.annotations?.destructiveHint === true && t.annotations?.readOnlyHint !== true;
        const approvals = this.deps.approvals ?? NOBODY;
        const askFirst = destructive ? destructiveAsk(approvals, e.conn.name, t.name) : undefined;
        // The wait for the person's answer comes on top of the server's time.
        reg.register(bridgeTool(name, e.conn, t, timeoutMs + (askFirst ? approvals.approvalTimeoutMs() : 0), { askFirst, deferred: e.deferred }));
        e.tools.push(name);
      }
    }
    this.onDidChange.fire();
    const waiting = live.filter(({ e }) => e.deferred && e.tools.length > 0).map(({ e }) => e);
    if (waiting.length === 0) return;
    const index = new ToolSearchIndex(waiting.flatMap((e) => e.tools.map((n) => ({ name: n, description: reg.get(n)!.description }))));
    reg.register(toolSearchTool(reg, { index, servers: waiting.map((e) => e.conn.name), count: waiting.reduce((n, e) => n + e.tools.length, 0) }));
  }
}

const NOBODY: DestructiveAskDeps = { approver: () => undefined, approvalTimeoutMs: () => 0 };

/** The definition's `tools.allow` / `tools.deny` (names or globs of the server's own names); deny wins. */
function permitted(server: ResolvedServer, t: McpTool): boolean {
  const match = (patterns: readonly string[] | undefined) => patterns?.some((p) => minimatch(t.name, p)) ?? false;
  if (match(server.def.deny)) return false;
  return server.def.allow === undefined || match(server.def.allow);
}
