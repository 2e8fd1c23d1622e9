// A real toolset with custom tools for unit tests: a temp workspace whose `.pincer/tools/*.json` the test
// writes, the one toolset (src/core/toolset.ts) built over Node's file system, the real process
// executor, a job manager, an in-memory approval store and an approver that answers from a script
// (recording what it was shown), all behind the real Registry pipeline.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryApprovalStore } from '../../../src/core/exec/approval-store';
import { JobManager } from '../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../src/core/exec/run/process-executor';
import { RejectAllReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { readCustomTools, type CustomToolsRead } from '../../../src/core/customtools/sources';
import type { PincerRuntime } from '../../../src/core/runtime';
import { createToolset, type Toolset } from '../../../src/core/toolset';
import type { ToolResult } from '../../../src/core/tools/types';
import { ScriptedApprover } from '../../support/exec-fixture';
import { tempDir } from '../../support/fs-fixtures';
import { runtimeWith } from '../../support/test-tools';

export interface CustomFixture {
  root: string;
  rt: PincerRuntime;
  toolset: Toolset;
  approver: ScriptedApprover;
  store: MemoryApprovalStore;
  /** The last read of the definitions (problems, skipped sources). */
  read(): CustomToolsRead;
  /** Writes `.pincer/tools/<name>` (JSON of `value`, or the text as it is), then reads and rebuilds. */
  writeTool(name: string, value: unknown): void;
  /** Reads the definitions again and rebuilds the toolset, as the host does when a file changes. */
  reload(): void;
  run(tool: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export interface FixtureOptions {
  user?: unknown;
  trusted?: boolean;
  settings?: Record<string, unknown>;
  secrets?: Record<string, string>;
}

export function customFixture(o: FixtureOptions = {}): CustomFixture {
  const root = tempDir('custom-tools');
  const rt = runtimeWith({ 'exec.host': 'process', 'exec.sandbox.mode': 'off', 'rateLimit.enabled': false, 'loopDetection.enabled': false, ...o.settings });
  const jobs = new JobManager();
  const store = new MemoryApprovalStore();
  const approver = new ScriptedApprover();
  const processExec = createProcessExecutor();
  let read: CustomToolsRead = { definitions: [], problems: [], skipped: [] };
  const load = () => {
    read = readCustomTools({
      user: o.user === undefined ? undefined : { value: o.user, file: 'user settings' }, workspaceFolder: root, workspaceTrusted: o.trusted ?? true,
    });
  };
  load();
  const nodeFs = new NodeWorkspaceFs();
  const toolset = createToolset({
    rt, folders: () => [{ path: root }], home: os.homedir(), ownStorage: [], fs: nodeFs, reviewer: new RejectAllReviewer('no writes in these tests'),
    memory: async () => undefined, userId: () => 'tester', sessions: async () => undefined, runner: () => undefined,
    exec: () => ({ executor: () => processExec, jobs, store, approver: () => approver, secrets: { get: async () => undefined } }),
    customTools: {
      definitions: () => read.definitions,
      secrets: { get: async (n) => o.secrets?.[n], howToSet: (n) => `Set it with the test's secrets (${n}).` },
    },
  });
  const reload = () => {
    load();
    toolset.rebuild();
  };
  return {
    root, rt, toolset, approver, store, read: () => read, reload,
    writeTool(name, value) {
      const dir = path.join(root, '.pincer', 'tools');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
      reload();
    },
    run: (tool, args, signal) => rt.registry.execute(tool, args, rt.context({ channel: 'test', sessionKey: 'test:custom', workspaceRoot: root, ...(signal ? { signal } : {}) })),
    dispose: () => jobs.dispose(),
  };
}

/** A tool that prints each argument it gets on a line of its own, between < and >. */
export function printArgs(name: string, command: string[], properties: Record<string, unknown> = { text: { type: 'string' } }, extra: Record<string, unknown> = {}) {
  return { name, description: `Prints its arguments (${name}).`, parameters: { type: 'object', properties, required: Object.keys(properties) }, command, ...extra };
}
