// credentialed_exec: a configured CLI (gh, aws, gcloud, kubectl, terraform …) run by argv — no
// shell — with the user's stored credentials injected as environment variables. Every check
// refuses with a result that says what to do instead: an unconfigured program, shell syntax (which
// would only reach the program as text), a deny rule (named by number, never by its pattern), a
// program PATH finds inside the workspace or by a relative PATH entry (a planted `./gh` would get
// the token), a path other than the pinned one, a missing secret. The secret values are registered
// with the scrubber before the program starts, so no result, log or error can carry them.
import path from 'node:path';
import { z } from 'zod';
import { PathError, type PathResolver } from '../../fs/types';
import { defineTool, fail, ok, type ToolResult } from '../../tools/types';
import { resolveExecutable } from '../resolve-executable';
import { compileDenyArgs, type CredentialedBinary } from '../credentialed-config';
import type { Executor } from '../exec-types';
import { pollReport } from './process-report';
import { JobLimitError, type Job, type JobManager } from '../run/job-manager';

export interface CredentialedExecDeps {
  binaries: () => CredentialedBinary[];
  /** The user's secret store (one value per program and variable); undefined when not set. */
  secrets: { get(binary: string, envName: string): Promise<string | undefined> };
  scrubber: { register(value: string): void };
  /** Runs argv targets (the `process` host: a child process, no terminal). */
  executor: Executor;
  jobs: JobManager;
  /** The environment to start from, already sanitised by the caller; its PATH finds the program. */
  baseEnv: () => Record<string, string>;
  /** For `cwd`, and for the roots a program must not live in. */
  guard: PathResolver;
  workspaceRoot: () => string | undefined;
  timeoutMs: { default: number; max: number };
  /** What the model sees of the output (head + tail); default 30,000. */
  maxResultChars?: number;
}

const DEFAULT_MAX_RESULT_CHARS = 30_000;

const parameters = z.object({
  binary: z.string().min(1).max(64).describe('The configured program to run, by bare name: gh, aws, gcloud, kubectl, terraform, or one the user added.'),
  args: z.array(z.string().max(32_768)).max(1000).describe('Its arguments, one element per argument, exactly as the program should receive them (no shell: no quoting, pipes, redirects or $VARS).'),
  cwd: z.string().optional().describe('Folder to run in, relative to the workspace folder (default: the workspace folder).'),
  timeout: z.number().int().min(1).optional().describe('Time limit in seconds (default 60; the user sets the maximum). At the limit the program is stopped.'),
}).strict();

const DESCRIPTION = `Run a command-line tool that needs the user's credentials (such as gh, aws, gcloud, kubectl, terraform) with those credentials supplied for you.
The program runs directly with the arguments you give, without a shell, and the credentials never appear in your context: do not ask the user for tokens or keys.
Only programs the user configured can run, and some subcommands (logging in or out, printing or minting credentials, secrets) are refused.
You get the exit code and the output (long output is capped to its start and end; read the rest with process log).`;

/** Text a shell would act on; here it would reach the program as literal characters. */
const SHELL_OPERATORS: readonly [string, string][] = [[';', '`;`'], ['|', '`|`'], ['&', '`&`'], ['`', 'a backtick'], ['$(', '`$(`'], ['>', '`>`'], ['<', '`<`'], ['\n', 'a line break'], ['\r', 'a carriage return'], ['\0', 'a NUL character']];

export function createCredentialedExecTool(deps: CredentialedExecDeps) {
  return defineTool({
    name: 'credentialed_exec',
    description: DESCRIPTION,
    parameters,
    group: 'runtime',
    capability: 'external',
    ownerOnly: true,
    // The run's own limit ends it; the call only needs a little longer than the longest allowed run.
    timeoutMs: deps.timeoutMs.max + 15_000,
    async execute(args, ctx): Promise<ToolResult> {
      const binaries = deps.binaries();
      const b = binaries.find((x) => x.name === args.binary);
      if (!b) return fail(notConfigured(args.binary, binaries), { details: { refused: 'not-configured' } });
      const refusal = checkArgs(b, args.args);
      if (refusal) return fail(refusal.message, { details: { refused: refusal.kind } });
      const env = deps.baseEnv();
      const program = locate(b, env.PATH ?? '', deps);
      if (typeof program !== 'string') return fail(program.message, { details: { refused: 'path' } });
      const cwd = await workdir(deps.guard, args.cwd);
      if (typeof cwd !== 'string') return cwd;
      const secrets = await collectSecrets(b, deps);
      if ('missing' in secrets) return fail(missingMessage(b, secrets.missing), { details: { refused: 'missing-secret', missing: secrets.missing } });
      // Before anything runs: output, errors and the tool log are scrubbed of these from now on.
      for (const v of Object.values(secrets.values)) deps.scrubber.register(v);
      if (ctx.signal.aborted) return fail('Cancelled before the program started; nothing ran.');

      const requested = args.timeout !== undefined ? args.timeout * 1000 : deps.timeoutMs.default;
      const timeoutMs = Math.min(requested, deps.timeoutMs.max);
      const clamped = requested > deps.timeoutMs.max ? `The time limit was lowered to the configured maximum of ${deps.timeoutMs.max / 1000} s.` : undefined;
      let job: Job;
      try {
        job = deps.jobs.start({
          tool: 'credentialed_exec', display: display(b.name, args.args), target: { argv: [program, ...args.args] }, cwd,
          env: { ...env, ...secrets.values }, executor: deps.executor, timeoutMs, sessionKey: ctx.sessionKey, agentId: ctx.agentId,
        });
      } catch (e) {
        if (e instanceof JobLimitError) return fail(e.message);
        throw e;
      }
      const details = { jobId: job.id, binary: b.name, program, injected: Object.keys(secrets.values) };
      const finished = await job.wait(Number.POSITIVE_INFINITY, ctx.signal);
      if (!finished) {
        await job.kill();
        return fail(pollReport(deps.jobs, job, deps.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS, 'Cancelled: the program was stopped.').text, { details: { ...details, exitCode: job.outcome?.exitCode ?? null } });
      }
      const text = pollReport(deps.jobs, job, deps.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS, clamped).text;
      const exitCode = job.outcome?.exitCode ?? null;
      return job.status === 'exited' && exitCode === 0 ? ok(text, { details: { ...details, exitCode } }) : fail(text, { details: { ...details, exitCode, status: job.status } });
    },
  });
}

function notConfigured(name: string, binaries: CredentialedBinary[]): string {
  const list = binaries.map((b) => b.name).join(', ') || 'none';
  const bare = name.includes('/') || name.includes('\\') ? ' Give the bare program name, not a path.' : '';
  return `${name} is not a program credentialed_exec may run.${bare} Configured: ${list}. ` +
    'The user adds programs in the pincer.exec.credentialed setting; for other commands use exec.';
}

/** Shell syntax, then the deny rules; undefined when the arguments may run. */
function checkArgs(b: CredentialedBinary, argv: readonly string[]): { kind: string; message: string } | undefined {
  for (const a of argv) {
    const hit = SHELL_OPERATORS.find(([op]) => a.includes(op));
    if (hit) {
      return {
        kind: 'shell-syntax',
        message: `Refused: an argument contains ${hit[1]}. credentialed_exec runs ${b.name} directly, without a shell, so pipes, ` +
          'redirects, command lists and substitutions cannot work here (and are refused rather than passed on as text). ' +
          `Run one ${b.name} command per call with plain arguments, and do any further processing in a separate step.`,
      };
    }
  }
  const rules = compileDenyArgs(b);
  if (typeof rules === 'string') return { kind: 'bad-profile', message: `Refused: ${rules}. The user must fix pincer.exec.credentialed before ${b.name} can run.` };
  const joined = argv.join(' ');
  // Leading options removed too, so `--debug configure` cannot slip past a rule anchored at `configure`.
  const bare = joined.replace(/^(?:-\S*\s+)+/, '');
  const i = rules.findIndex((r) => r.test(joined) || r.test(bare));
  if (i < 0) return undefined;
  return {
    kind: 'deny-rule',
    message: `Refused by deny rule ${i + 1} of ${rules.length} for ${b.name}${b.description ? ` (${b.description})` : ''}: ` +
      'these arguments log in or out, print, mint or move credentials, or run other programs with them, which this tool does not do. ' +
      'Do not try another spelling of the same command. If the user wants it, they can run it themselves in a terminal.',
  };
}

/** The program's absolute path, or why it may not run. */
function locate(b: CredentialedBinary, pathVar: string, deps: CredentialedExecDeps): string | { message: string } {
  // resolveExecutable ignores relative PATH entries (`.`, `node_modules/.bin`): they depend on the cwd.
  const found = resolveExecutable(b.name, '/', pathVar);
  if (!found) {
    return { message: `${b.name} was not found on PATH (absolute folders only). Install it, or set its path in pincer.exec.credentialed.` };
  }
  const roots = [deps.workspaceRoot(), ...deps.guard.roots].filter((r): r is string => !!r).map((r) => resolveExecutable(r, '/') ?? r);
  const inside = roots.find((r) => found === r || found.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  if (inside) {
    return {
      message: `Refused: ${b.name} resolves to ${found}, inside the workspace (${inside}). A program there could be one the repository ` +
        `planted to receive the credentials. The user can put the real ${b.name} first on PATH, or pin its path in pincer.exec.credentialed.`,
    };
  }
  if (b.path) {
    const pinned = resolveExecutable(b.path, '/');
    if (pinned !== found) {
      return { message: `Refused: ${b.name} resolves to ${found} on PATH, but pincer.exec.credentialed pins it to ${b.path}. The user must make the two agree.` };
    }
  }
  return found;
}

async function workdir(guard: PathResolver, input: string | undefined): Promise<string | ToolResult> {
  try {
    const r = await guard.resolve(input ?? '.', 'read');
    if (!r.exists) return fail(`cwd ${input} does not exist. Leave cwd out to run in the workspace folder.`);
    return r.abs;
  } catch (e) {
    if (e instanceof PathError) return fail(`cwd: ${e.message}`);
    throw e;
  }
}

async function collectSecrets(b: CredentialedBinary, deps: CredentialedExecDeps): Promise<{ values: Record<string, string> } | { missing: string[] }> {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of b.env) {
    const v = await deps.secrets.get(b.name, name);
    if (v) values[name] = v;
    else missing.push(name);
  }
  if (missing.length) return { missing };
  for (const name of b.optionalEnv ?? []) {
    const v = await deps.secrets.get(b.name, name);
    if (v) values[name] = v;
  }
  return { values };
}

function missingMessage(b: CredentialedBinary, missing: string[]): string {
  const what = missing.length === 1 ? `the credential ${missing[0]}, which is` : `the credentials ${missing.join(', ')}, which are`;
  return `${b.name} needs ${what} not set. The user sets it with the command "Pincer: Set Credential…" (choose ${b.name}, then ` +
    `${missing.join(' / ')}). Do not ask them to paste it into the chat; ask them to run that command, then try again.`;
}

/** How the call is shown: the program and its arguments, quoted where a reader would misread them. */
function display(name: string, argv: readonly string[]): string {
  return [name, ...argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))].join(' ');
}
