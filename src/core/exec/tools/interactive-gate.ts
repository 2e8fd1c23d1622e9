// The judge in front of a job that reads commands (interactive-programs.ts). A line for a shell is a
// command: the same judge as exec decides it (deny refuses, ask goes to a person, allow sends), in
// the folder the shell is in now. A line for a REPL or a database shell is code the judge cannot
// read, so a person confirms it — unless the job runs in the sandbox, which confines what it does.
// Lines are judged whole (interactive-lines.ts) and an unfinished shell command (an open quote, a
// block, a trailing `\`) is held until it is finished, then judged as one: the shell reads it so.
// A shell line is judged with the aliases and functions the session defined expanded
// (interactive-definitions.ts): a name defined on one line cannot hide what it runs on the next.
import os from 'node:os';
import type { PathResolver } from '../../fs/types';
import { nextCwd } from '../command-cwd';
import { parseCommand } from '../command-parse';
import { CommandRejected } from '../command-types';
import { viewOf } from '../command-view';
import type { ExecConfig } from '../exec-config';
import { decide } from '../exec-decide';
import type { ApprovalStore, Approver } from '../exec-types';
import type { Job } from '../run/job-manager';
import { askPerson, prefixed } from './interactive-approval';
import { judgedText, newDefinitions, recordDefinitions, type SessionDefinitions } from './interactive-definitions';
import { describeTarget, inputTargetOf, type InputTarget } from './interactive-programs';
import { cutLines, editingKey, type LineBuffer } from './interactive-lines';
import type { InputStep } from './process-keys';

export interface LineJudgeDeps {
  config: () => ExecConfig;
  guard: () => PathResolver;
  store: ApprovalStore;
  approver?: () => Approver | undefined;
  home?: string;
}

export interface CallerContext {
  sessionKey: string;
  agentId: string;
  signal: AbortSignal;
}

export interface GateResult {
  /** What may be sent, in order (all of it when nothing was refused). */
  steps: InputStep[];
  notes: string[];
  refused?: string;
  /** Who refused: the judge or the settings, or a person. */
  refusedBy?: 'policy' | 'person';
}

/** An unfinished command is held for at most this many lines or characters, then judged as it is. */
const MAX_HELD_LINES = 50;
const MAX_HELD_CHARS = 16_000;

interface GateState {
  buf: LineBuffer;
  /** Complete lines of an unfinished command, not yet sent. */
  held: string[];
  /** The shell's folder as far as the lines sent so far tell (undefined: unknowable). */
  cwd: string | undefined;
  /** The aliases and functions the lines sent so far defined in the shell. */
  defs: SessionDefinitions;
  /** A REPL or database shell a sent line started inside the shell: later lines may go to it. */
  inner?: InputTarget;
  /** Calls for one job take turns: two parallel writes must not interleave their held lines. */
  turn: Promise<unknown>;
}

const states = new WeakMap<Job, GateState>();

function stateOf(job: Job): GateState {
  let s = states.get(job);
  if (!s) states.set(job, (s = { buf: { pending: '' }, held: [], cwd: job.spec.cwd, defs: newDefinitions(), turn: Promise.resolve() }));
  return s;
}

export function isSandboxed(job: Job): boolean {
  return job.spec.executor.sandboxed === true || job.spec.executor.kind === 'sandbox';
}

type Verdict = { send: string } | { hold: true } | { refused: string; by: 'policy' | 'person' };

export async function gateInput(deps: LineJudgeDeps | undefined, job: Job, steps: InputStep[], terminal: boolean, ctx: CallerContext): Promise<GateResult> {
  const target = job.spec.inputTo;
  if (!target) return { steps, notes: [] };
  if (!deps) return { steps: [], notes: [], refusedBy: 'policy', refused: `${job.id} is ${describeTarget(target)}, and nothing here can judge what is sent to it, so nothing was sent.` };
  const st = stateOf(job);
  const mine = st.turn.then(() => gateInTurn(deps, job, target, st, steps, terminal, ctx));
  st.turn = mine.catch(() => undefined);
  return mine;
}

async function gateInTurn(deps: LineJudgeDeps, job: Job, target: InputTarget, st: GateState, steps: InputStep[], terminal: boolean, ctx: CallerContext): Promise<GateResult> {
  const events = cutLines(st.buf, steps, terminal, () => st.held.length > 0);
  const enter = terminal ? '\r' : '\n';
  const out: InputStep[] = [];
  const notes: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if ('send' in e) out.push({ write: e.send });
    else if ('eof' in e) out.push({ eof: true });
    else if ('interrupt' in e) {
      st.held = [];
      if (e.dropped) notes.push('C-c dropped the unsent input before it.');
      if (!terminal) notes.push('C-c was not sent: the job reads a pipe, where it is no signal (process kill stops the job).');
    } else if (!st.held.length && e.line === '' && e.ended) {
      out.push({ write: enter }); // Enter alone runs nothing new
    } else {
      // The lines of one input are judged together: one question for a pasted block, not one per line.
      let atEof = !e.ended;
      st.held.push(e.line);
      while (!atEof && i + 1 < events.length && 'line' in events[i + 1]) {
        const next = events[++i] as { line: string; ended: boolean };
        st.held.push(next.line);
        atEof = !next.ended;
      }
      const v = await judgeHeld(deps, job, target, st, terminal, atEof, ctx);
      if ('hold' in v) {
        notes.push(`Holding ${st.held.length} line${st.held.length === 1 ? '' : 's'}: the command is not finished yet (an open quote, block, here-document or a trailing \\). Nothing is sent until it is; then it is judged as one command. C-c drops it.`);
        continue;
      }
      st.held = [];
      if ('refused' in v) {
        st.buf.pending = '';
        return { steps: out, notes, refused: v.refused, refusedBy: v.by };
      }
      out.push({ write: v.send.split('\n').map((l) => l + enter).join('') });
    }
  }
  if (st.buf.pending) notes.push(`${st.buf.pending.length} character${st.buf.pending.length === 1 ? ' is' : 's are'} held until the line ends (Enter): a line is judged whole before any of it is sent.`);
  return { steps: out, notes };
}

async function judgeHeld(deps: LineJudgeDeps, job: Job, target: InputTarget, st: GateState, terminal: boolean, atEof: boolean, ctx: CallerContext): Promise<Verdict> {
  const text = st.held.join('\n');
  const reader = st.inner ?? target;
  if (reader.kind !== 'shell') {
    if (isSandboxed(job)) return { send: text };
    const where = st.inner ? `${describeTarget(st.inner)}, started inside the shell ${job.id}` : `${describeTarget(target)}, job ${job.id}`;
    return person(deps, job, st, text, `a line for ${where}: the judge cannot read code typed into it, and it runs outside the sandbox`, ctx);
  }
  const key = st.held.map((l) => editingKey(l, terminal)).find(Boolean);
  if (key) return person(deps, job, st, text, `a line for ${describeTarget(target)} holds ${key}, which the shell acts on, so the command it runs cannot be read from the text`, ctx);
  let parsed;
  try {
    parsed = await parseCommand(text);
  } catch (e) {
    if (e instanceof CommandRejected) return { by: 'policy', refused: `${e.message} Nothing was sent.` };
    throw e;
  }
  const unfinished = parsed.problems.some((p) => p.kind === 'syntax');
  if (unfinished && !atEof && st.held.length < MAX_HELD_LINES && text.length < MAX_HELD_CHARS) return { hold: true };
  if (st.cwd === undefined) {
    return person(deps, job, st, text, `a line for ${describeTarget(target)}: an earlier line moved the shell to a folder known only at run time, so where this command acts cannot be checked`, ctx);
  }
  const judged = await judgedText(st.defs, parsed.normalized, parsed, st.cwd);
  if ('unreadable' in judged) {
    return person(deps, job, st, text, `a line for ${describeTarget(target)}: ${judged.unreadable}, so what it runs cannot be judged`, ctx);
  }
  const c = deps.config();
  const approver = deps.approver?.();
  const how = judged.expanded.length ? ` with ${judged.expanded.map((n) => `\`${n}\``).join(', ')} expanded as this shell defined ${judged.expanded.length === 1 ? 'it' : 'them'}` : '';
  const decided = await decide({
    policy: c.policy, guard: deps.guard(), store: deps.store, approvalTimeoutMs: c.approvalTimeoutMs, home: deps.home,
    approver: approver && prefixed(approver, `A line for ${describeTarget(target)}, job ${job.id}, judged as a command${how}: `),
  }, { command: judged.text, cwd: st.cwd, host: job.spec.executor.kind, sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal });
  if (decided.kind === 'refused') return { by: decided.by === 'person' ? 'person' : 'policy', refused: `Nothing was sent to ${job.id}. ${decided.message}` };
  // What is sent is the line itself (normalised as the judge read it), not the expansion.
  await follow(deps, st, parsed.normalized, judged.text);
  return { send: parsed.normalized };
}

/**
 * After a line is sent: what it defined, where the shell now is, and whether it now runs a REPL that
 * reads the next lines (`judged`: the line with the session's names expanded, which says where an
 * alias like `alias up='cd ..'` went).
 */
async function follow(deps: LineJudgeDeps, st: GateState, text: string, judged = text): Promise<void> {
  const home = deps.home ?? os.homedir();
  await recordDefinitions(st.defs, text, st.cwd);
  const parsed = await parseCommand(judged);
  for (const seg of parsed.segments) {
    if (seg.context === 'top') st.cwd = nextCwd(viewOf(seg), st.cwd, home);
    const t = inputTargetOf(seg.argv.map((w) => w.text));
    if (t && t.kind !== 'shell') st.inner = t;
  }
}

async function person(deps: LineJudgeDeps, job: Job, st: GateState, text: string, reason: string, ctx: CallerContext): Promise<Verdict> {
  const c = deps.config();
  const answer = await askPerson({ policy: c.policy, approver: deps.approver?.(), approvalTimeoutMs: c.approvalTimeoutMs }, {
    command: text, cwd: st.cwd ?? job.spec.cwd, host: job.spec.executor.kind, reason, ...ctx,
    alwaysUnavailable: 'Lines typed into a running interactive program are confirmed one at a time.',
  });
  if ('refused' in answer) return { by: answer.by, refused: `Nothing was sent to ${job.id}. ${answer.refused}` };
  if ((st.inner ?? job.spec.inputTo)?.kind === 'shell') await follow(deps, st, text);
  return { send: text };
}
