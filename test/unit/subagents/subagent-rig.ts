// Shared set-up for the subagent tests: the real OpenAI provider against the loopback server, the
// real chat service and sessions in a real workspace database, the real exec tools (process host,
// real child processes), the spawn tool registered in the runtime, an agent registry fed real agent
// files, and the manager on a clock the test moves. The model script tells parent from child by the
// system prompt (a child's says it is a subagent) and hands child steps their task.
import fs from 'node:fs';
import path from 'node:path';
import { AgentRegistry } from '../../../src/core/agents/agent-registry';
import { ChatService } from '../../../src/core/agent/chat-service';
import type { TurnResult } from '../../../src/core/agent/agent-types';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import { createSpawnTool } from '../../../src/core/sessions/tools/spawn';
import { SESSION_MIGRATIONS, SessionStore } from '../../../src/core/sessions/session-store';
import { Database } from '../../../src/core/storage/database';
import { SubagentManager, type SubagentManagerDeps } from '../../../src/core/subagents/subagent-manager';
import { SUBAGENT_MIGRATIONS, SubagentStore } from '../../../src/core/subagents/subagent-store';
import type { SubagentEvent } from '../../../src/core/subagents/types';
import type { Tool } from '../../../src/core/tools/types';
import { execFixture, type ExecFixture } from '../../support/exec-fixture';
import type { ScriptRequest, ScriptStep } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { echoTool, sleepTool } from '../../support/test-tools';

export type Msg = { role: string; content?: unknown; tool_calls?: { function: { name: string; arguments: string } }[] };

export interface Roles {
  /** The top-level agent's steps; `n` counts its requests from 0. */
  parent?: (req: ScriptRequest, n: number) => ScriptStep;
  /** A child's steps, by its task (the first user message of its session); `n` counts that child's requests. */
  child?: (task: string, req: ScriptRequest, n: number) => ScriptStep;
}

export const messagesOf = (body: Record<string, unknown>) => (body.messages ?? []) as Msg[];
export const toolNames = (body: Record<string, unknown>) => ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
export const isChild = (body: Record<string, unknown>) => String(messagesOf(body)[0]?.content ?? '').includes('You are a subagent');
export const userTexts = (body: Record<string, unknown>) => messagesOf(body).filter((m) => m.role === 'user').map((m) => String(m.content));

export interface RigOptions {
  roles: Roles;
  settings?: Record<string, unknown>;
  /** Workspace agent files, name → text (`.pincer/agents/<name>`). */
  agentFiles?: Record<string, string>;
  confirm?: SubagentManagerDeps['confirm'];
  /** A database folder to reuse (a "reload"). */
  dbDir?: string;
  extraTools?: Tool[];
  /** The window the manager belongs to (records carry it; load reads only its own). */
  windowId?: string;
}

export interface Rig {
  x: ExecFixture;
  server: ModelServer;
  db: Database;
  dbDir: string;
  sessions: SessionStore;
  chat: ChatService;
  manager: SubagentManager;
  agents: AgentRegistry;
  clock: { t: number; now(): number };
  events: SubagentEvent[];
  /** A new top-level chat session of the default agent. */
  session(): Promise<string>;
  turn(key: string, text: string, signal?: AbortSignal): Promise<TurnResult>;
  /** The child requests the server saw, with their task. */
  childRequests(): { task: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function rig(opts: RigOptions): Promise<Rig> {
  const x = execFixture({ 'exec.sandbox.mode': 'off', 'tools.profile': 'full', ...opts.settings });
  const counts = new Map<string, number>();
  let parentN = 0;
  const server = await startOpenAiChatServer((req) => {
    if (!isChild(req.body)) return opts.roles.parent ? opts.roles.parent(req, parentN++) : { parts: [{ kind: 'text', text: 'ok' }] };
    const task = userTexts(req.body)[0];
    const n = counts.get(task) ?? 0;
    counts.set(task, n + 1);
    return opts.roles.child ? opts.roles.child(task, req, n) : { parts: [{ kind: 'text', text: `done: ${task}` }] };
  });
  const dbDir = opts.dbDir ?? tempDir('subagents');
  const db = await Database.open({ dir: dbDir, workerPath: STORAGE_WORKER, migrations: [...SESSION_MIGRATIONS, ...SUBAGENT_MIGRATIONS] });
  const sessions = new SessionStore(db, undefined, (t) => x.rt.scrubber.scrub(t));
  const store = new SubagentStore(db);
  const agents = new AgentRegistry();
  const agentDir = path.join(x.root, '.pincer', 'agents');
  agents.setWorkspace(Object.entries(opts.agentFiles ?? {}).map(([name, text]) => {
    fs.mkdirSync(agentDir, { recursive: true });
    fs.writeFileSync(path.join(agentDir, name), text);
    return { file: path.join(agentDir, name), text };
  }));
  const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-test-0123456789abcdef' });
  const clock = { t: 1_700_000_000_000, now() { return this.t; } };
  const chat = new ChatService({
    rt: x.rt, sessions: async () => sessions, model: async () => ({ provider, model: 'test-model' }),
    agent: (id) => agents.resolve(id), contextFiles: { read: async () => undefined }, user: () => 'alice',
    workspace: () => ({ root: x.root, name: 'ws' }), toolContext: () => ({ workspaceRoot: x.root, workspaceTrusted: true, isOwner: true }),
    subagents: () => manager,
  });
  const manager: SubagentManager = new SubagentManager({
    runner: (req) => chat.turn(req), sessions: async () => sessions, store: async () => store, agents,
    config: () => x.rt.currentConfig.subagents, maxDepth: () => x.rt.currentConfig.policy.subagentMaxDepth,
    clock, sweepEveryMs: 0, ...(opts.confirm ? { confirm: opts.confirm } : {}), ...(opts.windowId ? { windowId: opts.windowId } : {}),
    endJobs: async (key) => { await Promise.all(x.jobs.list(key).map((j) => j.kill())); },
  });
  await manager.load();
  const events: SubagentEvent[] = [];
  manager.onEvent((e) => events.push(e));
  x.rt.replaceTools([createSpawnTool(() => manager, () => agents.all()) as Tool, echoTool as Tool, sleepTool as Tool, ...(opts.extraTools ?? [])]);
  return {
    x, server, db, dbDir, sessions, chat, manager, agents, clock, events,
    session: async () => (await sessions.create('default')).key,
    turn: (key, text, signal = new AbortController().signal) => chat.turn({ sessionKey: key, agentId: 'default', text, signal }),
    childRequests: () => server.requests.filter(isChild).map((body) => ({ task: userTexts(body)[0], body })),
    close: async () => {
      await manager.dispose();
      await server.close();
      await x.dispose();
      await db.close();
    },
  };
}

/**
 * For a describe block: `start` builds a rig for the running test (a reload test starts a second one
 * on the same database); each is closed after that test whether it passed or not, and the block's
 * temp folders go when it ends.
 */
export function rigPerTest(): { start: (opts: RigOptions) => Promise<Rig> } {
  const started: Rig[] = [];
  afterEach(async () => {
    for (const r of started.splice(0)) await r.close();
  });
  after(removeTempDirs);
  return {
    async start(opts) {
      const r = await rig(opts);
      started.push(r);
      return r;
    },
  };
}

export { until } from '../../support/until';
