// When the sandbox made a command fail — a write outside the writable folders, a domain the proxy
// refused — the result says so in plain words, and the person may let it run once more outside the
// sandbox. The prompt names exactly what the sandbox refused; "Always allow" is never offered (a
// stored rule would lift the sandbox for every later run of the command, unasked).
import type { ExecHostKind, Executor } from '../exec-types';
import type { Job, JobManager } from '../run/job-manager';
import { askPerson, type PersonDeps } from './interactive-approval';

export interface RerunDeps {
  person: PersonDeps;
  jobs: JobManager;
  /** The same host without the sandbox. */
  unconfined: () => Executor;
}

export interface RerunContext {
  host: ExecHostKind;
  sessionKey: string;
  agentId: string;
  signal: AbortSignal;
}

const ONE_AT_A_TIME = 'a run outside the sandbox is allowed one command at a time';

/**
 * After a finished sandboxed job: undefined when the sandbox had no part in how it ended; else what
 * to tell the model, and the re-run's job when the person allowed one.
 */
export async function offerRunOutsideSandbox(deps: RerunDeps, job: Job, ctx: RerunContext): Promise<{ lead: string; job?: Job } | undefined> {
  const denied = job.outcome?.sandboxDenied;
  if (!denied || !job.spec.executor.sandboxed) return undefined;
  const refused = `It failed because of the sandbox: ${denied.detail}.`;
  const asked = await askPerson(deps.person, {
    command: job.spec.display, cwd: job.spec.cwd, host: ctx.host,
    reason: `it failed inside the sandbox because ${denied.detail}. Allowing it runs the same command once more outside the sandbox, where nothing limits what it writes or which hosts it reaches`,
    alwaysUnavailable: ONE_AT_A_TIME, sessionKey: ctx.sessionKey, agentId: ctx.agentId, signal: ctx.signal,
  });
  if ('refused' in asked) return { lead: `${refused} It was not run outside the sandbox: ${asked.refused}` };
  const again = deps.jobs.start({ ...job.spec, executor: deps.unconfined() });
  if (!(await again.wait(Number.POSITIVE_INFINITY, ctx.signal))) await again.kill();
  return { job: again, lead: `${refused} The user allowed one run outside the sandbox; what follows is that run (job ${again.id}).` };
}
