// The real file tools (createFsTools with the real path guard and node fs in a temp workspace)
// wrapped by interceptFsTools over a real RoutedFiles, and a way to call them as the pipeline does.
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { createFsTools } from '../../../src/core/fs/fs-tools';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { interceptFsTools, type FsInterceptorDeps } from '../../../src/core/memory/fs-interceptor';
import { parseArguments } from '../../../src/core/tools/arguments';
import type { Tool, ToolContext, ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, type TreeSpec, type Workspace } from '../../support/fs-fixtures';
import { openRouted, type Routed } from './routed-fixture';

export interface Intercepted extends Routed {
  ws: Workspace;
  original: Tool[];
  tools: Tool[];
  /** Changes the disk reviewer applied (routed writes never reach it). */
  diskWrites: AutoApplyReviewer;
  user: { id: string };
  call(name: string, args: unknown, agentId?: string): Promise<ToolResult>;
}

export function ctx(agentId: string): ToolContext {
  return {
    sessionKey: 'test:routing', agentId, channel: 'test', subagentDepth: 0,
    isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60_000, workspaceTrusted: true,
  };
}

export async function intercepted(files: TreeSpec = {}, over: Partial<FsInterceptorDeps> = {}): Promise<Intercepted> {
  const r = await openRouted();
  const ws = makeWorkspace(files, 'routing');
  const wfs = new NodeWorkspaceFs();
  const diskWrites = new AutoApplyReviewer(wfs);
  const original = createFsTools({ guard: makeGuard([ws.root]), fs: wfs, reviewer: diskWrites });
  const user = { id: 'alice' };
  const tools = interceptFsTools(original, { routed: r.routed, userId: () => user.id, roots: () => [ws.root], ...over });
  return {
    ...r, ws, original, tools, diskWrites, user,
    async call(name, args, agentId = 'coder') {
      const tool = tools.find((t) => t.name === name)!;
      const parsed = parseArguments(tool.name, tool.parameters, args);
      if (!parsed.ok) return { forLLM: parsed.message, isError: true };
      return tool.execute(parsed.value, ctx(agentId));
    },
  };
}
