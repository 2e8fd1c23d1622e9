// Shared set-up for the write-side tool tests (write_file, edit, apply_patch): a real temp
// workspace, the real PathGuard and NodeWorkspaceFs, and a reviewer that decides like a person.
// Arguments go through the pipeline's own zod validation (parseArguments) before execute.
import * as fs from 'node:fs';
import { AutoApplyReviewer, RejectAllReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import type { EditReviewer, FsToolDeps, PathGuardConfig, ProposedChange, ReviewDecision, WorkspaceFs } from '../../../src/core/fs/types';
import { parseArguments } from '../../../src/core/tools/arguments';
import type { Tool, ToolContext, ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, type TreeSpec, type Workspace } from '../../support/fs-fixtures';

/** A person who accepts the proposal after rewriting it with `edit` (the 'modified' decision). */
export class EditingReviewer implements EditReviewer {
  constructor(private readonly fs: WorkspaceFs, private readonly edit: (proposed: string) => string) {}

  async review(changes: ProposedChange[]): Promise<ReviewDecision[]> {
    const out: ReviewDecision[] = [];
    for (const c of changes) {
      const content = this.edit(c.after ?? '');
      await this.fs.writeFile(c.path.abs, new TextEncoder().encode(content));
      out.push({ decision: 'modified', content });
    }
    return out;
  }
}

export type ReviewerKind = 'auto' | 'reject' | ((fs: WorkspaceFs) => EditReviewer);

export interface Harness {
  ws: Workspace;
  deps: FsToolDeps;
  /** Batches the reviewer was handed, one per tool call that proposed something. */
  batches: ProposedChange[][];
  run(tool: Tool, args: unknown): Promise<ToolResult>;
  bytes(rel: string): Buffer;
}

export function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    sessionKey: 'test:fs', agentId: 'main', channel: 'test', subagentDepth: 0,
    isOwner: true, signal, deadline: Date.now() + 60_000, workspaceTrusted: true,
  };
}

export function harness(files: TreeSpec = {}, reviewer: ReviewerKind = 'auto', guard: Partial<PathGuardConfig> = {}): Harness {
  const ws = makeWorkspace(files, 'edit');
  const wfs = new NodeWorkspaceFs();
  const inner: EditReviewer = reviewer === 'auto' ? new AutoApplyReviewer(wfs)
    : reviewer === 'reject' ? new RejectAllReviewer('not now, the tests are red')
      : reviewer(wfs);
  const batches: ProposedChange[][] = [];
  const recording: EditReviewer = {
    review(changes, signal) {
      batches.push(changes);
      return inner.review(changes, signal);
    },
  };
  const deps: FsToolDeps = { guard: makeGuard([ws.root], guard), fs: wfs, reviewer: recording };
  return {
    ws, deps, batches,
    async run(tool, args) {
      const parsed = parseArguments(tool.name, tool.parameters, args);
      if (!parsed.ok) return { forLLM: parsed.message, isError: true, details: { argumentError: parsed.kind } };
      return tool.execute(parsed.value, context());
    },
    bytes: (rel) => fs.readFileSync(ws.path(rel)),
  };
}
