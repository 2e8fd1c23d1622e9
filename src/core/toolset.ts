// The one toolset: every tool Pincer offers — the file tools with the context-file and memory routing
// in front of them, memory_*, sessions_*, exec, process and credentialed_exec (the builtins come with
// the runtime) — built from the ports an entry point provides. The extension and the CLI both build
// exactly this; only the ports differ (VS Code's file system, diff review, terminal and secret storage
// there; Node's file system, --write, child processes and the environment in the CLI).
import { createCustomTools } from './customtools/custom-tools';
import type { CustomToolSecrets } from './customtools/custom-tool';
import type { CustomToolDefinition } from './customtools/definition';
import type { ExecToolsDeps } from './exec/exec-tools';
import { createFsTools } from './fs/fs-tools';
import { LexicalPathGuard } from './fs/lexical-guard';
import { PathGuard } from './fs/path-guard';
import type { EditReviewer, PathResolver, WorkspaceFs } from './fs/types';
import type { VirtualFolder } from './fs/virtual-folders';
import { hiddenForVirtualWorkspace, type HiddenTool } from './fs/virtual-hidden-tools';
import { interceptFsTools } from './memory/fs-interceptor';
import type { MemoryServices } from './memory/memory-services';
import type { PincerRuntime } from './runtime';
import type { HandoffStore } from './sessions/handoff-store';
import type { SessionStore } from './sessions/session-store';
import type { SessionRunner } from './sessions/tools/sessions-send';
import type { AgentDefinition } from './agents/types';
import type { SubagentManager } from './subagents/subagent-manager';
import type { GatePorts } from './teams/quality-gates';
import type { TeamService } from './teams/team-service';
import type { Tool } from './tools/types';
import type { SearchProviderId } from './web/web-config';
import type { SkillCatalog } from './skills/skill-catalog';
import type { CronToolPorts } from './automation/cron-tool';
import type { SkillToolPorts } from './skills/skill-tools';
import { lazyTools } from './tools/lazy-tool';
import { TOOL_STUBS } from './tool-stubs';

export interface ToolsetPorts {
  rt: PincerRuntime;
  /** The workspace folders on a local disk, the primary one first. */
  folders: () => readonly { path: string; name?: string }[];
  /**
   * Folders served by a FileSystemProvider (planWorkspace's answer), used only when there is no local
   * folder: the file tools then reach them through `fs` with a lexical path guard, and the tools that
   * need a local folder are hidden.
   */
  virtualFolders?: () => readonly VirtualFolder[];
  home: string;
  /** Pincer's own storage (the database, its journal): never visible to the file tools. */
  ownStorage: readonly string[];
  fs: WorkspaceFs;
  reviewer: EditReviewer;
  /** ripgrep for grep (locateRipgrep's answer); undefined: grep's worker fallback. */
  rgPath?: string;
  /** Memory and context files, opened on first use; undefined when there is no store. */
  memory: () => Promise<MemoryServices | undefined>;
  /** Whose memory and per-user context files these are (pincer.user, else the OS user). */
  userId: () => string;
  sessions: () => Promise<SessionStore | undefined>;
  /** Runs a turn in another session; undefined where no model is configured. */
  runner: () => SessionRunner | undefined;
  /** The window's subagents; undefined (or absent) where no model is configured. */
  subagents?: () => SubagentManager | undefined;
  /** The agents a child may be started as (listed in spawn's description). */
  agents?: () => readonly AgentDefinition[];
  /** The chat's handed-over sessions; absent (an entry point without a chat): no handoff tool. */
  handoffs?: () => Promise<HandoffStore | undefined>;
  /**
   * What exec, process and credentialed_exec run with, given the toolset's path guard (the executors
   * read its roots when a command starts; the sandbox makes them writable).
   */
  exec: (guard: () => PathGuard) => ExecPorts;
  /** The window's teams (board, mailbox, member runs) and what runs their quality gates; absent: no team tools. */
  teams?: {
    service: () => TeamService | undefined; gates?: () => GatePorts | undefined;
    /** Whether any team is defined now (absent: always); without one the team tools are not offered. */
    defined?: () => boolean;
  };
  /**
   * Custom tools (src/core/customtools): the definitions now, already read with trust applied, and
   * where their `${secret:…}` values come from. Absent: none.
   */
  /**
   * The entry point's skills (src/core/skills) and who confirms publishing one (absent: publish_skill
   * refuses). Absent: no skill tools.
   */
  skills?: { catalog: SkillCatalog; confirmPublish?: SkillToolPorts['confirmPublish']; used?: SkillToolPorts['used'] };
  /** Scheduled jobs (src/core/automation): their store and the window's scheduler. Absent: no cron tool. */
  cron?: CronToolPorts;
  /** Web search providers' keys from the person's secret storage; absent: web_search uses DuckDuckGo only. */
  webSearchKey?: (provider: SearchProviderId) => Promise<string | undefined>;
  customTools?: {
    definitions: () => readonly CustomToolDefinition[];
    secrets: CustomToolSecrets;
  };
}

export type ExecPorts = Pick<ExecToolsDeps, 'executor' | 'jobs' | 'store' | 'approver'> & {
  /** Where credentialed_exec finds a credential's value. */
  secrets: ExecToolsDeps['credentials']['secrets'];
};

export interface Toolset {
  /** Builds every tool again from the current settings and folders (after either changed). */
  rebuild(): void;
  /** The path guard of the current build; exec checks working folders and writes with it too. */
  guard(): PathGuard;
  /** Tools the current build leaves out, with the reason (a virtual workspace); Show Effective Tools lists them. */
  hidden(): readonly HiddenTool[];
}

export function createToolset(p: ToolsetPorts): Toolset {
  let guard = guardFor(p);
  let hidden: HiddenTool[] = [];
  let registered: string[] = [];
  const exec = p.exec(() => guard);
  // Made once, not per build: web_fetch's page cache outlives a settings change. Every family but the
  // file tools (which the first call usually is, and which the context-file routing wraps) is built on
  // its first use (tools/lazy-tool.ts): its module is required then, not when the toolset starts.
  const web = lazyTools(TOOL_STUBS.web, () => modules.web().createWebTools({
    config: () => p.rt.currentConfig.web, searchKey: p.webSearchKey,
    askEvaluate: modules.evaluateAsk().evaluateAsker(() => exec.approver?.(), () => p.rt.currentConfig.exec.approvalTimeoutMs),
  }));
  // A rebuild makes a new guard (settings or folders changed); the first build uses the one exec was given.
  const build = (g: PathGuard = guardFor(p)) => {
    guard = g;
    const c = p.rt.currentConfig;
    const virtual = p.folders().length ? [] : (p.virtualFolders?.() ?? []);
    const fsGuard: PathResolver = virtual.length ? new LexicalPathGuard({ folders: virtual, denyPaths: c.fs.denyPaths, fs: p.fs }) : g;
    const fsTools = createFsTools(
      { guard: fsGuard, fs: p.fs, reviewer: p.reviewer },
      // No ripgrep for virtual folders (it needs local paths): grep walks them through `fs`.
      { rgPath: virtual.length ? undefined : p.rgPath, denyPaths: [...c.fs.denyPaths, ...p.ownStorage], home: p.home, maxResultChars: c.limits.maxResultChars },
    );
    // Context-file routing looks at the local disk beside the database, so it serves local folders only.
    const routed = interceptFsTools(fsTools, {
      routed: async () => (await p.memory())?.routed, userId: p.userId, roots: () => (virtual.length ? [] : g.roots),
      routedNames: () => p.rt.currentConfig.memory.routedContextFiles, maxResultChars: c.limits.maxResultChars,
    });
    const tools = [
      ...routed,
      ...lazyTools(TOOL_STUBS.readDocument, () => [modules.readDocument().createReadDocumentTool({ guard: fsGuard, fs: p.fs })]),
      ...lazyTools(TOOL_STUBS.readImage, () => [modules.readImage().createReadImageTool({ guard: fsGuard, fs: p.fs })]),
      ...lazyTools(TOOL_STUBS.memory, () => modules.memory().createMemoryTools({ store: async () => (await p.memory())?.memory, userId: p.userId })),
      ...lazyTools(TOOL_STUBS.sessions, () => [
        modules.sessionsList().createSessionsListTool(p.sessions),
        modules.sessionsHistory().createSessionsHistoryTool(p.sessions),
        modules.sessionsSend().createSessionsSendTool(p.sessions, p.runner),
      ]),
      // Children are model turns: an entry point with no model (the CLI) does not offer spawn.
      ...(p.subagents ? lazyTools(TOOL_STUBS.spawn, () => [modules.spawn().createSpawnTool(p.subagents!, p.agents)]) : []),
      ...(p.handoffs ? lazyTools(TOOL_STUBS.handoff, () => [modules.handoff().createHandoffTool({ handoffs: p.handoffs!, sessions: p.sessions, agents: p.agents ?? (() => []) })]) : []),
      ...(p.teams && (p.teams.defined?.() ?? true) ? lazyTools(TOOL_STUBS.teams, () => [
        modules.teamTasks().createTeamTasksTool(p.teams!.service, p.teams!.gates),
        modules.teamMessage().createTeamMessageTool(p.teams!.service),
      ]) : []),
      ...(p.skills ? lazyTools(TOOL_STUBS.skills, () => modules.skills().createSkillTools({
        catalog: p.skills!.catalog, confirmPublish: p.skills!.confirmPublish, used: p.skills!.used, registry: () => p.rt.registry, home: p.home,
        files: () => ({ denyPaths: p.rt.currentConfig.fs.denyPaths, alwaysDeny: p.ownStorage, home: p.home }), maxChars: () => p.rt.currentConfig.limits.maxResultChars,
      })) : []),
      ...web,
      ...(p.cron ? lazyTools(TOOL_STUBS.cron, () => [modules.cron().createCronTool(p.cron!)]) : []),
      ...lazyTools(TOOL_STUBS.exec, () => modules.exec().createExecTools({
        config: () => p.rt.currentConfig.exec, guard: () => guard, executor: exec.executor, jobs: exec.jobs,
        store: exec.store, approver: exec.approver, baseEnv: () => process.env, home: p.home,
        credentials: { binaries: () => p.rt.currentConfig.exec.credentialed, secrets: exec.secrets, scrubber: p.rt.scrubber },
        workspaceRoot: () => guard.roots[0],
      })),
    ] as Tool[];
    // Custom tools run programs in a local folder, through exec's judge and host; never under another tool's name.
    const others = new Set([...tools.map((t) => t.name), ...p.rt.registry.names().filter((n) => !registered.includes(n))]);
    const custom = p.customTools && !virtual.length
      ? createCustomTools(p.customTools.definitions(), {
        config: () => p.rt.currentConfig.exec, guard: () => guard, executor: exec.executor, jobs: exec.jobs, store: exec.store,
        approver: exec.approver, baseEnv: () => process.env, home: p.home, secrets: p.customTools.secrets, scrubber: p.rt.scrubber,
      }, others)
      : { tools: [], refused: (p.customTools?.definitions() ?? []).map((d) => ({ tool: d.name, reason: 'custom tools run programs in a folder on the local disk' })) };
    tools.push(...custom.tools);
    const leftOut = [
      ...hiddenForVirtualWorkspace(tools.map((t) => t.name), virtual),
      ...(p.subagents ? [] : [{ tool: 'spawn', reason: 'spawn starts child agents, which are model turns, and this entry point has no model: use it from the chat.' }]),
    ];
    const offered = tools.filter((t) => !leftOut.some((h) => h.tool === t.name));
    // A refused custom tool is listed with its reason; the tool it collided with stays.
    hidden = [...leftOut, ...custom.refused];
    // A tool of an earlier build that this one leaves out must not stay registered.
    for (const name of registered) if (!offered.some((t) => t.name === name)) p.rt.registry.unregister(name);
    registered = offered.map((t) => t.name);
    p.rt.replaceTools(offered);
  };
  build(guard);
  return { rebuild: () => build(), guard: () => guard, hidden: () => hidden };
}

/**
 * The lazy families' modules, each required when its family is first used: in the bundle a module
 * reached only through require() is evaluated then, not when the runtime loads. Literal paths, so
 * that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const modules = {
  web: () => require('./web/web-tools') as typeof import('./web/web-tools'),
  evaluateAsk: () => require('./browser/evaluate-ask') as typeof import('./browser/evaluate-ask'),
  readDocument: () => require('./media/read-document-tool') as typeof import('./media/read-document-tool'),
  readImage: () => require('./media/read-image-tool') as typeof import('./media/read-image-tool'),
  memory: () => require('./memory/memory-tools') as typeof import('./memory/memory-tools'),
  sessionsList: () => require('./sessions/tools/sessions-list') as typeof import('./sessions/tools/sessions-list'),
  sessionsHistory: () => require('./sessions/tools/sessions-history') as typeof import('./sessions/tools/sessions-history'),
  sessionsSend: () => require('./sessions/tools/sessions-send') as typeof import('./sessions/tools/sessions-send'),
  spawn: () => require('./sessions/tools/spawn') as typeof import('./sessions/tools/spawn'),
  handoff: () => require('./sessions/tools/handoff') as typeof import('./sessions/tools/handoff'),
  teamTasks: () => require('./teams/team-tasks-tool') as typeof import('./teams/team-tasks-tool'),
  teamMessage: () => require('./teams/team-message-tool') as typeof import('./teams/team-message-tool'),
  skills: () => require('./skills/skill-tools') as typeof import('./skills/skill-tools'),
  cron: () => require('./automation/cron-tool') as typeof import('./automation/cron-tool'),
  exec: () => require('./exec/exec-tools') as typeof import('./exec/exec-tools'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

function guardFor(p: ToolsetPorts): PathGuard {
  const folders = p.folders();
  const c = p.rt.currentConfig.fs;
  return new PathGuard({
    roots: folders.map((f) => f.path), rootNames: folders.every((f) => f.name) ? folders.map((f) => f.name!) : undefined, workspaceOnly: c.workspaceOnly,
    allowPaths: c.allowPaths, denyPaths: c.denyPaths, alwaysDeny: [...p.ownStorage], home: p.home,
  });
}
