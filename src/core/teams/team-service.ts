// The teams of one window: who is calling (the lead of a chat session, or a member's run), starting
// members as runs of the lead's session, the mailbox's deliveries, blocker escalation and the
// watchdog that keeps every claim tied to a live run.
//
// Decisions:
// - A member is activated only when it has no live run: a second message waits in its mailbox (its
//   prompt tells it to read the mailbox), so one member never works twice at once.
// - When a member's run ends, for whatever reason, its final answer goes to the lead's mailbox and
//   the watchdog runs at once: a task it still held goes back to pending (to the lead after
//   `maxReturns` returns), so no task stays in progress without a live run.
// - Work that reached a member while it was busy is not lost: when its run ends and a claimable task
//   assigned to it waits that no run of it was started on yet (and the watchdog never returned, since
//   returns are the lead's to decide), it is started again. A task it was started on and left alone
//   never starts it again, so a member that will not do a task cannot loop.
// - The watchdog also runs on a timer and at start, which covers runs that ended while nobody listened
//   (a window reload marks them interrupted).
// - Which chat sessions were started for a team is kept (lead-bindings.ts) and read back when the
//   service starts: everything that asks who leads waits for that read, so a reload changes nothing.
import type { AgentDefinition } from '../agents/types';
import type { Clock } from '../clock';
import type { ToolContext } from '../tools/types';
import type { BoardStore, BoardTask } from './board-types';
import type { LeadBindings } from './lead-bindings';
import { OpenQuestions } from './open-questions';
import type { MemberRuns, RunEnded } from './member-runs';
import type { TeamDefinition } from './team-definition';
import { memberActivation } from './team-prompt';

export interface TeamCaller {
  team: TeamDefinition;
  /** The agent id the board knows the caller by. */
  name: string;
  role: 'lead' | 'member';
  /** A member's run (its claims are tied to it). */
  runId?: string;
  leadSessionKey: string;
}

export interface AskUser {
  (q: { teamId: string; taskId?: number; from: string; question: string }, signal: AbortSignal): Promise<string | undefined>;
}

export interface TeamServiceDeps {
  board: () => Promise<BoardStore | undefined>;
  teams: () => readonly TeamDefinition[];
  agents: () => readonly AgentDefinition[];
  runs: MemberRuns;
  clock: Clock;
  askUser?: AskUser;
  /** Where the sessions started for a team are kept across reloads; without it they live as long as the service. */
  bindings?: LeadBindings;
  /** Returns before a task goes to the lead instead of back to pending (default 2). */
  maxReturns?: number;
  /** How often the watchdog runs on its own; 0 = only at run ends and when called (tests). Default 30 s. */
  sweepEveryMs?: number;
  warn?: (message: string) => void;
}

interface MemberEntry { teamId: string; member: string; runId: string; leadSessionKey: string }

export class TeamService {
  /** ask_user questions waiting for the person (the Team Board shows and answers them). */
  readonly questions = new OpenQuestions();
  private readonly leads = new Map<string, string>();
  private readonly members = new Map<string, MemberEntry>();
  /** team/member → the live run, or the start in flight. */
  private readonly active = new Map<string, Promise<string | undefined>>();
  /** team/member → the tasks a run of it was started on (named in its activation). */
  private readonly offered = new Map<string, Set<number>>();
  private readonly ended: { dispose(): void };
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private sweeping: Promise<BoardTask[]> = Promise.resolve([]);
  private readonly restored: Promise<void>;

  constructor(private readonly deps: TeamServiceDeps) {
    this.restored = this.restore();
    this.ended = deps.runs.onEnded((e) => void this.runEnded(e));
    const every = deps.sweepEveryMs ?? 30_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.sweep(), every);
      this.timer.unref?.();
    }
  }

  team(id: string): TeamDefinition | undefined {
    return this.deps.teams().find((t) => t.id === id);
  }

  teams(): readonly TeamDefinition[] {
    return this.deps.teams();
  }

  async board(): Promise<BoardStore> {
    const b = await this.deps.board();
    if (!b) throw new Error('the workspace database could not be opened, so there is no team board');
    return b;
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** Resolves once the kept bindings are read back: leadTeam and leadSession know them from then on. */
  ready(): Promise<void> {
    return this.restored;
  }

  /** The chat session `sessionKey` is led by `teamId`'s lead (the person picked the team); kept across reloads. */
  async bindLead(sessionKey: string, teamId: string): Promise<void> {
    this.leads.delete(sessionKey);
    this.leads.set(sessionKey, teamId);
    await this.restored;
    await this.deps.bindings?.bind(sessionKey, teamId, this.now());
  }

  /** The kept bindings come first (older), bindings made meanwhile in this window after them. */
  private async restore(): Promise<void> {
    if (!this.deps.bindings) return;
    try {
      const kept = await this.deps.bindings.all();
      const meanwhile = [...this.leads];
      this.leads.clear();
      for (const b of kept) this.leads.set(b.sessionKey, b.teamId);
      for (const [key, team] of meanwhile) {
        this.leads.delete(key);
        this.leads.set(key, team);
      }
    } catch (e) {
      this.deps.warn?.(`Pincer could not read which chat sessions lead a team: ${(e as Error).message}`);
    }
  }

  /**
   * The team `agentId` leads in chat session `sessionKey` (for TEAM.md in its prompt): the team the
   * session was started for (bindLead: Pincer: Pick Team…), when the agent is its lead. An agent that
   * leads a team is an ordinary agent in every other session, and a member's session leads nothing.
   */
  leadTeam(sessionKey: string, agentId: string): TeamDefinition | undefined {
    if (this.members.has(sessionKey)) return undefined;
    const bound = this.leads.get(sessionKey);
    const t = bound !== undefined ? this.team(bound) : undefined;
    return t?.lead === agentId ? t : undefined;
  }

  /** The chat session that last led `teamId` in this window (members started from the board run under it). */
  leadSession(teamId: string): string | undefined {
    return [...this.leads.entries()].reverse().find(([, t]) => t === teamId)?.[0];
  }

  /** Who is calling, or why the caller has no part in a team. */
  async identify(ctx: ToolContext): Promise<TeamCaller | string> {
    await this.restored;
    const m = this.members.get(ctx.sessionKey);
    if (m) {
      const team = this.team(m.teamId);
      return team ? { team, name: m.member, role: 'member', runId: m.runId, leadSessionKey: m.leadSessionKey } : `Team ${m.teamId} no longer exists.`;
    }
    const team = ctx.subagentDepth === 0 ? this.leadTeam(ctx.sessionKey, ctx.agentId) : undefined;
    if (team) return { team, name: ctx.agentId, role: 'lead', leadSessionKey: ctx.sessionKey };
    const led = this.deps.teams().filter((t) => t.lead === ctx.agentId).map((t) => t.id);
    if (led.length) return `This chat session was not started for a team, so ${ctx.agentId} leads none here (it leads ${led.join(', ')}): the person starts a team's session with Pincer: Pick Team….`;
    return 'You are not part of a team in this session: the team tools serve a team\'s lead (picked in the chat) and the members it starts.';
  }

  /** Is `name` a member or the lead of the team? */
  isMember(team: TeamDefinition, name: string): boolean {
    return name === team.lead || team.members.some((m) => m.agent === name);
  }

  /**
   * Wakes `member` with `why` unless it already has a live run (then the work waits on the board or
   * in its mailbox until that run ends). Resolves with the run and whether it was started now, or
   * undefined for the lead (who reads its mailbox itself) and when no lead session is known.
   */
  async activate(caller: TeamCaller, member: string, why: string): Promise<{ runId: string; started: boolean } | undefined> {
    const team = caller.team;
    // Without a lead session (a person acting on the board before any chat led the team) there is
    // nothing to run members under: the work waits on the board for the lead.
    if (member === team.lead || !caller.leadSessionKey) return undefined;
    const key = `${team.id}/${member}`;
    const current = this.active.get(key);
    if (current) {
      const id = await current.catch(() => undefined);
      if (id !== undefined && this.deps.runs.live().has(id)) return { runId: id, started: false };
    }
    const start = this.deps.runs.start({
      leadSessionKey: caller.leadSessionKey, leadAgent: team.lead, agent: member, label: `${team.id}: ${member}`,
      text: memberActivation(team, member, why),
    }).then((run) => {
      this.members.set(run.sessionKey, { teamId: team.id, member, runId: run.runId, leadSessionKey: caller.leadSessionKey });
      return run.runId;
    }, (e: unknown) => {
      this.active.delete(key);
      throw e;
    });
    this.active.set(key, start);
    const named = this.offered.get(key) ?? new Set<number>();
    for (const m of why.matchAll(/Task #(\d+)/g)) named.add(Number(m[1]));
    this.offered.set(key, named);
    return { runId: await start, started: true };
  }

  /** Activates the assignees of tasks a change released (each once). */
  async activateReleased(caller: TeamCaller, released: readonly BoardTask[]): Promise<void> {
    for (const t of released) {
      if (t.assignee && t.assignee !== caller.team.lead) {
        await this.activate(caller, t.assignee, `Task #${t.id} "${t.subject}" is assigned to you and its blockers are done: claim it and work on it.`).catch((e: unknown) => this.deps.warn?.(`Pincer could not start ${t.assignee}: ${(e as Error).message}`));
      }
    }
  }

  /** Stops a member's run without waiting (it may be the caller's own run, mid tool call). */
  stopRun(runId: string, why: string): void {
    this.deps.runs.cancel(runId, why);
  }

  /** ask_user: the question waits on the Team Board and in the editor's prompt; the first answer wins. */
  async ask(caller: TeamCaller, question: string, taskId: number | undefined, signal: AbortSignal): Promise<string | undefined> {
    const askUser = this.deps.askUser;
    if (!askUser) return undefined;
    const q = { teamId: caller.team.id, ...(taskId !== undefined ? { taskId } : {}), from: caller.name, question };
    return this.questions.ask({ ...q, at: this.now() }, (stop) => askUser(q, stop), signal);
  }

  describe(agent: string): string | undefined {
    return this.deps.agents().find((a) => a.id === agent)?.description;
  }

  /**
   * The watchdog: tasks in progress whose run is not live go back to pending (or to the lead), each
   * with an audit note and a message to the lead. One sweep at a time.
   */
  sweep(): Promise<BoardTask[]> {
    this.sweeping = this.sweeping.then(() => this.sweepOnce(), () => this.sweepOnce());
    return this.sweeping;
  }

  dispose(): void {
    this.ended.dispose();
    if (this.timer) clearInterval(this.timer);
  }

  private async sweepOnce(): Promise<BoardTask[]> {
    const board = await this.deps.board();
    if (!board) return [];
    const leadOf = (teamId: string) => this.team(teamId)?.lead;
    const moved = await board.releaseOrphans(this.deps.runs.live(), leadOf, this.deps.maxReturns ?? 2, this.now());
    for (const t of moved) {
      const lead = leadOf(t.teamId);
      if (!lead) continue;
      const where = t.assignee === lead ? 'it is assigned to you now' : 'it is pending again';
      await board.send(t.teamId, 'watchdog', [lead], `[watchdog] Task #${t.id} "${t.subject}" came back (${t.returns} time${t.returns === 1 ? '' : 's'}): the member's run ended without completing it or reporting a blocker; ${where}.`, this.now());
    }
    return moved;
  }

  private async wakeIfWaiting(team: TeamDefinition, entry: MemberEntry, board: BoardStore): Promise<void> {
    const offered = this.offered.get(`${team.id}/${entry.member}`) ?? new Set<number>();
    const tasks = (await board.list(team.id, 'active', 'priority'))
      .filter((t) => t.status === 'pending' && t.assignee === entry.member && t.openBlockers.length === 0 && t.returns === 0 && !offered.has(t.id));
    if (!tasks.length) return;
    const unread = await board.unreadCount(team.id, entry.member);
    const why = [
      `Waiting for you: ${tasks.map((t) => `Task #${t.id} "${t.subject}"`).join(', ')} — claim it and work on it.`,
      unread ? `You have ${unread} unread message${unread === 1 ? '' : 's'}: read them with team_message read.` : '',
    ].filter(Boolean).join('\n');
    await this.activate({ team, name: team.lead, role: 'lead', leadSessionKey: entry.leadSessionKey }, entry.member, why);
  }

  private async runEnded(e: RunEnded): Promise<void> {
    const entry = [...this.members.values()].find((m) => m.runId === e.runId);
    try {
      if (entry) {
        this.active.delete(`${entry.teamId}/${entry.member}`);
        const team = this.team(entry.teamId);
        const board = await this.deps.board();
        if (team && board && e.result) {
          const how = e.status === 'done' ? '' : ` (its run ${e.status})`;
          await board.send(team.id, entry.member, [team.lead], `[${entry.member}]${how} ${e.result}`, this.now());
        }
        await this.sweep();
        if (team && board) await this.wakeIfWaiting(team, entry, board);
        return;
      }
      await this.sweep();
    } catch (err) {
      this.deps.warn?.(`Pincer could not settle the team tasks of run ${e.runId}: ${(err as Error).message}`);
    }
  }
}
