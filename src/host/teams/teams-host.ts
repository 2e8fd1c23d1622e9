// Teams in the editor: the core (src/core/teams) with VS Code's ports — the definitions from
// `.pincer/teams/*.md` (watched) and the `pincer.teams` setting (a workspace's own only when trusted), the board in the workspace database
// (watched, so the Team Board follows every change), members run as the chat's subagents, ask_user as
// an input box, quality gates through the runtime's exec, and Pincer: Pick Team… in the palette.
// The team service starts on first need (a team tool call, a lead's turn, the board opening): it
// needs the chat bundle, which the tools alone never load.
import * as vscode from 'vscode';
import { filesAndFoldersGlob } from '../dir-watchers';
import type { AgentDefinition } from '../../core/agents/types';
import type { EmbeddingProvider } from '../../core/memory/embeddings';
import type { TeamMemory } from '../../core/memory/team-memory-router';
import { systemClock } from '../../core/clock';
import type { PincerRuntime } from '../../core/runtime';
import type { BoardStore } from '../../core/teams/board-types';
import { subagentMemberRuns } from '../../core/teams/member-runs';
import { SqlLeadBindings, type LeadBindings } from '../../core/teams/lead-bindings';
import { gatePorts } from '../../core/teams/quality-gates';
import type { ChatTeamPort } from '../../core/teams/team-choices';
import type { TeamDefinition } from '../../core/teams/team-definition';
import { teamMd } from '../../core/teams/team-prompt';
import { TeamService } from '../../core/teams/team-service';
import { readTeams, TEAMS_DIR } from '../../core/teams/team-sources';
import type { ToolsetPorts } from '../../core/toolset';
import type { ToolResult } from '../../core/tools/types';
import type { ChatHost } from '../chat/chat-lazy';
import { personCall } from '../services';
import type { StorageHost } from '../storage-host';
import { createTeamStoreHost, type OpenBoard } from './team-store-host';

export interface TeamsHostDeps {
  rt: PincerRuntime;
  storage: StorageHost;
  /** Where the team store's password is kept. */
  secrets: vscode.SecretStorage;
  /** The chat (its bundle loads only when a member starts or a team is picked). */
  chat: () => ChatHost;
  agents: () => readonly AgentDefinition[];
  /** The primary local workspace folder, where `.pincer/teams` lives. */
  folder: () => string | undefined;
  warn: (message: string) => void;
  /** The workspace's own memory (workspaceState): the team picked last outlives a reload there. */
  state: vscode.Memento;
}

export interface TeamsHost extends vscode.Disposable, ChatTeamPort {
  /** ToolsetPorts.teams: the team tools are offered while a team is defined. */
  port: NonNullable<ToolsetPorts['teams']>;
  teams(): readonly TeamDefinition[];
  /** Definitions that could not be read, each naming its file or setting and field. */
  problems(): readonly string[];
  /** Why there is no board, or that the team store's server is offline; undefined when all is well. */
  storeProblem(): string | undefined;
  /** The team the person picked last (Pincer: Pick Team…, or on the Team Board), in this workspace, across reloads. */
  picked(): string | undefined;
  /** Remembers `teamId` as the team picked last. */
  remember(teamId: string): Promise<void>;
  /** The board (the workspace's, or the server's the person's settings name), watched; undefined when it cannot be opened. */
  board(): Promise<BoardStore | undefined>;
  /** Announces the team of every board change. */
  onBoardChange(listener: (teamId: string) => void): vscode.Disposable;
  /** The window's team service (starts it, and loads the chat bundle, on first call); undefined without a team. */
  service(): TeamService | undefined;
  /** The person's own call of team_tasks (the Team Board's buttons): through the one pipeline, like Run Tool. */
  personTasks(args: Record<string, unknown>): Promise<ToolResult>;
  /** Reads the definitions again; `changed` is told (the toolset rebuilds). */
  reload(): void;
  /**
   * The shared memory and context files of the team `agentId` leads or belongs to (the first such
   * team), when the board is on a server; undefined otherwise (they stay in the workspace).
   */
  teamMemory(agentId: string, embeddings: () => EmbeddingProvider | undefined): Promise<TeamMemory | undefined>;
  /** Set Team Store Password, Move Team to Server… */
  commands: Record<string, (...args: never[]) => unknown>;
  pickCommand(teamId?: string): Promise<TeamDefinition | undefined>;
}

const PICKED_KEY = 'pincer.teams.picked';

export function createTeamsHost(d: TeamsHostDeps, changed: () => void): TeamsHost {
  let defs: { teams: TeamDefinition[]; problems: string[] } = { teams: [], problems: [] };
  let svc: TeamService | undefined;
  let watched: Promise<{ open: OpenBoard; sub: { dispose(): void } } | undefined> | undefined;
  const emitter = new vscode.EventEmitter<string>();
  const subs: vscode.Disposable[] = [emitter];
  const reported = new Set<string>();

  const read = () => {
    // A team's files and workspace settings write the lead's prompt and its gates' commands: in an
    // untrusted workspace only the person's own (user) setting counts.
    const trusted = vscode.workspace.isTrusted;
    const cfg = vscode.workspace.getConfiguration('pincer');
    // An inspect (~0.1 ms) only where the user's own value must be told apart from the workspace's.
    defs = readTeams(trusted ? d.folder() : undefined, trusted ? cfg.get<unknown>('teams') : cfg.inspect<unknown>('teams')?.globalValue);
    for (const p of defs.problems.filter((x) => !reported.has(x))) {
      reported.add(p);
      d.warn(`team definition: ${p}`);
    }
  };
  const reload = () => {
    read();
    changed();
    // The chat's agent picker lists the teams: an open chat shows the new list.
    const chat = d.chat();
    if (chat.isLoaded() && chat.view.visible) chat.view.controller.refreshPickers();
  };
  read();
  const fireAll = () => defs.teams.forEach((t) => emitter.fire(t.id));
  const store = createTeamStoreHost(d.secrets, d.storage, () => defs.teams);
  const boardWatched = () => (watched ??= store.open().then((open) => open && {
    open, sub: open.onChange((team) => (team === undefined ? fireAll() : emitter.fire(team))),
  }));
  // Another store was chosen (or the server went offline or came back): every board shown reads again.
  subs.push(store, store.onDidChange((reopened) => {
    if (reopened) {
      const was = watched;
      watched = undefined;
      void was?.then((w) => w?.sub.dispose());
    }
    fireAll();
  }));
  const board = async () => (await boardWatched())?.open.store;
  // The sessions started for a team are kept in the workspace database beside the chat sessions.
  const kept = async () => {
    const db = await d.storage.database();
    if (!db) throw new Error('the workspace database could not be opened');
    return new SqlLeadBindings(db);
  };
  const leadBindings: LeadBindings = { all: async () => (await kept()).all(), bind: async (key, team, at) => (await kept()).bind(key, team, at) };
  const service = () => {
    if (!defs.teams.length) return undefined;
    if (svc) return svc;
    svc = new TeamService({
      board, teams: () => defs.teams, agents: d.agents, runs: subagentMemberRuns(d.chat().subagents), clock: systemClock,
      warn: d.warn, bindings: leadBindings,
      askUser: async (q, signal) => {
        const cts = new vscode.CancellationTokenSource();
        signal.addEventListener('abort', () => cts.cancel(), { once: true });
        try {
          return await vscode.window.showInputBox({
            title: `Team ${q.teamId}: ${q.from} asks${q.taskId !== undefined ? ` (task #${q.taskId})` : ''}`, prompt: q.question, ignoreFocusOut: true,
          }, cts.token);
        } finally {
          cts.dispose();
        }
      },
    });
    // A question asked or settled redraws its team's board.
    subs.push(svc.questions.onChange((team) => emitter.fire(team)));
    return svc;
  };

  const leadTeam = async (sessionKey: string, agentId: string) => {
    const s = service();
    await s?.ready();
    return s?.leadTeam(sessionKey, agentId);
  };

  const folder = d.folder();
  if (folder) {
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, filesAndFoldersGlob([`${TEAMS_DIR}/*.md`])));
    subs.push(w, w.onDidChange(reload), w.onDidCreate(reload), w.onDidDelete(reload));
  }
  subs.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('pincer.teams') && reload()), vscode.workspace.onDidGrantWorkspaceTrust(reload));

  return {
    port: { service, defined: () => defs.teams.length > 0, gates: () => gatePorts(() => d.rt.registry, () => d.chat().subagents) },
    teams: () => defs.teams,
    problems: () => defs.problems,
    storeProblem: () => store.problem(),
    async teamMemory(agentId, embeddings) {
      const team = defs.teams.find((t) => t.lead === agentId || t.members.some((m) => m.agent === agentId));
      if (!team || !store.onServer()) return undefined;
      return (await boardWatched())?.open.teamMemory?.(team.id, embeddings);
    },
    commands: store.commands,
    picked: () => d.state.get<string>(PICKED_KEY),
    remember: async (teamId) => { await d.state.update(PICKED_KEY, teamId); },
    board,
    onBoardChange: (listener) => {
      void boardWatched();
      return emitter.event(listener);
    },
    service,
    personTasks: (args) => personCall(d.rt, 'team_tasks', args),
    async teamMd(sessionKey, agentId) {
      const team = await leadTeam(sessionKey, agentId);
      return team && teamMd(team, (a) => d.agents().find((x) => x.id === a)?.description);
    },
    // Asked at every chat page and pick: until the team service runs (it sweeps the board), the kept
    // bindings answer, so opening the chat does not start it.
    async sessionTeam(sessionKey, agentId) {
      if (!defs.teams.length) return undefined;
      if (svc) return (await leadTeam(sessionKey, agentId))?.id;
      const bound = (await leadBindings.all()).filter((b) => b.sessionKey === sessionKey).at(-1)?.teamId;
      return defs.teams.find((t) => t.id === bound && t.lead === agentId)?.id;
    },
    reload,
    async pickCommand(teamId) {
      const teams = defs.teams;
      if (!teams.length) {
        void vscode.window.showInformationMessage('Pincer: no team is defined. Add .pincer/teams/<id>.md (front matter: name, lead, members) or the pincer.teams setting.');
        return undefined;
      }
      const team = teamId !== undefined ? teams.find((t) => t.id === teamId) : (await vscode.window.showQuickPick(
        teams.map((t) => ({ label: t.name, description: `lead ${t.lead}`, detail: `members: ${t.members.map((m) => m.agent).join(', ')}`, team: t })),
        { title: 'Pincer: pick a team (its lead becomes the chat\'s agent)' },
      ))?.team;
      if (!team) return undefined;
      if (!d.agents().some((a) => a.id === team.lead)) {
        void vscode.window.showWarningMessage(`Pincer: team ${team.id}'s lead ${team.lead} is not a defined agent.`);
        return undefined;
      }
      await d.state.update(PICKED_KEY, team.id);
      // A new chat session with the lead, started for this team: the lead leads it there only.
      const { view } = d.chat();
      // Shown without taking the focus: the person may be on to the next thing (the board) by then.
      await view.reveal({ preserveFocus: true });
      await view.controller.pickAgent(team.lead);
      await view.controller.handle({ type: 'new-session' });
      const key = view.controller.currentSession;
      if (key) await service()?.bindLead(key, team.id).catch((e: unknown) => d.warn(`Pincer could not keep that this chat session leads team ${team.id}: ${(e as Error).message}`));
      // The agent picker shows the team now that the session is its.
      view.controller.refreshPickers();
      return team;
    },
    dispose: () => {
      svc?.dispose();
      subs.forEach((s) => s.dispose());
    },
  };
}
