// The exec tool: a shell command, judged (exec-decide.ts), approved where the policy asks, run where
// pincer.exec.host says, with a time limit that ends the whole process tree. The model always gets
// the exit code, and the output capped head + tail; the whole output stays with the job for
// `process log`. Long work can go to the background (`background`, or `yieldMs` to wait a while first).
import { z } from 'zod';
import { PathError, type PathResolver } from '../../fs/types';
import { defineTool, fail, ok, type ToolResult } from '../../tools/types';
import { execEnvironment } from '../exec-env';
import type { ExecConfig } from '../exec-config';
import { decide } from '../exec-decide';
import type { ApprovalStore, Approver, ExecHostKind, Executor } from '../exec-types';
import { JobLimitError, type Job, type JobManager } from '../run/job-manager';
import { askPerson, prefixed } from './interactive-approval';
import { describeTarget, inputTargetOfCommand } from './interactive-programs';
import { pollReport } from './process-report';
import { offerRunOutsideSandbox } from './sandbox-rerun';

export interface ExecToolDeps {
  config: () => ExecConfig;
  guard: () => PathResolver;
  /** The executor for a host, confined as configured; `sandbox: false` for a re-run the person allowed outside it. */
  executor: (kind: ExecHostKind, opts?: { sandbox?: boolean }) => Executor;
  jobs: JobManager;
  store: ApprovalStore;
  /** Absent where nobody can answer: what would ask is refused. */
  approver?: () => Approver | undefined;
  /** The environment commands start from (sanitised here before use). */
  baseEnv: () => NodeJS.ProcessEnv;
  home?: string;
}

const parameters = z.object({
  command: z.string().min(1).max(100_000).describe('The shell command line (bash syntax). Pipes, && and redirects work; each part is checked.'),
  workdir: z.string().optional().describe('Folder to run in, relative to the workspace folder (default: the workspace folder).'),
  timeout: z.number().int().min(1).optional().describe('Time limit in seconds (default 60; the user sets the maximum). At the limit the whole process tree is stopped.'),
  background: z.boolean().optional().describe('Start it and return at once with a job id; follow it with the process tool (poll, log, kill). For servers and watchers.'),
  yieldMs: z.number().int().min(10).max(120_000).optional().describe('Wait this long for it to finish; if it is still running then, it goes on in the background and you get a job id.'),
  interactive: z.boolean().optional().describe('Keep its standard input open so you can answer prompts with process write / send-keys. Starting a shell, REPL or database shell this way needs the user\'s approval, and what you type into it is checked line by line.'),
  security: z.enum(['deny', 'allowlist', 'full']).optional().describe('Ask for a stricter security mode than configured (never looser).'),
  ask: z.enum(['off', 'on-miss', 'always']).optional().describe('Ask for more confirmation than configured (never less).'),
});

const START_CONFIRMED = 'Starting an interactive shell, REPL or database shell is confirmed every time.';

const DESCRIPTION = `Run a shell command in the workspace and get its exit code and output.
Use it for builds, tests, git, package scripts and inspecting the system. Prefer the file tools for reading, searching and editing files.
The command is checked before it runs: destructive or exfiltrating commands are denied, and some need the user's approval (the call waits for their answer). Output is capped to its start and end; page the whole output with process log. Long-running commands: set background or yieldMs, then use the process tool.`;

export function createExecTool(deps: ExecToolDeps) {
  return defineTool({
    name: 'exec',
    description: DESCRIPTION,
    parameters,
    group: 'runtime',
    capability: 'mutating',
    interactive: true,
    async execute(args, ctx): Promise<ToolResult> {
      const c = deps.config();
      const guard = deps.guard();
      const cwd = await workdir(guard, args.workdir);
      if (typeof cwd !== 'string') return cwd;
      const limitMs = args.timeout !== undefined ? Math.min(args.timeout * 1000, c.maxTimeoutMs) : args.background ? c.backgroundTimeoutMs : c.timeoutMs;
      const clamped = args.timeout !== undefined && args.timeout * 1000 > c.maxTimeoutMs
        ? `The time limit was lowered to the configured maximum of ${c.maxTimeoutMs / 1000} s (pincer.exec.maxTimeoutSeconds).` : undefined;
      const executor = deps.executor(c.host);
      // A shell, REPL or database shell kept open runs whatever is typed into it later: a person
      // confirms the start (outside the sandbox), and the process tool judges every line.
      const inputTo = args.interactive ? await inputTargetOfCommand(args.command) : undefined;
      const startAsks = inputTo && !(executor.sandboxed || executor.kind === 'sandbox')
        ? `it starts ${describeTarget(inputTo)} with interactive: true, and whatever is typed into it later runs outside the sandbox (each line is judged or confirmed before it is sent)` : undefined;
      const approver = deps.approver?.();
      const decided = await decide({
        policy: c.policy, guard, store: deps.store, approvalTimeoutMs: c.approvalTimeoutMs, home: deps.home,
        approver: approver && startAsks ? prefixed(approver, `${startAsks[0].toUpperCase()}${startAsks.slice(1)}; and `, START_CONFIRMED) : approver,
      }, {
        command: args.command, cwd, host: c.host, requested: { security: args.security, ask: args.ask },
        sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal,
      });
      if (decided.kind === 'refused') {
        return fail(decided.message, {
          outcome: decided.by === 'person' ? 'rejected-by-user' : 'denied',
          details: { decision: decided.verdict?.decision ?? 'deny', group: decided.verdict?.group, refusedBy: decided.by },
        });
      }
      if (startAsks && !decided.approval) {
        const asked = await askPerson({ policy: c.policy, approver, approvalTimeoutMs: c.approvalTimeoutMs }, {
          command: decided.text, cwd, host: c.host, reason: startAsks, alwaysUnavailable: START_CONFIRMED,
          sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal,
        });
        if ('refused' in asked) return fail(`Not started: ${asked.refused}`, { outcome: asked.by === 'person' ? 'rejected-by-user' : 'denied', details: { decision: 'ask', interactive: inputTo?.kind, refusedBy: 'person' } });
      }
      if (ctx.signal.aborted) return fail('Cancelled before the command started; nothing ran.');
      let job: Job;
      try {
        job = deps.jobs.start({
          tool: 'exec', display: decided.text, target: { shell: decided.text }, cwd, env: execEnvironment(deps.baseEnv()),
          executor, timeoutMs: limitMs, interactive: args.interactive, ...(inputTo ? { inputTo } : {}), sessionKey: ctx.sessionKey, agentId: ctx.agentId,
        });
      } catch (e) {
        if (e instanceof JobLimitError) return fail(e.message);
        throw e;
      }
      const approval = decided.approval === 'always'
        ? `Approved by the user (always: ${decided.stored?.length ?? 0} rule(s) saved for this workspace).`
        : decided.approval === 'once' ? 'Approved by the user for this run.' : undefined;
      const preface = [approval, clamped].filter(Boolean).join('\n');
      const details = { jobId: job.id, host: c.host, approval: decided.approval, decision: decided.verdict.decision };
      if (args.background) {
        return ok(`${preface ? `${preface}\n` : ''}Started job ${job.id} in the background (time limit ${Math.round(limitMs / 1000)} s). Follow it with process poll id=${job.id}; process kill id=${job.id} stops it.`, { details });
      }
      const finished = await job.wait(args.yieldMs ?? Number.POSITIVE_INFINITY, ctx.signal);
      if (!finished && ctx.signal.aborted) {
        await job.kill();
        return fail(pollReport(deps.jobs, job, c.maxOutputChars, `Cancelled: job ${job.id} was stopped (its whole process tree).`).text, { details });
      }
      if (!finished) {
        const lead = `${preface ? `${preface}\n` : ''}Still running after ${args.yieldMs} ms; it goes on in the background as job ${job.id} (process kill id=${job.id} stops it).`;
        return ok(pollReport(deps.jobs, job, c.maxOutputChars, lead).text, { details });
      }
      // A failure the sandbox caused is said in plain words; the person may allow one run outside it.
      const outside = await offerRunOutsideSandbox({
        person: { policy: c.policy, approver, approvalTimeoutMs: c.approvalTimeoutMs }, jobs: deps.jobs, unconfined: () => deps.executor(c.host, { sandbox: false }),
      }, job, { host: c.host, sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal });
      if (outside?.job) job = outside.job;
      const lead = [preface, outside?.lead].filter(Boolean).join('\n');
      const failed = job.status !== 'exited' || job.outcome?.exitCode !== 0;
      const text = pollReport(deps.jobs, job, c.maxOutputChars, lead || undefined).text;
      return failed ? fail(text, { details: { ...details, exitCode: job.outcome?.exitCode ?? null } }) : ok(text, { details: { ...details, exitCode: 0 } });
    },
  });
}

/** The working directory through the path guard (read access: the command may only be started there). */
async function workdir(guard: PathResolver, input: string | undefined): Promise<string | ToolResult> {
  try {
    const r = await guard.resolve(input ?? '.', 'read');
    if (!r.exists) return fail(`workdir ${input} does not exist. Create it first, or leave workdir out to run in the workspace folder.`);
    return r.abs;
  } catch (e) {
    if (e instanceof PathError) return fail(`workdir: ${e.message}`);
    throw e;
  }
}
