// One custom tool (definition.ts) as a Pincer tool. A call fills the definition's argv from the
// validated arguments (argv.ts), then goes through exec's own decision on exactly that argv — the
// judge, the modes, "Always allow" rules and the approval prompt (exec-decide.ts) — and runs it
// without a shell, on exec's host (a child process, in the sandbox when it is on, or in the dev
// container), with exec's time limits and head + tail output. The judge reads shell text, so the argv
// is quoted word by word for it, and the run goes ahead only when the judge's one top-level command
// is that argv, word for word: what was judged is what runs.
import path from 'node:path';
import { PathError, type PathResolver } from '../fs/types';
import { defineTool, fail, ok, type Tool, type ToolResult } from '../tools/types';
import type { Verdict } from '../exec/command-types';
import { decide } from '../exec/judge-lazy';
import { execEnvironment } from '../exec/exec-env';
import { shellQuote } from '../exec/run/shell-command';
import { JobLimitError, type Job } from '../exec/run/job-manager';
import type { ExecToolDeps } from '../exec/tools/exec';
import { pollReport } from '../exec/tools/process-report';
import { expandArgv } from './argv';
import type { CustomToolDefinition } from './definition';

/** Values for `${secret:NAME}` in a definition's env: the editor's secret storage, the CLI's environment. */
export interface CustomToolSecrets {
  get(name: string): Promise<string | undefined>;
  /** How the person sets a missing one, for the message. */
  howToSet(name: string): string;
}

export type CustomToolDeps = Pick<ExecToolDeps, 'config' | 'guard' | 'executor' | 'jobs' | 'store' | 'approver' | 'baseEnv' | 'home'> & {
  secrets: CustomToolSecrets;
  scrubber: { register(value: string): void };
};

/** What a call adds to the definition's own limit: the approval prompt's wait and the stop of the process tree. */
const STOP_GRACE_MS = 15_000;

export function createCustomTool(def: CustomToolDefinition, deps: CustomToolDeps): Tool {
  const program = def.command[0];
  return defineTool({
    name: def.name,
    description: `${def.description}\n(Custom tool defined in ${path.basename(def.source.file)}: it runs ${path.basename(program)} with your arguments, each passed as one argument, without a shell. It is checked like an exec command and may need the user's approval; long output is capped to its start and end.)`,
    parameters: def.schema,
    group: 'custom',
    capability: 'mutating',
    interactive: true,
    timeoutMs: def.timeoutMs + deps.config().approvalTimeoutMs + STOP_GRACE_MS,
    async execute(args, ctx): Promise<ToolResult> {
      const c = deps.config();
      const expanded = expandArgv(def.command, args as Record<string, unknown>);
      if ('error' in expanded) return fail(expanded.error, { details: { refused: 'arguments', parameter: expanded.parameter } });
      const { argv } = expanded;
      const cwd = await workdir(deps.guard(), def);
      if (typeof cwd !== 'string') return cwd;
      const text = argv.map(shellQuote).join(' ');
      const decided = await decide({
        policy: c.policy, guard: deps.guard(), store: deps.store, approver: deps.approver?.(), approvalTimeoutMs: c.approvalTimeoutMs, home: deps.home,
      }, { command: text, cwd, host: c.host, sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal, customTool: def.name });
      if (decided.kind === 'refused') {
        return fail(decided.message, {
          outcome: decided.by === 'person' ? 'rejected-by-user' : 'denied',
          details: { decision: decided.verdict?.decision ?? 'deny', group: decided.verdict?.group, refusedBy: decided.by, argv },
        });
      }
      if (!judgedAsIs(decided.verdict, argv)) {
        return fail('Refused: an argument holds characters that change when the command is checked (Unicode compatibility forms, invisible characters), ' +
          'so what would run is not what was checked. Pass plain text; nothing ran.', { outcome: 'denied', details: { refused: 'normalisation', argv } });
      }
      const env = await environment(def, deps);
      if ('missing' in env) {
        return fail(`${def.name} needs the secret "${env.missing}", which is not set. ${deps.secrets.howToSet(env.missing)} Do not ask the user to paste it into the chat.`,
          { details: { refused: 'missing-secret', secret: env.missing } });
      }
      if (ctx.signal.aborted) return fail('Cancelled before the program started; nothing ran.');
      const timeoutMs = Math.min(def.timeoutMs, c.maxTimeoutMs);
      let job: Job;
      try {
        job = deps.jobs.start({
          tool: def.name, display: text, target: { argv }, cwd, env: env.values, executor: deps.executor(c.host), timeoutMs,
          sessionKey: ctx.sessionKey, agentId: ctx.agentId,
        });
      } catch (e) {
        if (e instanceof JobLimitError) return fail(e.message);
        throw e;
      }
      const details = { jobId: job.id, host: c.host, argv, approval: decided.approval, decision: decided.verdict.decision };
      const approval = decided.approval ? `Approved by the user (${decided.approval === 'always' ? 'always' : 'this run'}).` : undefined;
      const finished = await job.wait(Number.POSITIVE_INFINITY, ctx.signal);
      if (!finished) {
        await job.kill();
        return fail(pollReport(deps.jobs, job, c.maxOutputChars, 'Cancelled: the program was stopped.').text, { details });
      }
      const report = pollReport(deps.jobs, job, c.maxOutputChars, approval).text;
      const exitCode = job.outcome?.exitCode ?? null;
      return job.status === 'exited' && exitCode === 0 ? ok(report, { details: { ...details, exitCode } }) : fail(report, { details: { ...details, exitCode, status: job.status } });
    },
  });
}

/** The judge's top-level command is exactly this argv: no word changed, split, joined or left to run time. */
function judgedAsIs(v: Verdict, argv: readonly string[]): boolean {
  const top = v.segments.filter((s) => s.segment.context === 'top');
  if (top.length !== 1) return false;
  const words = top[0].segment.argv;
  return top[0].segment.assignments.length === 0 && words.length === argv.length && words.every((w, i) => !w.dynamic && w.text === argv[i]);
}

/** The definition's folder (relative to the workspace folder) through the path guard; it must exist. */
async function workdir(guard: PathResolver, def: CustomToolDefinition): Promise<string | ToolResult> {
  try {
    const r = await guard.resolve(def.cwd ?? '.', 'read');
    if (!r.exists) return fail(`The cwd of ${def.name} (${def.cwd}) does not exist; the definition in ${def.source.file} must be fixed. Nothing ran.`);
    return r.abs;
  } catch (e) {
    if (e instanceof PathError) return fail(`The cwd of ${def.name} is refused: ${e.message} The definition in ${def.source.file} must be fixed. Nothing ran.`, { outcome: 'denied' });
    throw e;
  }
}

/** exec's sanitised environment, the definition's values over it, its secrets registered with the scrubber first. */
async function environment(def: CustomToolDefinition, deps: CustomToolDeps): Promise<{ values: Record<string, string> } | { missing: string }> {
  const values = execEnvironment(deps.baseEnv());
  for (const [k, v] of Object.entries(def.env)) {
    if (typeof v === 'string') {
      values[k] = v;
      continue;
    }
    const secret = await deps.secrets.get(v.secret);
    if (!secret) return { missing: v.secret };
    deps.scrubber.register(secret);
    values[k] = secret;
  }
  return { values };
}
