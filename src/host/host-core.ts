// Everything behind the first use of Pincer in a window: the runtime (zod schemas, policy, guards),
// the tool log, the sidebar's logic, storage. Bundled separately (dist/host-core.js) and required by
// extension.ts on first use, so activation itself only registers commands and views.
import './zod-jitless';
import * as os from 'os';
import * as vscode from 'vscode';
import { prepareScrubber } from '../core/guard/scrubber';
import { PincerRuntime } from '../core/runtime';
import { runToolCommand } from './commands/run-tool';
import { showEffectiveToolsCommand, type EffectiveToolsQuery } from './commands/show-effective-tools';
import type { ResultDocuments } from './result-documents';
import type { HostServices } from './services';
import { createWarner, declaredDefaults, readSettings, watchSettings } from './settings';
import { SidebarView } from './sidebar-view';
import { StorageHost } from './storage-host';
import { ToolLog } from './tool-log';
import { registerReview, type ReviewHost } from './review/review-host';
import { CheckpointStore } from '../core/fs/checkpoint-store';
import { CheckpointingReviewer } from '../core/fs/checkpointing-reviewer';
import { restoreCheckpointCommand } from './checkpoints-host';
import { locateRipgrep } from '../core/fs/ripgrep-locate';
import type { PathGuard } from '../core/fs/path-guard';
import { createToolset } from '../core/toolset';
import { VscodeWorkspaceFs } from './vscode-fs';
import { workspacePlan } from './virtual-folders';
import { MemoryHost } from './memory/memory-host';
import { registerMemory } from './memory/memory-register';
import type { MemoryView } from './memory/memory-view';
import { registerExec, type ExecHost } from './exec/exec-host';
import { registerChatLazily, type ChatHost } from './chat/chat-lazy';
import { SubagentsView } from './subagents/subagents-view';
import { registerMcpLazily, type LazyMcpHost } from './mcp-lazy';
import { registerMcpView } from './mcp/mcp-view-register';
import type { McpServersView } from './mcp/mcp-view';
import type { McpStatus } from './mcp/mcp-view-actions';
import { createCustomToolsHost, type CustomToolsHost } from './customtools/custom-tools-host';
import { createLmHost, type LmHost } from './lm/lm-host';
import { lazyMcpServe } from './lm/mcp-serve-lazy';
import { createSkillsHost, type SkillsHost } from './skills/skills-host';
import { createTeamsHost, type TeamsHost } from './teams/teams-host';
import { TeamBoardPanel } from './teams/team-board-panel';
import { createWebSearchKeys } from './web/web-search-keys';
import { createCronHost, type CronHost } from './automation/cron-host';
import { stageClock } from './stage-clock';
import { afterFirstCall } from './after-first-call';

export interface HostCore {
  services: HostServices;
  sidebar: SidebarView;
  storage: StorageHost;
  review: ReviewHost;
  memory: MemoryHost;
  memoryView: MemoryView;
  exec: ExecHost;
  chat: ChatHost;
  /** The Subagents view's data (the tree VS Code shows; tests read it too). */
  subagentsView: SubagentsView;
  /** MCP servers and their tools (mcp_<server>__<tool>); the client loads when a server is defined (mcp-lazy.ts). */
  mcp: LazyMcpHost;
  /** The MCP Servers view's data (the tree VS Code shows; tests read it too). */
  mcpView: McpServersView;
  /** The status bar's warning while an MCP server is down (tests read what it shows). */
  mcpStatus: McpStatus;
  /** VS Code's own agent calling Pincer's tools (pincer_<tool>, registered by the activation shell). */
  lm: LmHost;
  /** Custom tools from `.pincer/tools/*.json` and pincer.tools.custom, watched. */
  customTools: CustomToolsHost;
  /** Skills (SKILL.md folders), watched, with the Skills view's data. */
  skills: SkillsHost;
  /** Teams (src/core/teams) and their board panel. */
  teams: TeamsHost;
  teamBoard: TeamBoardPanel;
  /** Scheduled jobs: the window's scheduler and the Scheduled view's data. */
  cron: CronHost;
  /** The checkpoint store, once the database is open. */
  checkpoints(): CheckpointStore | undefined;
  /** Every contributed command but Show Tool Log, by id: the activation shell registers them. */
  commands: Record<string, (...args: never[]) => unknown>;
  /** Resolves once the tool log is backed by the database (or storage failed and was reported). */
  storageReady(): Promise<void>;
  /** Milliseconds per step of createHostCore (the first tool call's bench records them). */
  createStages: Record<string, number>;
}

export function createHostCore(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel, docs: ResultDocuments): HostCore {
  const clock = stageClock();
  const warn = createWarner(channel);
  // package.json's defaults, read once: readSettings compares with them (see declaredDefaults).
  const declared = declaredDefaults(context.extension.packageJSON);
  const config = readSettings(warn, declared);
  clock.mark('settings');
  const rt = new PincerRuntime({ config, warn });
  // The host is loaded for a tool call or a chat: the scrubber's first pattern compile (~8 ms) runs at
  // the next turn, overlapping the model's answer or a command instead of delaying the first result.
  prepareScrubber();
  // What can wait until the first tool call has answered (watchers, first reports) waits for it.
  const later = afterFirstCall(rt.registry.onCallEnd);
  clock.mark('runtime');
  const log = new ToolLog(channel, rt);
  const services: HostServices = { rt, docs, log };
  const sidebar = new SidebarView(context.extensionUri, services, () => toolset.hidden());
  const storage = new StorageHost(context, warn);
  const review = registerReview(context, () => ({ mode: rt.currentConfig.edits.review, autoApprove: rt.currentConfig.edits.autoApprove, home: os.homedir() }));

  let attached: Promise<void> | undefined;
  const storageReady = () => (attached ??= storage.toolLogStore().then((s) => (s ? log.attach(s) : undefined)));
  // sql.js starts on first need: the sidebar opening, or just after the first tool call (the log
  // keeps that call until the store is there), whichever comes first. A tool that needs the
  // database during the call opens it itself.
  const firstCall = rt.registry.onCallEnd.on(() => {
    firstCall.dispose();
    setImmediate(() => void storageReady());
  });
  void sidebar.resolved.then(() => storageReady());
  clock.mark('sidebar+storage+review');

  // Checkpoints wrap the review: a file's original is in the database before any change can land.
  let checkpoints: CheckpointStore | undefined;
  const checkpointStore = () => storage.database().then((db) => db && (checkpoints ??= new CheckpointStore(db)));
  const reviewer = new CheckpointingReviewer(review.reviewer, checkpointStore, new VscodeWorkspaceFs(), warn);
  const memory = new MemoryHost(context, rt, storage, warn);
  const memoryParts = registerMemory(memory);
  clock.mark('memory');
  // The executors read the toolset's path guard; the toolset hands it over as it starts.
  let guard: () => PathGuard = () => { throw new Error('the toolset has not started'); };
  const exec = registerExec(context, rt, storage, () => guard(), warn);
  clock.mark('exec');
  // The lead's TEAM.md comes from the teams, which start members as the chat's subagents.
  const teams = createTeamsHost({ rt, storage, secrets: context.secrets, chat: () => chat, agents: () => memory.agents.registry.all(), folder: () => workspacePlan().local[0]?.path, warn, state: context.workspaceState }, () => toolset.rebuild());
  // A team agent's shared memory and context files follow its board to the team store's server.
  memory.useTeams((agentId, embeddings) => teams.teamMemory(agentId, embeddings));
  const chat = registerChatLazily(context, rt, storage, memory, exec, review, teams);
  const teamBoard = new TeamBoardPanel(context.extensionUri, teams);
  const subagentsView = new SubagentsView({ control: () => chat.loadedSubagents(), sessions: chat.sessions, docs });
  clock.mark('teams+chat');
  // The one toolset (src/core/toolset.ts), from this window's ports: local workspace folders (or, in a
  // virtual workspace, the FileSystemProvider folders), reads through vscode.workspace.fs, writes
  // through the review, grep with VS Code's own ripgrep, Pincer's storage folders never visible to the tools.
  const customTools = createCustomToolsHost(context, () => workspacePlan().local.map((f) => f.path), channel);
  clock.mark('customTools');
  const skills = createSkillsHost(context, () => workspacePlan().local.map((f) => f.path), channel);
  clock.mark('skills');
  // Scheduled jobs run in this window from now on (the scheduler claims each due job in the database).
  const cron = createCronHost(rt, storage, chat, docs, () => workspacePlan().local[0]?.path);
  const webKeys = createWebSearchKeys(context.secrets, rt.scrubber);
  clock.mark('cron+webKeys');
  const toolset = createToolset({
    webSearchKey: (p) => webKeys.key(p),
    customTools: customTools.port, teams: teams.port,
    skills: skills.port, cron: cron.port,
    rt, home: os.homedir(), fs: new VscodeWorkspaceFs(), reviewer, rgPath: locateRipgrep([vscode.env.appRoot]),
    folders: () => workspacePlan().local, virtualFolders: () => workspacePlan().virtual,
    ownStorage: [context.storageUri?.fsPath, context.globalStorageUri.fsPath].filter((p): p is string => !!p),
    memory: () => memory.services(), userId: () => memory.userId(),
    sessions: chat.sessions, runner: () => chat.service.runner(),
    subagents: () => chat.subagents, agents: () => memory.agents.registry.all(), handoffs: chat.handoffs,
    exec: (g) => {
      guard = g;
      return exec.ports;
    },
  });
  clock.mark('toolset');
  customTools.attach(toolset, (work) => later.run(work));
  skills.attach(toolset, (work) => later.run(work));
  clock.mark('customTools+skills.attach');
  const mcp = registerMcpLazily(context, rt, channel, () => workspacePlan().local.map((f) => f.path), { approver: () => exec.approvals, approvalTimeoutMs: () => rt.currentConfig.exec.approvalTimeoutMs }, warn,
    // A server's sampling request is answered by the chat's model (loading the chat bundle then, not before).
    () => chat.models.current());
  clock.mark('mcp');
  const mcpView = registerMcpView(context, mcp, rt, docs, () => workspacePlan().local[0]?.path, async (chips) => {
    await chat.view.reveal();
    chat.view.controller.attach(chips);
  });
  clock.mark('mcpView');
  const lm = createLmHost({ rt, guard: () => toolset.guard(), approvals: exec.store, workspaceRoot: () => workspacePlan().local[0]?.path, warn });
  const mcpServe = lazyMcpServe(context, rt, () => workspacePlan().local[0]?.path);
  const applySettings = () => {
    rt.applyConfig(memoryParts.withAgents(readSettings(warn, declared)));
    toolset.rebuild();
    chat.rebuild();
    sidebar.refresh();
  };
  context.subscriptions.push(
    later, vscode.workspace.onDidChangeWorkspaceFolders(() => toolset.rebuild()), exec, chat, subagentsView, log, sidebar, firstCall, memory, memoryParts, { dispose: () => void storage.dispose() },
    watchSettings(applySettings),
    memory.agents.registry.onDidChange.on(applySettings),
    vscode.workspace.onDidGrantWorkspaceTrust(() => sidebar.refresh()),
    skills, cron,
    mcp, mcpView, customTools, mcpServe, teams, teamBoard,
  );
  clock.mark('lm+rest');
  const core: HostCore = {
    createStages: clock.stages,
    services, sidebar, storage, storageReady, review, memory, memoryView: memoryParts.view, exec, chat, subagentsView, mcp, mcpView: mcpView.view, mcpStatus: mcpView.status, customTools, lm, teams, teamBoard, cron,
    commands: {
      ...memoryParts.commands(context, docs),
      'pincer.runTool': (name?: string, args?: unknown, opts?: { show?: boolean }) => runToolCommand(services, name, args, opts),
      'pincer.showEffectiveTools': (q?: EffectiveToolsQuery) => showEffectiveToolsCommand(services, q, toolset.hidden()),
      'pincer.restoreCheckpoint': async (id?: number, opts?: { confirm?: boolean }) => restoreCheckpointCommand(await checkpointStore(), id, opts),
      ...review.commands,
      ...exec.commands,
      ...chat.commands,
      ...subagentsView.commands(),
      ...mcpView.commands,
      'pincer.customTools.reload': () => customTools.reloadCommand(),
      'pincer.teams.pick': (id?: string) => teams.pickCommand(id),
      'pincer.teams.openBoard': (id?: string) => teamBoard.open(id),
      ...teams.commands,
      'pincer.serveToolsOverMcp': (opts?: { quiet?: boolean; stop?: boolean }) => mcpServe.command(opts),
      ...webKeys.commands,
      ...skills.commands,
      ...cron.commands,
    },
    checkpoints: () => checkpoints,
    skills,
  };
  clock.mark('commands');
  return core;
}
