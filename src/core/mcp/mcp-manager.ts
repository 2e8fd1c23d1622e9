// The servers of a window (or a CLI run) and their tools in the registry. Each server's tools are
// registered as `mcp_<server>__<tool>` (groups `mcp` and `mcp:<server>`) when it connects and again
// whenever its list changes (a `list_changed` notification, a reconnect), so the next request sees
// the change; a server's secrets are registered with the scrubber for as long as it runs. A server
// that fails to start is reported and leaves the others alone.
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { minimatch } from 'minimatch';
import type { Scrubber } from '../guard/scrubber';
import type { Registry } from '../tools/registry';
import type { ResolvedServer } from './config-expand';
import { McpConnection, type McpConnectionOptions, type McpState } from './mcp-connection';
import { destructiveAsk, type DestructiveAskDeps } from './destructive-ask';
import { bridgeTool, DEFAULT_MCP_TIMEOUT_MS } from './mcp-tool';
import { bridgedToolNames, pairKey } from './tool-names';

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
  connection?: Partial<Omit<McpConnectionOptions, 'roots' | 'log' | 'clientVersion'>>;
}

export interface McpServerStatus {
  name: string;
  file: string;
  transport: string;
  state: McpState;
  error?: string;
  /** Pincer names of its registered tools. */
  tools: string[];
}

interface Entry {
  conn: McpConnection;
  server: ResolvedServer;
  tools: string[];
}

export class McpManager {
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
      state: e.conn.state, error: e.conn.lastError, tools: [...e.tools],
    }));
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
    const log = (line: string) => this.deps.log?.(name, this.deps.scrubber.scrub(line));
    const conn = new McpConnection(server, { ...this.deps.connection, clientVersion: this.deps.clientVersion ?? '0.0.0', roots: this.deps.roots, log });
    const entry: Entry = { conn, server, tools: [] };
    this.entries.set(name, entry);
    conn.onToolsChanged.on(() => this.sync());
    conn.onStateChanged.on((s) => {
      if (s === 'failed' || s === 'closed') this.sync();
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
    const live = [...this.entries.values()].map((e) => ({ e, tools: e.conn.state === 'failed' || e.conn.state === 'closed' ? [] : e.conn.tools.filter((t) => permitted(e.server, t)) }));
    const taken = new Set(reg.list().map((t) => t.name));
    const names = bridgedToolNames(live.flatMap(({ e, tools }) => tools.map((t) => ({ server: e.conn.name, tool: t.name }))), taken);
    for (const { e, tools } of live) {
      const timeoutMs = e.server.def.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
      e.tools = [];
      for (const t of [...tools].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const name = names.get(pairKey(e.conn.name, t.name))!;
        const destructive = t.annotations?.destructiveHint === true && t.annotations?.readOnlyHint !== true;
        const approvals = this.deps.approvals ?? NOBODY;
        const askFirst = destructive ? destructiveAsk(approvals, e.conn.name, t.name) : undefined;
        // The wait for the person's answer comes on top of the server's time.
        reg.register(bridgeTool(name, e.conn, t, timeoutMs + (askFirst ? approvals.approvalTimeoutMs() : 0), askFirst));
        e.tools.push(name);
      }
    }
  }
}

const NOBODY: DestructiveAskDeps = { approver: () => undefined, approvalTimeoutMs: () => 0 };

/** The definition's `tools.allow` / `tools.deny` (names or globs of the server's own names); deny wins. */
function permitted(server: ResolvedServer, t: McpTool): boolean {
  const match = (patterns: readonly string[] | undefined) => patterns?.some((p) => minimatch(t.name, p)) ?? false;
  if (match(server.def.deny)) return false;
  return server.def.allow === undefined || match(server.def.allow);
}
