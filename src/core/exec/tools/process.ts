// process: the model's handle on the jobs exec started in its session — list them, poll one for new
// output (with a backoff hint, so a model does not spin), page through a job's whole log, type into
// an interactive one, kill it, and forget it. Every error names the call that gets further.
import { z } from 'zod';
import { defineTool, fail, ok, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import type { Job, JobManager } from '../run/job-manager';
import { gateInput, type LineJudgeDeps } from './interactive-gate';
import { KEY_NAMES, planKeys, type InputStep } from './process-keys';
import { jobDetails, logReport, pollReport } from './process-report';

const ACTIONS = ['list', 'poll', 'log', 'write', 'send-keys', 'submit', 'kill', 'remove'] as const;
type Action = (typeof ACTIONS)[number];

/** Longest wait a poll may ask for: the call holds the session while it waits. */
const MAX_WAIT_SECONDS = 120;

const parameters = z.object({
  action: z.enum(ACTIONS).describe('What to do; see the tool description.'),
  id: z.string().min(1).max(64).optional().describe('The job id (e.g. "j4k2x9q"), as exec or process list reported it. Required except for list.'),
  offset: z.number().int().min(1).optional().describe('log: 1-based first line. Default: the last page.'),
  limit: z.number().int().min(1).max(5000).optional().describe('log: how many lines. Default 200.'),
  data: z.string().max(1_000_000).optional().describe('write: text sent to the job\'s stdin exactly as given. submit: a line, sent followed by Enter.'),
  keys: z.array(z.string().min(1).max(10_000)).min(1).max(200).optional()
    .describe(`send-keys: keys in order, each a named key (${KEY_NAMES}) or literal text.`),
  eof: z.boolean().optional().describe('write: close the job\'s stdin after the data (the program then sees end of input).'),
  wait: z.number().min(0).max(MAX_WAIT_SECONDS).optional()
    .describe(`poll: seconds to wait for the job to finish before answering (0-${MAX_WAIT_SECONDS}, default 0). It answers as soon as the job ends.`),
}).strict();

type Args = z.infer<typeof parameters>;

const description =
  'Manages the jobs exec started in this session: commands still running in the background, and finished ones (kept 30 minutes with their whole output). ' +
  'Actions: ' +
  '`list` — your jobs with their state. ' +
  '`poll` (id) — the state and the output printed since the last poll; long output shows its head and tail and names the `log` call for the middle. ' +
  'While the job runs the result says when to poll again; pass `wait` (seconds) to wait for it to finish instead of polling in a loop. ' +
  '`log` (id, offset, limit) — any part of the whole output by 1-based line; without offset, the last lines. ' +
  '`write` (id, data, eof) — text to its stdin exactly as given; eof: true closes stdin after it. ' +
  '`submit` (id, data) — a line of input followed by Enter (answering a prompt). ' +
  `\`send-keys\` (id, keys) — keys in order: named keys (${KEY_NAMES}) or literal text. ` +
  'Input works only for jobs started as interactive. ' +
  'Into a shell, each line is checked like an exec command before it is sent (nothing of a line is sent before its Enter; a denied line is not sent); ' +
  'a line for a REPL or database shell needs the user\'s approval. ' +
  '`kill` (id) — stops the job and every process it started. ' +
  '`remove` (id) — forgets a finished job and deletes its log (kill a running one first). ' +
  'A finished job always reports its exit code, and the signal or timeout that ended it.';

export interface ProcessToolOptions {
  /** The pipeline's pincer.tools.maxResultChars, so output is capped here (with a page hint) before the pipeline would cut it. */
  maxResultChars?: number;
  /** How long write/submit/send-keys wait for the program's answer before reporting. Default 400 ms. */
  settleMs?: number;
  /** The judge for lines sent to a shell, REPL or database shell (without it, nothing is sent to one). */
  lines?: LineJudgeDeps;
}

type Options = Required<Omit<ProcessToolOptions, 'lines'>> & Pick<ProcessToolOptions, 'lines'>;

const DEFAULT_MAX_RESULT_CHARS = 60_000;

function noJob(id: string): ToolResult {
  return fail(`No job ${id} in this session; \`process list\` shows yours. (Finished jobs are forgotten 30 minutes after they end, and jobs of other sessions are not visible.)`,
    { details: { id, unknown: true } });
}

function list(jobs: JobManager, ctx: ToolContext): ToolResult {
  const mine = jobs.list(ctx.sessionKey);
  if (!mine.length) return ok('No jobs in this session. exec starts one when a command runs in the background.', { details: { jobs: [] } });
  const running = mine.filter((j) => j.status === 'running').length;
  const lines = mine.map((j) => `- ${jobs.summary(j)}`);
  return ok(`${mine.length} job${mine.length === 1 ? '' : 's'} (${running} running):\n${lines.join('\n')}`, { details: { jobs: mine.map(jobDetails) } });
}

/** Refusals shared by the input actions: a finished job, or one whose stdin was never open. */
function inputRefusal(jobs: JobManager, job: Job): ToolResult | undefined {
  if (job.status !== 'running') return fail(`${jobs.summary(job)}\nIt has finished, so it takes no input. Start it again with exec to run it anew.`, { details: jobDetails(job) });
  if (!job.spec.interactive) {
    return fail(`${job.id} does not take input: it was started without interactive, so its stdin is closed. ` +
      'Start the command again with exec and interactive: true to write to it (or pipe the input into the command itself).', { details: jobDetails(job) });
  }
  return undefined;
}

function describeInput(steps: readonly InputStep[]): string {
  const chars = steps.reduce((s, x) => s + ('write' in x ? x.write.length : 0), 0);
  const eof = steps.some((x) => 'eof' in x);
  return `Sent ${chars.toLocaleString('en-US')} character${chars === 1 ? '' : 's'} to ${eof ? 'its stdin and closed it (EOF)' : 'its stdin'}.`;
}

async function sendInput(jobs: JobManager, job: Job, input: InputStep[], notes: string[], opts: Options, ctx: ToolContext): Promise<ToolResult> {
  const refused = inputRefusal(jobs, job);
  if (refused) return refused;
  const eofAt = input.findIndex((s) => 'eof' in s);
  if (eofAt >= 0 && eofAt < input.length - 1) {
    return fail('C-d closes the job\'s input (it reads a pipe), so nothing can follow it. Send the other keys first and C-d last.', { details: jobDetails(job) });
  }
  // A job that reads commands gets only what the judge (or a person) let through, whole lines at a time.
  const gated = await gateInput(opts.lines, job, input, job.spec.executor.kind === 'terminal', ctx);
  const steps = gated.steps;
  try {
    for (const step of steps) {
      if ('eof' in step) job.endInput();
      else await job.write(step.write);
    }
  } catch (e) {
    return fail(`${jobs.summary(job)}\nCould not write to it: ${(e as Error).message}`, { details: jobDetails(job) });
  }
  // Give the program a moment to answer, so the reply comes with this result instead of a poll later.
  if (opts.settleMs > 0 && steps.length) await job.wait(opts.settleMs, ctx.signal);
  // The key notes describe raw bytes; for a job whose input is judged, the gate's notes say what happened.
  const said = job.spec.inputTo ? gated.notes : [...notes, ...gated.notes];
  const lead = (gated.refused ? [gated.refused, ...(steps.length ? [describeInput(steps)] : []), ...said] : [describeInput(steps), ...said]).join(' ');
  const r = pollReport(jobs, job, opts.maxResultChars, lead);
  if (!gated.refused) return ok(r.text, { details: r.details });
  return fail(r.text, { outcome: gated.refusedBy === 'person' ? 'rejected-by-user' : 'denied', details: { ...r.details, refused: true } });
}

async function poll(jobs: JobManager, job: Job, args: Args, maxChars: number, ctx: ToolContext): Promise<ToolResult> {
  if (args.wait && job.status === 'running') {
    // Leave a second of the caller's deadline for the answer itself.
    const budget = Math.min(args.wait * 1000, Number.isFinite(ctx.deadline) ? ctx.deadline - Date.now() - 1000 : Number.POSITIVE_INFINITY);
    if (budget > 0) await job.wait(budget, ctx.signal);
  }
  const r = pollReport(jobs, job, maxChars);
  return ok(r.text, { details: r.details });
}

async function kill(jobs: JobManager, job: Job, maxChars: number): Promise<ToolResult> {
  if (job.status !== 'running') {
    return ok(`${jobs.summary(job)}\nIt had already finished; nothing to kill.`, { details: jobDetails(job) });
  }
  await job.kill();
  const r = pollReport(jobs, job, maxChars, 'Killed it and every process it started.');
  return ok(r.text, { details: r.details });
}

async function remove(jobs: JobManager, id: string, ctx: ToolContext): Promise<ToolResult> {
  const job = jobs.get(id, ctx.sessionKey);
  const summary = job ? jobs.summary(job) : '';
  const res = await jobs.remove(id, ctx.sessionKey);
  if (res === 'unknown') return noJob(id);
  if (res === 'running') return fail(`${id} is still running; kill it first (process kill id=${id}), then remove it.`, { details: { id, status: 'running' } });
  return ok(`Removed ${summary}. Its log is deleted.`, { details: { id, removed: true } });
}

async function run(jobs: JobManager, opts: Options, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const action: Action = args.action;
  if (action === 'list') return list(jobs, ctx);
  if (!args.id) return fail(`${action} needs the job's id (id: "j…"); \`process list\` shows your jobs.`);
  const id = args.id.trim();
  if (action === 'remove') return remove(jobs, id, ctx);
  const job = jobs.get(id, ctx.sessionKey);
  if (!job) return noJob(id);
  const max = opts.maxResultChars;
  const terminal = job.spec.executor.kind === 'terminal';
  switch (action) {
    case 'poll':
      return poll(jobs, job, args, max, ctx);
    case 'log': {
      const r = logReport(jobs, job, args.offset, args.limit, max);
      return ok(r.text, { details: r.details });
    }
    case 'write': {
      if (args.data === undefined && !args.eof) return fail('write needs data (the text to send), or eof: true to only close stdin.');
      const steps: InputStep[] = args.data ? [{ write: args.data }] : [];
      if (args.eof) steps.push({ eof: true });
      return sendInput(jobs, job, steps, [], opts, ctx);
    }
    case 'submit':
      return sendInput(jobs, job, [{ write: `${args.data ?? ''}${terminal ? '\r' : '\n'}` }], [], opts, ctx);
    case 'send-keys': {
      if (!args.keys?.length) return fail(`send-keys needs keys: an array of named keys (${KEY_NAMES}) or literal text, e.g. ["y", "Enter"].`);
      const plan = planKeys(args.keys, terminal);
      return sendInput(jobs, job, plan.steps, plan.notes, opts, ctx);
    }
    case 'kill':
      return kill(jobs, job, max);
  }
}

export function createProcessTool(jobs: JobManager, opts: ProcessToolOptions = {}): Tool {
  const resolved: Options = {
    maxResultChars: opts.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    settleMs: opts.settleMs ?? 400,
    lines: opts.lines,
  };
  return defineTool({
    name: 'process',
    description,
    parameters,
    group: 'runtime',
    capability: 'mutating',
    poll: true,
    async execute(args, ctx) {
      try {
        return await run(jobs, resolved, args, ctx);
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return fail(`process ${args.action} failed: ${(e as Error).message}`);
      }
    },
  });
}
