// The board's public shapes and the store interface every backend implements (sql.js in the
// workspace database now; a shared server later). Each method is one atomic change: it either
// happens whole, with its audit event, or is refused with a message that starts with "Refused:".

export type TaskStatus = 'pending' | 'in_progress' | 'in_review' | 'completed' | 'failed' | 'cancelled';

/** Statuses a task leaves only by a person's or the lead's decision (retry), or never (completed). */
export const CLOSED_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** A quality gate (a team's, from its definition, or a task's own): see quality-gates.ts. */
export interface GateDefinition {
  /** Shown in the audit trail and the feedback ("npm test", "reviewer"). */
  name: string;
  kind: 'command' | 'agent';
  /** kind command: the shell command, run through exec's judge and approvals; exit 0 passes. */
  command?: string;
  /** kind agent: the reviewer agent, which answers APPROVED or REJECTED: feedback. */
  agent?: string;
  /** A failure sends the task back with the feedback (true), or is only recorded (false). */
  blockOnFailure: boolean;
  /** Failures a task may have before it fails for good (with block_on_failure). */
  maxRetries: number;
}

export interface BoardTask {
  id: number;
  teamId: string;
  subject: string;
  description: string;
  /** Higher first. */
  priority: number;
  status: TaskStatus;
  /** Who should do it (a member, or the lead); undefined: whoever claims it. */
  assignee?: string;
  /** Who holds the claim while it is in progress or in review. */
  owner?: string;
  /** The member run holding the claim; the watchdog releases the claim when that run ends. */
  runId?: string;
  requireReview: boolean;
  progress: number;
  progressNote?: string;
  result?: string;
  /** Times the watchdog returned it after its member's run ended without finishing it. */
  returns: number;
  /** Quality-gate failures so far. */
  gateFailures: number;
  /** This task's own quality gates, run after the team's before a member's `complete` is accepted (set by the lead). */
  gates: GateDefinition[];
  /** Workspace file references attached to it. */
  attachments: string[];
  blockedBy: number[];
  /** The blockers not yet completed: while any is left the task cannot be claimed. */
  openBlockers: number[];
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface BoardEvent {
  id: number;
  teamId: string;
  taskId?: number;
  /** Who did it: a member or lead name, `watchdog`, `gate`, or `person`. */
  actor: string;
  action: string;
  /** What changed and why, in words. */
  detail: string;
  at: number;
}

export interface TeamMessage {
  id: number;
  teamId: string;
  sender: string;
  recipient: string;
  text: string;
  at: number;
  readAt?: number;
}

/** Who does something and when: every change records both. */
export interface Actor {
  name: string;
  at: number;
}

export interface NewTask {
  subject: string;
  description?: string;
  priority?: number;
  blockedBy?: number[];
  assignee?: string;
  requireReview?: boolean;
  gates?: GateDefinition[];
}

export interface TaskChange {
  subject?: string;
  description?: string;
  priority?: number;
  /** Replaces the blockers (each checked for a cycle). */
  blockedBy?: number[];
  requireReview?: boolean;
  /** Replaces the task's own gates. */
  gates?: GateDefinition[];
}

export type ListFilter = 'active' | 'completed' | 'all';
export type ListOrder = 'priority' | 'newest';

/** A task and the tasks a change left open behind it: released ones (now claimable) or stranded ones. */
export interface TaskOutcome {
  task: BoardTask;
  /** Dependents whose last open blocker this change completed: they can be claimed now. */
  released: BoardTask[];
  /** Open dependents this change left waiting on a blocker that will not complete. */
  stranded: BoardTask[];
}

export interface BoardStore {
  create(teamId: string, input: NewTask, by: Actor): Promise<BoardTask>;
  get(teamId: string, id: number): Promise<BoardTask | undefined>;
  list(teamId: string, filter: ListFilter, order: ListOrder, limit?: number): Promise<BoardTask[]>;
  /** Full-text search over subject and description; `anyWord` matches tasks sharing any word (near-duplicate check). */
  search(teamId: string, query: string, opts?: { limit?: number; anyWord?: boolean; openOnly?: boolean }): Promise<BoardTask[]>;
  update(teamId: string, id: number, change: TaskChange, by: Actor): Promise<BoardTask>;
  claim(teamId: string, id: number, runId: string | undefined, by: Actor): Promise<BoardTask>;
  assign(teamId: string, id: number, assignee: string, by: Actor): Promise<BoardTask>;
  progress(teamId: string, id: number, percent: number, note: string, by: Actor): Promise<BoardTask>;
  /** A note, or a blocker: the task fails with the blocker as its reason. */
  comment(teamId: string, id: number, kind: 'note' | 'blocker', text: string, by: Actor): Promise<TaskOutcome>;
  attach(teamId: string, id: number, ref: string, by: Actor): Promise<BoardTask>;
  complete(teamId: string, id: number, result: string, by: Actor): Promise<TaskOutcome>;
  /** The owner hands in its result for review (in_review). */
  submitForReview(teamId: string, id: number, result: string, by: Actor): Promise<BoardTask>;
  approve(teamId: string, id: number, note: string, by: Actor): Promise<TaskOutcome>;
  /** Back to pending, assigned to the member who did it, with the feedback recorded. */
  reject(teamId: string, id: number, feedback: string, by: Actor): Promise<BoardTask>;
  cancel(teamId: string, id: number, reason: string, by: Actor): Promise<TaskOutcome>;
  /** A failed or cancelled task back to pending (the watchdog's return count starts again). */
  retry(teamId: string, id: number, reason: string, by: Actor): Promise<BoardTask>;
  /** The outcome of a quality gate: recorded; a blocking failure sends the task back (or fails it after its retries). */
  recordGate(teamId: string, id: number, gate: { name: string; passed: boolean; feedback: string; fail?: boolean }, by: Actor): Promise<BoardTask>;
  /**
   * The watchdog: every task in progress whose run is not in `liveRuns` goes back to pending, or
   * to the lead (assigned to `lead`) once it came back `maxReturns` times. Returns those it moved.
   */
  releaseOrphans(liveRuns: ReadonlySet<string>, lead: (teamId: string) => string | undefined, maxReturns: number, at: number): Promise<BoardTask[]>;
  /** Records an event that changes no task (an ask_user question, a gate run). */
  note(teamId: string, taskId: number | undefined, action: string, detail: string, by: Actor): Promise<void>;
  events(teamId: string, opts?: { taskId?: number; limit?: number }): Promise<BoardEvent[]>;
  send(teamId: string, sender: string, recipients: readonly string[], text: string, at: number): Promise<void>;
  /** The team's latest messages, to anyone, oldest first; reading them here marks nothing read (the Team Board's mailbox). */
  messages(teamId: string, limit?: number): Promise<TeamMessage[]>;
  /** How many messages wait unread for the recipient. */
  unreadCount(teamId: string, recipient: string): Promise<number>;
  /** The recipient's unread messages, oldest first, marked read in the same step. */
  readUnread(teamId: string, recipient: string, at: number): Promise<TeamMessage[]>;
}
