// The one toolset: every tool Pincer offers — the file tools with the context-file and memory routing
// in front of them, memory_*, sessions_*, exec, process and credentialed_exec (the builtins come with
// the runtime) — built from the ports an entry point provides. The extension and the CLI both build
// exactly this; only the ports differ (VS Code's file system, diff review, terminal and secret storage
// there; Node's file system, --write, child processes and the environment in the CLI).
import { createExecTools, type ExecToolsDeps } from './exec/exec-tools';
import { createFsTools } from './fs/fs-tools';
import { PathGuard } from './fs/path-guard';
import type { EditReviewer, WorkspaceFs } from './fs/types';
import { interceptFsTools } from './memory/fs-interceptor';
import type { MemoryServices } from './memory/memory-services';
import { createMemoryTools } from './memory/memory-tools';
import type { PincerRuntime } from './runtime';
import type { SessionStore } from './sessions/session-store';
import { createSessionsHistoryTool } from './sessions/tools/sessions-history';
import { createSessionsListTool } from './sessions/tools/sessions-list';
import { createSessionsSendTool, type SessionRunner } from './sessions/tools/sessions-send';
import type { Tool } from './tools/types';

export interface ToolsetPorts {
  rt: PincerRuntime;
  /** The workspace folders on a local disk, the primary one first. */
  folders: () => readonly { path: string; name?: string }[];
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
  /**
   * What exec, process and credentialed_exec run with, given the toolset's path guard (the executors
   * read its roots when a command starts; the sandbox makes them writable).
   */
  exec: (guard: () => PathGuard) => ExecPorts;
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
}

export function createToolset(p: ToolsetPorts): Toolset {
  let guard = guardFor(p);
  const exec = p.exec(() => guard);
  const build = () => {
    guard = guardFor(p);
    const g = guard;
    const c = p.rt.currentConfig;
    const fsTools = createFsTools(
      { guard: g, fs: p.fs, reviewer: p.reviewer },
      { rgPath: p.rgPath, denyPaths: [...c.fs.denyPaths, ...p.ownStorage], home: p.home, maxResultChars: c.limits.maxResultChars },
    );
    const routed = interceptFsTools(fsTools, {
      routed: async () => (await p.memory())?.routed, userId: p.userId, roots: () => g.roots,
      routedNames: () => p.rt.currentConfig.memory.routedContextFiles, maxResultChars: c.limits.maxResultChars,
    });
    p.rt.replaceTools([
      ...routed,
      ...createMemoryTools({ store: async () => (await p.memory())?.memory, userId: p.userId }),
      createSessionsListTool(p.sessions), createSessionsHistoryTool(p.sessions), createSessionsSendTool(p.sessions, p.runner),
      ...createExecTools({
        config: () => p.rt.currentConfig.exec, guard: () => guard, executor: exec.executor, jobs: exec.jobs,
        store: exec.store, approver: exec.approver, baseEnv: () => process.env, home: p.home,
        credentials: { binaries: () => p.rt.currentConfig.exec.credentialed, secrets: exec.secrets, scrubber: p.rt.scrubber },
        workspaceRoot: () => guard.roots[0],
      }),
    ] as Tool[]);
  };
  build();
  return { rebuild: build, guard: () => guard };
}

function guardFor(p: ToolsetPorts): PathGuard {
  const folders = p.folders();
  const c = p.rt.currentConfig.fs;
  return new PathGuard({
    roots: folders.map((f) => f.path), rootNames: folders.every((f) => f.name) ? folders.map((f) => f.name!) : undefined, workspaceOnly: c.workspaceOnly,
    allowPaths: c.allowPaths, denyPaths: c.denyPaths, alwaysDeny: [...p.ownStorage], home: p.home,
  });
}
