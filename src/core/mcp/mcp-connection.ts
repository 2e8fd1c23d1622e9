// One MCP server, kept connected. It starts the server (a child process over stdio, or a URL over
// streamable HTTP or SSE; `http` tries streamable HTTP and falls back to SSE), lists its tools, calls
// them with the caller's signal (the SDK sends `notifications/cancelled` when it aborts), pings it,
// and when the connection drops it fails the calls in flight at once with the reason (never a hang)
// and reconnects with backoff. It knows nothing of Pincer's registry: the manager listens to it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, ListToolsResultSchema,
  type CallToolResult, type ClientCapabilities, type CreateMessageRequest, type CreateMessageResult, type ElicitRequest, type ElicitResult, type ReadResourceResult, type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { Emitter } from '../events';
import type { ResolvedServer } from './config-expand';
import { NO_CHECKS, readAnswer, refusedCall, toolChecks, UNREAD, type ToolChecks } from './tool-answers';

export type McpState = 'starting' | 'connected' | 'disconnected' | 'failed' | 'closed';

export interface McpConnectionOptions {
  clientVersion: string;
  /** Folders offered to the server as roots. */
  roots: () => readonly string[];
  /** The server's stderr and Pincer's notes about it, line by line (scrub before showing). */
  log: (line: string) => void;
  connectTimeoutMs?: number;
  pingEveryMs?: number;
  /** Pings missed in a row before the server counts as disconnected. */
  maxMissedPings?: number;
  reconnect?: { firstDelayMs: number; maxDelayMs: number; attempts: number };
  /** Runs `fire` after `ms` and returns a cancel: the reconnect backoff's timer (tests hold the clock). */
  after?: (ms: number, fire: () => void) => () => void;
  /** Answers the server's elicitation requests; absent: the capability is not offered. */
  elicit?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** Answers the server's sampling requests; absent: the capability is not offered. */
  sample?: (params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
}

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: { name: string; required: boolean }[];
}

export type ProgressListener = (progress: number, total?: number, message?: string) => void;

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: ProgressListener;
}

function afterTimer(ms: number, fire: () => void): () => void {
  const t = setTimeout(fire, ms);
  // A retry pending must not keep a CLI run alive.
  t.unref();
  return () => clearTimeout(t);
}

const DEFAULTS = {
  connectTimeoutMs: 30_000, pingEveryMs: 30_000, maxMissedPings: 3,
  reconnect: { firstDelayMs: 2_000, maxDelayMs: 60_000, attempts: 10 }, after: afterTimer,
};
const STDERR_KEPT = 20;

export class McpConnection {
  readonly onToolsChanged = new Emitter<readonly McpTool[]>();
  readonly onStateChanged = new Emitter<McpState>();
  private client?: Client;
  private connecting?: Promise<readonly McpTool[]>;
  private stateValue: McpState = 'disconnected';
  private lastErrorText?: string;
  private stderrTail: string[] = [];
  private pingTimer?: NodeJS.Timeout;
  private cancelRetry?: () => void;
  private attempt = 0;
  private toolsValue: readonly McpTool[] = [];
  /** The checks of the tools' answers, made from every page of the tool list (tool-answers.ts). */
  private checks: ToolChecks = NO_CHECKS;
  /** Listings started, and the one the tools are from: a listing that ends after a later one's is dropped. */
  private relisting = 0;
  private listed = 0;
  private readonly o: McpConnectionOptions & typeof DEFAULTS;

  constructor(readonly server: ResolvedServer, opts: McpConnectionOptions) {
    this.o = { ...DEFAULTS, ...opts };
  }

  get name(): string {
    return this.server.def.name;
  }
  get state(): McpState {
    return this.stateValue;
  }
  get lastError(): string | undefined {
    return this.lastErrorText;
  }
  get tools(): readonly McpTool[] {
    return this.toolsValue;
  }

  /** Connects (or joins the connect in progress) and answers the server's tools. */
  connect(): Promise<readonly McpTool[]> {
    if (this.stateValue === 'closed') return Promise.reject(new Error(`MCP server "${this.name}" was stopped.`));
    if (this.client && this.stateValue === 'connected') return Promise.resolve(this.toolsValue);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /**
   * Calls `tool`; `then` makes the answer into what the caller wants in the same step as a failure is
   * explained (one promise step less per call than chaining it after).
   */
  callTool<T = CallToolResult>(tool: string, args: Record<string, unknown>, opts: CallOptions, then?: (r: CallToolResult) => T | PromiseLike<T>): Promise<T> {
    // Connected: straight to the client (this is every call's path; no await of its own on it).
    if (this.client && this.stateValue === 'connected') return this.send(this.client, tool, args, opts, then);
    return this.connect().then(() => {
      // The connection may have dropped between connecting and this call.
      if (!this.client) throw this.explain(new Error('the connection closed'));
      return this.send(this.client, tool, args, opts, then);
    });
  }

  /**
   * The SDK's callTool is its request() with checks around it, which tool-answers.ts makes for every
   * tool from the whole tool list and runs on the answer (readAnswer); request() itself is called, as
   * callTool is an async function whose await and return cost each call a promise step of its own.
   */
  private send<T>(client: Client, tool: string, args: Record<string, unknown>, opts: CallOptions, then?: (r: CallToolResult) => T | PromiseLike<T>): Promise<T> {
    const checks = this.checks;
    const refused = refusedCall(tool, checks);
    if (refused) return Promise.reject(this.explain(refused));
    const onProgress = opts.onProgress;
    const options = {
      signal: opts.signal, timeout: opts.timeoutMs, resetTimeoutOnProgress: false,
      onprogress: onProgress ? (p: { progress: number; total?: number; message?: string }) => onProgress(p.progress, p.total, p.message) : undefined,
    };
    return client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, UNREAD, options).then((raw) => {
      let r: CallToolResult;
      try {
        r = readAnswer(tool, raw, checks);
      } catch (e) {
        throw this.explain(e);
      }
      return then ? then(r) : r as T;
    }, this.rethrow);
  }

  /** The server's tools (every page), and the checks of their answers (send). */
  private setTools(tools: readonly McpTool[], listing: number): void {
    this.listed = listing;
    this.toolsValue = tools;
    this.checks = toolChecks(tools);
  }

  /** A failed call's error, explained (one function for every call, not one per call). */
  private readonly rethrow = (e: unknown): never => {
    throw this.explain(e);
  };

  async close(): Promise<void> {
    this.setState('closed');
    this.stopTimers();
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined);
  }

  private async open(): Promise<readonly McpTool[]> {
    this.stopTimers();
    this.setState('starting');
    try {
      const client = await this.connectClient();
      if (this.stateValue === 'closed') {
        await client.close().catch(() => undefined);
        throw new Error(`MCP server "${this.name}" was stopped.`);
      }
      this.client = client;
      const mine = ++this.relisting;
      const tools = await this.listAll(client);
      if (mine > this.listed) this.setTools(tools, mine);
      this.attempt = 0;
      this.lastErrorText = undefined;
      this.setState('connected');
      this.startPings(client);
      this.onToolsChanged.fire(this.toolsValue);
      return this.toolsValue;
    } catch (e) {
      const err = this.explain(e);
      this.lastErrorText = err.message;
      if (this.stateValue !== 'closed') this.setState('disconnected');
      throw err;
    }
  }

  private async connectClient(): Promise<Client> {
    const t = this.server.def.transport;
    if (t === 'stdio') return this.tryTransport(this.stdioTransport());
    const url = new URL(this.server.url!);
    const requestInit = { headers: this.server.headers };
    if (t === 'sse') return this.tryTransport(new SSEClientTransport(url, { requestInit }));
    if (t === 'streamable-http') return this.tryTransport(new StreamableHTTPClientTransport(url, { requestInit }));
    try {
      return await this.tryTransport(new StreamableHTTPClientTransport(url, { requestInit }));
    } catch (e) {
      this.o.log(`streamable HTTP failed (${oneLine((e as Error).message)}); trying SSE`);
      return this.tryTransport(new SSEClientTransport(url, { requestInit }));
    }
  }

  private stdioTransport(): Transport {
    // Only the SDK's short list of harmless variables (PATH, HOME, …) and the configured ones: a
    // server gets the person's tokens only when its definition passes them.
    const tr = new StdioClientTransport({
      command: this.server.command!, args: this.server.args, cwd: this.server.cwd,
      env: { ...getDefaultEnvironment(), ...this.server.env }, stderr: 'pipe',
    });
    this.stderrTail = [];
    let partial = '';
    tr.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) this.keepStderr(l);
    });
    return tr;
  }

  private keepStderr(line: string): void {
    this.o.log(line);
    this.stderrTail.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.stderrTail.length > STDERR_KEPT) this.stderrTail.shift();
  }

  private async tryTransport(transport: Transport): Promise<Client> {
    const capabilities: ClientCapabilities = { roots: { listChanged: false } };
    if (this.o.elicit) capabilities.elicitation = { form: {} };
    if (this.o.sample) capabilities.sampling = {};
    const client = new Client({ name: 'pincer', version: this.o.clientVersion }, {
      capabilities,
      // Not the SDK's refresh: it lists only the first page. The notice starts a listing of every page.
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.toolsChanged(client) } },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.o.roots().map((p) => ({ uri: pathToFileURL(p).href, name: p.split(/[\\/]/).pop() || p })),
    }));
    const { elicit, sample } = this.o;
    if (elicit) client.setRequestHandler(ElicitRequestSchema, (req, extra) => elicit(req.params, extra.signal));
    if (sample) client.setRequestHandler(CreateMessageRequestSchema, (req, extra) => sample(req.params, extra.signal));
    client.onclose = () => this.dropped(client);
    try {
      await client.connect(transport, { timeout: this.o.connectTimeoutMs });
    } catch (e) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw e;
    }
    return client;
  }

  /** The server said its tools changed: all pages are listed again, and the latest listing wins. */
  private toolsChanged(client: Client): void {
    if (client !== this.client) return;
    const mine = ++this.relisting;
    this.listAll(client).then((tools) => {
      if (client !== this.client || mine < this.listed) return;
      this.setTools(tools, mine);
      this.onToolsChanged.fire(tools);
    }, (e: unknown) => {
      if (client === this.client) this.o.log(`could not re-list tools after a change: ${oneLine(e instanceof Error ? e.message : String(e))}`);
    });
  }

  /** Every page of tools; not the SDK's listTools, which compiles output schemas again (setTools does). */
  private async listAll(client: Client): Promise<McpTool[]> {
    const out: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ListToolsResultSchema, { timeout: this.o.connectTimeoutMs });
      out.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  /** The server's resources, every page (the MCP Servers view's Browse Resources); empty when it offers none. */
  async listResources(): Promise<{ uri: string; name: string; description?: string; mimeType?: string }[]> {
    if (!this.client || this.stateValue !== 'connected') await this.connect();
    const client = this.client;
    if (!client?.getServerCapabilities()?.resources) return [];
    const out: { uri: string; name: string; description?: string; mimeType?: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined, { timeout: this.o.connectTimeoutMs });
      out.push(...page.resources.map((r) => ({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType })));
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  /** One resource's contents as the server sends them (Attach to Chat reads them through mcp-resource.ts). */
  async readResource(uri: string): Promise<ReadResourceResult> {
    if (!this.client || this.stateValue !== 'connected') await this.connect();
    const client = this.client;
    if (!client) throw this.explain(new Error('the connection closed'));
    try {
      return await client.readResource({ uri }, { timeout: this.o.connectTimeoutMs });
    } catch (e) {
      throw this.explain(e);
    }
  }

  /** The server's prompts with their arguments, every page (Browse Resources lists them); empty when it offers none. */
  async listPrompts(): Promise<McpPromptInfo[]> {
    if (!this.client || this.stateValue !== 'connected') await this.connect();
    const client = this.client;
    if (!client?.getServerCapabilities()?.prompts) return [];
    const out: McpPromptInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: this.o.connectTimeoutMs });
      out.push(...page.prompts.map((p) => ({ name: p.name, description: p.description, arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })) })));
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  /** The connection of `client` ended without close(): fail over to reconnecting. */
  private dropped(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.stopTimers();
    if (this.stateValue === 'closed') return;
    this.lastErrorText = this.explain(new Error('the connection closed')).message;
    this.o.log(this.lastErrorText);
    this.setState('disconnected');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const r = this.o.reconnect;
    if (this.attempt >= r.attempts) {
      this.setState('failed');
      return;
    }
    const delay = Math.min(r.maxDelayMs, r.firstDelayMs * 2 ** this.attempt);
    this.attempt++;
    this.o.log(`reconnecting in ${delay} ms (attempt ${this.attempt} of ${r.attempts})`);
    this.cancelRetry = this.o.after(delay, () => {
      this.cancelRetry = undefined;
      if (this.stateValue === 'closed' || this.client) return;
      this.connect().catch(() => this.scheduleReconnect());
    });
  }

  private startPings(client: Client): void {
    let missed = 0;
    this.pingTimer = setInterval(() => {
      client.ping({ timeout: this.o.pingEveryMs }).then(() => {
        missed = 0;
      }, () => {
        missed++;
        this.o.log(`ping missed (${missed} of ${this.o.maxMissedPings})`);
        // Closing the transport lands in dropped(), which reconnects.
        if (missed >= this.o.maxMissedPings) void client.close().catch(() => undefined);
      });
    }, this.o.pingEveryMs);
    this.pingTimer.unref();
  }

  private stopTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.cancelRetry?.();
    this.pingTimer = this.cancelRetry = undefined;
  }

  private setState(s: McpState): void {
    if (this.stateValue === s) return;
    this.stateValue = s;
    this.onStateChanged.fire(s);
  }

  /** An error that says which server, and what its stderr said last when it was a process that went away. */
  private explain(e: unknown): Error {
    const msg = oneLine(e instanceof Error ? e.message : String(e));
    const closed = /connection closed|closed the connection|ECONNRESET|EPIPE|socket hang up|fetch failed|ECONNREFUSED/i.test(msg);
    const tail = closed && this.stderrTail.length ? ` Its last output: ${this.stderrTail.slice(-3).join(' | ')}` : '';
    const where = this.server.def.transport === 'stdio' ? `${this.server.command}` : `${this.server.url}`;
    return new Error(`MCP server "${this.name}" (${where}): ${closed ? 'the connection closed — the server stopped or crashed' : msg}.${tail}`);
  }
}

/** Servers answer errors with whole HTML pages: one line, cut, for messages and the log. */
function oneLine(text: string): string {
  const s = text.replace(/<[^>]{0,200}>/g, ' ').replace(/\s+/g, ' ').trim();
  return s.length > 400 ? `${s.slice(0, 400)}…` : s;
}
