// What both subagent benchmarks run on: the real chat service and subagent manager over a real
// workspace database, the real OpenAI provider against the loopback Chat Completions server, in
// one process. Imports the compiled tree (PINCER_OUT, default out/: `npx tsc -p .` first).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.resolve(ROOT, process.env.PINCER_OUT ?? 'out');
const out = (...p) => require(path.join(OUT, ...p));

const { ChatService } = out('src', 'core', 'agent', 'chat-service.js');
const { createOpenAiProvider } = out('src', 'core', 'agent', 'providers', 'openai-provider.js');
const { AgentRegistry } = out('src', 'core', 'agents', 'agent-registry.js');
const { SESSION_MIGRATIONS, SessionStore } = out('src', 'core', 'sessions', 'session-store.js');
const { Database } = out('src', 'core', 'storage', 'database.js');
const { SubagentManager } = out('src', 'core', 'subagents', 'subagent-manager.js');
const { SUBAGENT_MIGRATIONS, SubagentStore } = out('src', 'core', 'subagents', 'subagent-store.js');
const { systemClock } = out('src', 'core', 'clock.js');
const { startOpenAiChatServer } = out('test', 'support', 'openai-chat-server.js');
const { runtimeWith, echoTool } = out('test', 'support', 'test-tools.js');

/**
 * The scheduling policy this process runs under (Linux): 'SCHED_FIFO' or 'SCHED_RR' when the bench
 * was started with `chrt` to keep other processes' load out of a wall-clock ratio, else 'normal'.
 * Recorded beside the figure so a reader knows how it was taken.
 */
export function schedulingPolicy() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const policy = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38];
    return { 1: 'SCHED_FIFO', 2: 'SCHED_RR' }[policy] ?? 'normal';
  } catch {
    return 'unknown';
  }
}

/** `script(body)` answers each request; `onRequest` is called as each arrives. */
export async function setup({ script, settings = {}, onRequest = () => undefined }) {
  const server = await startOpenAiChatServer((req) => {
    onRequest(req.body);
    return script(req.body);
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-subagents-'));
  const db = await Database.open({ dir, workerPath: path.join(OUT, 'src', 'core', 'storage', 'storage-worker.js'), migrations: [...SESSION_MIGRATIONS, ...SUBAGENT_MIGRATIONS] });
  const rt = runtimeWith({ 'rateLimit.enabled': false, ...settings }, [echoTool]);
  const sessions = new SessionStore(db);
  const agents = new AgentRegistry();
  const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-bench-0123456789abcdef' });
  let manager;
  const chat = new ChatService({
    rt, sessions: async () => sessions, model: async () => ({ provider, model: 'bench' }), agent: (id) => agents.resolve(id),
    contextFiles: { read: async () => undefined }, user: () => 'bench', workspace: () => ({ root: dir, name: 'bench' }),
    toolContext: () => ({ workspaceRoot: dir, workspaceTrusted: true, isOwner: true }), subagents: () => manager,
  });
  const store = new SubagentStore(db);
  manager = new SubagentManager({
    runner: (req) => chat.turn(req), sessions: async () => sessions, store: async () => store, agents,
    config: () => rt.currentConfig.subagents, maxDepth: () => rt.currentConfig.policy.subagentMaxDepth, clock: systemClock, sweepEveryMs: 0,
  });
  return {
    chat, manager, sessions,
    isChild: (body) => String(body.messages?.[0]?.content ?? '').includes('You are a subagent'),
    close: async () => {
      await manager.dispose();
      await server.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
