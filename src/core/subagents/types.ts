// Subagents' public shapes: what a child is (its record), what happens to it (events), and what a
// front end may do with the tree (the manager's methods). Everything here is plain JSON or an
// interface, so a view can render it after a reload exactly as the store gives it back.
import type { TurnUsage } from '../agent/agent-usage';

/**
 * queued: admitted, not yet asking the model; running: its loop is live; done: it answered;
 * failed: provider error, limit or budget; cancelled: a person, its parent or a steer stopped it;
 * interrupted: it was running when the window closed (never re-run on its own, see `resume`);
 * stalled: no model output and no tool result for the stall window, so it was stopped.
 */
export type SubagentStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted' | 'stalled';

/** Statuses after which the child does nothing more until someone resumes or steers it. */
export const SETTLED_STATUSES: readonly SubagentStatus[] = ['done', 'failed', 'cancelled', 'interrupted', 'stalled'];

/** How the parent learns the result: `spawn` by announcement, `run` as its tool result. */
export type SubagentMode = 'spawn' | 'run';

export interface SubagentRecord {
  /** Short and unique in the workspace (`sa-…`); the model names children by it. */
  id: string;
  /** The child that started this one; undefined for a child of a top-level session. */
  parentId?: string;
  /** The session whose turn called spawn (a chat session, or the parent child's own session). */
  parentSessionKey: string;
  /** This child's own session: its transcript, persisted like a chat session. */
  sessionKey: string;
  label?: string;
  /** The agent it runs as. */
  agentId: string;
  task: string;
  mode: SubagentMode;
  status: SubagentStatus;
  /** 1 for a child of a top-level session, 2 for a grandchild, … */
  depth: number;
  /** Summed over every turn of the child (a resume or steer adds to it). */
  usage: TurnUsage;
  /** Milliseconds of running time, summed over its turns. */
  durationMs: number;
  /** The final answer, or why it stopped (failed, cancelled, stalled, interrupted). */
  result?: string;
  /** Epoch ms. */
  createdAt: number;
  finishedAt?: number;
  /** Set once a `spawn` child's result reached its parent's model (announced or waited for). */
  delivered: boolean;
  /** Hidden from `list` (kept in the database) once finished for the archive window. */
  archived: boolean;
  /**
   * The window that started it (stable across that window's reloads); another window on the same
   * workspace database neither shows nor interrupts it. Undefined in records stored before windows were named.
   */
  windowId?: string;
}

/** A child's record with its own children, for a tree view. */
export interface SubagentNode {
  record: SubagentRecord;
  children: SubagentNode[];
}

export type SubagentEvent =
  /** A child was admitted (status queued) or a settled child was resumed or steered. */
  | { type: 'started'; record: SubagentRecord }
  /** The child's loop is sending its first model request. */
  | { type: 'running'; id: string }
  /** A tool call of the child started or ended. */
  | { type: 'tool'; id: string; phase: 'start' | 'end'; tool: string; args: string; isError?: boolean; preview?: string }
  /** Streamed model output of the child. */
  | { type: 'output'; id: string; text: string }
  /** The child's token use so far (all its turns). */
  | { type: 'usage'; id: string; usage: TurnUsage }
  /** The child settled: done, failed, cancelled, interrupted or stalled. */
  | { type: 'finished'; record: SubagentRecord }
  /** A finished child was archived: hidden from `list`, `tree` and the views. */
  | { type: 'archived'; id: string };

/** What a front end may do with the tree (the Subagents view, the chat's cards). */
export interface SubagentControl {
  /** Children of a parent session (every session's when omitted), archived ones only when asked. */
  list(opts?: { parentSessionKey?: string; includeArchived?: boolean }): SubagentRecord[];
  /** The same as a forest: children under their parents. */
  tree(opts?: { parentSessionKey?: string; includeArchived?: boolean }): SubagentNode[];
  get(id: string): SubagentRecord | undefined;
  /** The child whose own session this is, if any (its approvals and reviews are labelled with it). */
  childOfSession(sessionKey: string): SubagentRecord | undefined;
  /** The top-level session a child's tree hangs from (a session that is no child's is its own top). */
  rootOf(parentSessionKey: string): string;
  /** Cancels the child and everything under it; resolves once they all settled. */
  cancel(id: string, why?: string): Promise<void>;
  /** Cancels, settles, and starts the child again with `instruction` after its transcript so far. */
  steer(id: string, instruction: string): Promise<SubagentRecord>;
  /** Continues an interrupted (or stalled, failed, cancelled) child from its stored transcript. */
  resume(id: string): Promise<SubagentRecord>;
  onEvent(listener: (e: SubagentEvent) => void): { dispose(): void };
}
