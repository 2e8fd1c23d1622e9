// The subagents of one window: admission under hard limits, each child's turns, cancel of whole
// trees, steer and resume, fan-in, and the announcements that carry background results to their
// parent's next model request. Records are kept in memory and written through to the workspace
// database, so the tree survives a reload (see subagent-store.ts).
//
// Decisions:
// - Admission is synchronous: the checks and the reservation happen before the first await, so
//   parallel spawns can never together pass a limit that each passed alone.
// - A cancelled child shows `cancelled` at once; its slot frees when its loop has actually stopped.
// - Time is the injected clock; `sweep()` applies the stall watchdog, the wall clock and the
//   archive. Production runs it on a timer, tests call it after moving the clock.
import { randomBytes } from 'node:crypto';
import type { SubagentHooks } from '../agent/chat-service';
import type { ModelMessage } from '../agent/model-types';
import type { Clock } from '../clock';
import { Emitter } from '../events';
import { childSessionName, sessionPrefix, type SessionStore } from '../sessions/session-store';
import { childAgent, type AgentDirectory } from './subagent-agents';
import { addUsage, runChildTurn, type ChildTurnRunner, type StopReason } from './child-turn';
import type { SubagentConfig } from './subagent-config';
import { announcement } from './subagent-format';
import { rootOf, treeTokens } from './subagent-tree';
import { INTERRUPTED_RESULT, SubagentWriter, type SubagentStore } from './subagent-store';
import { SETTLED_STATUSES, type SubagentControl, type SubagentEvent, type SubagentMode, type SubagentNode, type SubagentRecord } from './types';

export interface SubagentManagerDeps {
  runner: ChildTurnRunner;
  sessions: () => Promise<SessionStore | undefined>;
  store?: () => Promise<SubagentStore | undefined>;
  agents: AgentDirectory;
  config: () => SubagentConfig;
  /** pincer.subagents.maxDepth (the policy engine's leaf depth). */
  maxDepth: () => number;
  clock: Clock;
  /** Asks a person before a child starts; resolves false for no (or when `signal` aborts). */
  confirm?: (req: { record: SubagentRecord; background: boolean }, signal: AbortSignal) => Promise<boolean>;
  /** How often the watchdog runs; 0 = never on its own (tests call sweep()). Default 5 s. */
  sweepEveryMs?: number;
  /** Ends the background commands a child's session left running: nobody could stop them after it. */
  endJobs?: (sessionKey: string) => Promise<void>;
  /** This window's id, stable across its reloads: records carry it, and load() reads only its own. */
  windowId?: string;
  warn?: (message: string) => void;
}

export interface SpawnRequest {
  parentSessionKey: string;
  callerAgentId: string;
  /** The caller's depth (0 for a person's chat). */
  callerDepth: number;
  task: string;
  label?: string;
  agent?: string;
  mode: SubagentMode;
}

/** A refusal the model can act on (a limit, a broken agent, a person's no). */
export class SpawnRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpawnRefused';
  }
}

interface Live {
  controller: AbortController;
  stop?: StopReason;
  startedAt: number;
  lastActivity: number;
  settled: Promise<SubagentRecord>;
}

const LIVE_STATUSES = new Set(['queued', 'running']);

export class SubagentManager implements SubagentControl, SubagentHooks {
  private readonly records = new Map<string, SubagentRecord>();
  private readonly live = new Map<string, Live>();
  /** Background results per parent session, not yet delivered. */
  private readonly inboxes = new Map<string, string[]>();
  private readonly events = new Emitter<SubagentEvent>();
  private readonly writer: SubagentWriter;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: SubagentManagerDeps) {
    this.writer = new SubagentWriter(async () => deps.store?.(), (m) => deps.warn?.(m));
    const every = deps.sweepEveryMs ?? 5000;
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(), every);
      this.timer.unref?.();
    }
  }

  /** Loads the stored tree: live children of the last window become interrupted; undelivered results queue again. */
  async load(): Promise<void> {
    const store = await this.deps.store?.();
    if (!store) return;
    for (const r of await store.load(this.deps.clock.now(), this.deps.windowId)) {
      this.records.set(r.id, r);
      if (r.mode === 'spawn' && !r.delivered && SETTLED_STATUSES.includes(r.status)) this.queue(r);
    }
  }

  onEvent(listener: (e: SubagentEvent) => void): { dispose(): void } {
    return this.events.on(listener);
  }

  get(id: string): SubagentRecord | undefined {
    const r = this.records.get(id);
    return r && { ...r, usage: { ...r.usage } };
  }

  list(opts: { parentSessionKey?: string; includeArchived?: boolean } = {}): SubagentRecord[] {
    return [...this.records.values()]
      .filter((r) => (opts.parentSessionKey === undefined || r.parentSessionKey === opts.parentSessionKey) && (opts.includeArchived || !r.archived))
      .map((r) => this.get(r.id)!);
  }

  tree(opts: { parentSessionKey?: string; includeArchived?: boolean } = {}): SubagentNode[] {
    const all = this.list({ includeArchived: opts.includeArchived });
    const node = (r: SubagentRecord): SubagentNode => ({ record: r, children: all.filter((c) => c.parentId === r.id).map(node) });
    return all.filter((r) => !r.parentId && (opts.parentSessionKey === undefined || r.parentSessionKey === opts.parentSessionKey)).map(node);
  }

  /** The child whose own session `sessionKey` is (its approvals and reviews are labelled with it). */
  childOfSession(sessionKey: string): SubagentRecord | undefined {
    const r = [...this.records.values()].find((x) => x.sessionKey === sessionKey);
    return r && this.get(r.id);
  }

  /** Admits a child (or refuses with why) and starts it; resolves with its record once it is queued. */
  async spawn(req: SpawnRequest): Promise<SubagentRecord> {
    const record = this.admit(req);
    const live = this.live.get(record.id)!;
    const ask = this.deps.config().askBeforeSpawn;
    if (this.deps.confirm && (ask === 'always' || (ask === 'background' && req.mode === 'spawn'))) {
      const yes = await this.deps.confirm({ record: this.get(record.id)!, background: req.mode === 'spawn' }, live.controller.signal).catch(() => false);
      if (!yes) {
        this.settle(record, { status: 'cancelled', result: 'The person declined to start this subagent.', usage: record.usage }, live, 0);
        throw new SpawnRefused('The person declined to start this subagent: do the task yourself, or ask them what they want instead.');
      }
    }
    // The session is made as the child starts, and the record first written beside its first model
    // request (or when it settles): spawn answers without waiting for the database, and a child costs
    // no more database time before its model hears from it than a new chat. A window that dies
    // before then loses only a child that never ran.
    this.run(record, live, record.task, () => this.createSession(record));
    return this.get(record.id)!;
  }

  private async createSession(record: SubagentRecord): Promise<void> {
    const sessions = await this.deps.sessions();
    if (!sessions) throw new Error('the workspace database could not be opened');
    await sessions.create(record.agentId, { name: childSessionName(record.id), title: record.label ?? record.task.slice(0, 60) });
  }

  /** Resolves with the child's record once it has settled. */
  async settled(id: string): Promise<SubagentRecord | undefined> {
    const live = this.live.get(id);
    return live ? live.settled : this.get(id);
  }

  async cancel(id: string, why = 'Cancelled by a person.'): Promise<void> {
    await this.stop(id, { status: 'cancelled', message: why });
  }

  /** SubagentHooks: a parent's turn was stopped, so is every child it started (and theirs). */
  turnCancelled(sessionKey: string): void {
    for (const r of this.records.values()) {
      if (r.parentSessionKey === sessionKey && this.live.has(r.id)) void this.cancel(r.id, 'Cancelled: its parent\'s turn was stopped.');
    }
  }

  async steer(id: string, instruction: string): Promise<SubagentRecord> {
    await this.stop(id, { status: 'cancelled', message: 'Cancelled to be steered with a new instruction.' });
    return this.restart(id, `New instruction from the agent that started you (it replaces the earlier one where they differ): ${instruction}`);
  }

  async resume(id: string): Promise<SubagentRecord> {
    const r = this.records.get(id);
    if (r?.status === 'done') throw new SpawnRefused(`${id} already finished; its result stands (start a new child for more work).`);
    return this.restart(id, 'You were stopped before you finished. Continue the task from where your transcript ends; do not redo work that is already done.');
  }

  /** SubagentHooks: the parent's undelivered background results as one merged message. */
  inbox(sessionKey: string): ModelMessage[] {
    const ids = this.inboxes.get(sessionKey);
    if (!ids?.length) return [];
    this.inboxes.delete(sessionKey);
    const records = ids.map((id) => this.records.get(id)).filter((r): r is SubagentRecord => !!r && !r.delivered);
    for (const r of records) this.update(r, { delivered: true });
    return records.length ? [announcement(records)] : [];
  }

  /**
   * Fan-in: resolves when each child has settled or `timeoutMs` passed (those still live are
   * returned as they are). Settled results count as delivered: they are not announced again.
   */
  async wait(ids: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<SubagentRecord[]> {
    const all = Promise.all(ids.map((id) => this.settled(id)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      all,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
    ]);
    clearTimeout(timer);
    return ids.map((id) => this.records.get(id)).filter((r): r is SubagentRecord => !!r).map((r) => {
      if (!this.live.has(r.id) && !r.delivered) this.update(r, { delivered: true });
      return this.get(r.id)!;
    });
  }

  /** The watchdog: stalls, the wall clock and the archive, judged by the injected clock. */
  sweep(): void {
    const now = this.deps.clock.now();
    const c = this.deps.config();
    for (const [id, l] of this.live) {
      if (l.stop) continue;
      if (now - l.startedAt > c.timeoutMs) {
        void this.stop(id, { status: 'failed', message: `Stopped: it ran for longer than its ${Math.round(c.timeoutMs / 60_000)}-minute limit.` });
      } else if (now - l.lastActivity > c.stallMs) {
        void this.stop(id, { status: 'stalled', message: `Stalled: no model output and no tool result for ${Math.round(c.stallMs / 60_000)} minutes, so it was stopped.` });
      }
    }
    for (const r of this.records.values()) {
      if (!r.archived && r.finishedAt !== undefined && !this.live.has(r.id) && now - r.finishedAt >= c.archiveMs) {
        this.update(r, { archived: true });
        this.events.fire({ type: 'archived', id: r.id });
      }
    }
  }

  /** The window is closing: every child stops as interrupted (resumable after the reload), and the writes land. */
  async dispose(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.live.keys()].map((id) => this.stop(id, { status: 'interrupted', message: INTERRUPTED_RESULT })));
    await this.flush();
  }

  /** Resolves once every record change so far is in the database. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** The live children (queued or running) under a parent session. */
  liveChildren(parentSessionKey: string): SubagentRecord[] {
    return this.list({ parentSessionKey, includeArchived: true }).filter((r) => LIVE_STATUSES.has(r.status) || this.live.has(r.id));
  }

  private admit(req: SpawnRequest): SubagentRecord {
    const c = this.deps.config();
    const depth = req.callerDepth + 1;
    const maxDepth = this.deps.maxDepth();
    if (depth > maxDepth) {
      throw new SpawnRefused(`Subagents may nest ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep (pincer.subagents.maxDepth), and a child of yours would be at depth ${depth}: do the task yourself.`);
    }
    const agentId = childAgent(this.deps.agents, req.agent, req.callerAgentId);
    if (this.live.size >= c.maxConcurrent) {
      throw new SpawnRefused(`At capacity (${this.live.size}/${c.maxConcurrent}): wait for a child, or do it yourself. (${c.maxConcurrent} subagents may run at once in this window: pincer.subagents.maxConcurrent.)`);
    }
    const mine = [...this.live.keys()].filter((id) => this.records.get(id)?.parentSessionKey === req.parentSessionKey).length;
    if (mine >= c.maxChildrenPerParent) {
      throw new SpawnRefused(`At capacity (${mine}/${c.maxChildrenPerParent}): wait for a child, or do it yourself. (You may have ${c.maxChildrenPerParent} children running at once: pincer.subagents.maxChildrenPerParent.)`);
    }
    const parent = [...this.records.values()].find((r) => r.sessionKey === req.parentSessionKey);
    const root = this.rootOf(req.parentSessionKey);
    if (c.maxTokensPerTree > 0 && this.treeTokens(root) >= c.maxTokensPerTree) {
      throw new SpawnRefused(`The token budget for this session's subagents (${c.maxTokensPerTree}, pincer.subagents.maxTokensPerTree) is used up: do the rest yourself.`);
    }
    const id = `sa-${randomBytes(4).toString('hex')}`;
    const record: SubagentRecord = {
      id, ...(parent ? { parentId: parent.id } : {}), parentSessionKey: req.parentSessionKey, sessionKey: `${sessionPrefix(agentId)}${childSessionName(id)}`,
      ...(req.label ? { label: req.label } : {}), agentId, task: req.task, mode: req.mode, status: 'queued', depth,
      usage: { input: 0, output: 0, cached: 0 }, durationMs: 0, createdAt: this.deps.clock.now(), delivered: false, archived: false,
      ...(this.deps.windowId ? { windowId: this.deps.windowId } : {}),
    };
    this.records.set(id, record);
    this.reserve(record);
    this.events.fire({ type: 'started', record: this.get(id)! });
    return record;
  }

  private reserve(record: SubagentRecord): Live {
    const now = this.deps.clock.now();
    let resolve!: (r: SubagentRecord) => void;
    const settled = new Promise<SubagentRecord>((r) => (resolve = r));
    const live: Live & { resolve: typeof resolve } = { controller: new AbortController(), startedAt: now, lastActivity: now, settled, resolve };
    this.live.set(record.id, live);
    return live;
  }

  private async restart(id: string, text: string): Promise<SubagentRecord> {
    const r = this.records.get(id);
    if (!r) throw new SpawnRefused(`There is no subagent ${id}.`);
    if (this.live.has(id)) throw new SpawnRefused(`${id} is still running.`);
    const c = this.deps.config();
    if (this.live.size >= c.maxConcurrent) throw new SpawnRefused(`At capacity (${this.live.size}/${c.maxConcurrent}): wait for a child first.`);
    const live = this.reserve(r);
    this.update(r, { status: 'queued', delivered: false, archived: false, result: undefined, finishedAt: undefined });
    this.events.fire({ type: 'started', record: this.get(id)! });
    this.run(r, live, text);
    return this.get(id)!;
  }

  private run(record: SubagentRecord, live: Live, text: string, prepare: () => Promise<void> = async () => undefined): void {
    const c = this.deps.config();
    const base = { ...record.usage };
    const childLeft = c.maxTokensPerChild > 0 ? Math.max(0, c.maxTokensPerChild - base.input - base.output) : undefined;
    const treeLeft = c.maxTokensPerTree > 0 ? Math.max(0, c.maxTokensPerTree - this.treeTokens(this.rootOf(record.parentSessionKey))) : undefined;
    const budgets = [childLeft, treeLeft].filter((n): n is number => n !== undefined);
    const turn = () => runChildTurn(this.deps.runner, {
      sessionKey: record.sessionKey, agentId: record.agentId, text, depth: record.depth,
      // A definition may ask for fewer model requests (Claude Code's maxTurns), never more.
      maxIterations: Math.min(c.maxIterations, this.deps.agents.get(record.agentId)?.maxIterations ?? c.maxIterations), maxRetries: c.maxRetries, ...(budgets.length ? { maxTokens: Math.min(...budgets) } : {}),
      signal: live.controller.signal, stopReason: () => live.stop,
      onActivity: () => (live.lastActivity = this.deps.clock.now()),
      onEvent: (e) => {
        if (e.type === 'request' && record.status === 'queued') {
          this.update(record, { status: 'running' });
          this.events.fire({ type: 'running', id: record.id });
        } else if (e.type === 'text') {
          this.events.fire({ type: 'output', id: record.id, text: e.text });
        } else if (e.type === 'tool-start' || e.type === 'tool-end') {
          this.events.fire({ type: 'tool', id: record.id, phase: e.type === 'tool-start' ? 'start' : 'end', tool: e.name, args: e.args,
            ...(e.type === 'tool-end' ? { isError: e.isError, preview: e.preview } : {}) });
        } else if (e.type === 'usage') {
          // Cost too, when the model reports it per response: the views show what a child costs as it runs.
          record.usage = addUsage(base, e.usage);
          this.events.fire({ type: 'usage', id: record.id, usage: { ...record.usage } });
          this.checkTreeBudget(record);
        }
      },
    });
    void prepare().then(turn, (e: unknown) => ({ status: 'failed' as const, result: `Could not create its session: ${(e as Error).message}`, usage: addUsage() }))
      .then(async (out) => {
        await this.deps.endJobs?.(record.sessionKey).catch((e: unknown) => this.deps.warn?.(`Pincer could not end the commands of subagent ${record.id}: ${(e as Error).message}`));
        this.settle(record, { ...out, usage: addUsage(base, out.usage) }, live, this.deps.clock.now() - live.startedAt);
      });
  }

  private settle(record: SubagentRecord, out: { status: SubagentRecord['status']; result: string; usage: SubagentRecord['usage'] }, live: Live, ranMs: number): void {
    this.update(record, { status: out.status, result: out.result, usage: out.usage, durationMs: record.durationMs + ranMs, finishedAt: this.deps.clock.now() });
    this.live.delete(record.id);
    if (record.mode === 'spawn' && !record.delivered) this.queue(record);
    const done = this.get(record.id)!;
    (live as Live & { resolve: (r: SubagentRecord) => void }).resolve(done);
    this.events.fire({ type: 'finished', record: done });
  }

  private async stop(id: string, why: StopReason): Promise<void> {
    const live = this.live.get(id);
    if (!live) return;
    const r = this.records.get(id)!;
    live.stop ??= why;
    // Shown at once: list never calls a child running once it was told to stop.
    this.update(r, { status: live.stop.status });
    const children = [...this.records.values()].filter((c) => c.parentId === id && this.live.has(c.id));
    live.controller.abort(new Error(live.stop.message));
    const theirs: StopReason = live.stop.status === 'interrupted' ? live.stop : { status: 'cancelled', message: 'Cancelled: its parent subagent was stopped.' };
    await Promise.all([live.settled, ...children.map((c) => this.stop(c.id, theirs))]);
  }

  /** The tree went over its budget: its other live children stop (this one's own loop stops before its next request). */
  private checkTreeBudget(record: SubagentRecord): void {
    const max = this.deps.config().maxTokensPerTree;
    const root = this.rootOf(record.parentSessionKey);
    if (max <= 0 || this.treeTokens(root) < max) return;
    for (const r of this.records.values()) {
      if (r.id !== record.id && this.live.has(r.id) && this.rootOf(r.parentSessionKey) === root) {
        void this.stop(r.id, { status: 'failed', message: `Stopped: this session's subagents used their ${max}-token budget (pincer.subagents.maxTokensPerTree).` });
      }
    }
  }

  /** The top-level session a child's tree hangs from (a session that is no child's is its own top). */
  rootOf(parentSessionKey: string): string {
    return rootOf([...this.records.values()], parentSessionKey);
  }

  private treeTokens(root: string): number {
    return treeTokens([...this.records.values()], root);
  }

  private queue(record: SubagentRecord): void {
    const q = this.inboxes.get(record.parentSessionKey) ?? [];
    if (!q.includes(record.id)) q.push(record.id);
    this.inboxes.set(record.parentSessionKey, q);
  }

  private update(record: SubagentRecord, change: Partial<SubagentRecord>): void {
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete (record as unknown as Record<string, unknown>)[k];
      else (record as unknown as Record<string, unknown>)[k] = v;
    }
    this.writer.save(record);
  }
}

