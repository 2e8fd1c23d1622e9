#!/usr/bin/env node
// `pincer`: the core without VS Code. Scripts, CI jobs and other agents use it, and it is how the
// guards are tested from outside. Exit codes: 0 success, 1 the tool returned an error result, 2 bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { AutoApplyReviewer, RejectAllReviewer } from '../core/fs/auto-apply-reviewer';
import { createFsTools } from '../core/fs/fs-tools';
import { NodeWorkspaceFs } from '../core/fs/node-fs';
import { PathGuard } from '../core/fs/path-guard';
import { locateRipgrep } from '../core/fs/ripgrep-locate';
import { PincerRuntime } from '../core/runtime';
import { loadCliConfig, UsageError } from './cli-config';
import { cliExecTools, parseApprove } from './cli-exec';
import type { JobManager } from '../core/exec/run/job-manager';

const HELP = `pincer — Pincer's tool runtime on the command line

Usage:
  pincer tools [--profile P] [--agent A] [--provider X] [--channel C] [--depth N]
               [--not-owner] [--untrusted] [--workspace DIR] [--config FILE] [--json]
      The effective tool list for that caller, and for each removed tool the step that removed it.
  pincer run <tool> ['<json arguments>'] [--workspace DIR] [--config FILE] [--agent A]
               [--session KEY] [--timeout SECONDS] [--write] [--json]
      One call through the same pipeline the editor uses. Prints what the model would see
      (or the whole result with --json). Exit 0 on success, 1 on an error result.
      File tools work on DIR (default: the current directory); write_file, edit and
      apply_patch change files only with --write (there is no diff review here).
      exec runs commands on DIR as child processes (or in the sandbox / dev container
      when pincer.exec.host says so); a command that needs approval is answered by
      --approve once|always|deny (default deny; "always" lasts for this run only).
      Background jobs are stopped when the run ends.
  pincer check-command '<command>' [--json] [--workspace DIR]
      How exec would judge the command with default settings (security full, ask on-miss, all 15
      deny groups on), writes checked against DIR. '-' reads the command from standard input.
      Exit 0 allow, 1 ask (would need approval), 2 deny (or bad usage).
  pincer scrub [--secret VALUE]...
      Copies standard input to standard output with secrets replaced by [REDACTED].

Settings come from DIR/.vscode/settings.json (pincer.* keys), then --config FILE.
`;

const OPTIONS = {
  profile: { type: 'string' }, agent: { type: 'string' }, provider: { type: 'string' }, channel: { type: 'string' },
  depth: { type: 'string' }, 'not-owner': { type: 'boolean' }, untrusted: { type: 'boolean' },
  workspace: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' }, session: { type: 'string' },
  timeout: { type: 'string' }, write: { type: 'boolean' }, secret: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' }, approve: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number ≥ 0, got "${v}".`);
  return n;
}

function runtimeFor(values: Values): { rt: PincerRuntime; workspace?: string; jobs: JobManager } {
  const workspace = values.workspace ? path.resolve(values.workspace) : undefined;
  if (workspace && !fs.existsSync(workspace)) throw new UsageError(`--workspace ${workspace}: no such directory.`);
  const warn = (m: string) => process.stderr.write(`pincer: warning: ${m}\n`);
  const rt = new PincerRuntime({ config: loadCliConfig(workspace, values.config, warn), warn });
  const { tools: fsTools, guard } = cliFsTools(rt, workspace ?? process.cwd(), !!values.write);
  const exec = cliExecTools(rt, guard, parseApprove(values.approve), (m) => process.stderr.write(`${m}\n`));
  rt.replaceTools([...fsTools, ...exec.tools]);
  return { rt, workspace, jobs: exec.jobs };
}

/**
 * The file tools on the workspace (or the current directory). Without --write, write tools are
 * refused at review: the CLI has no one to show a diff to, so writing needs an explicit yes.
 */
function cliFsTools(rt: PincerRuntime, root: string, write: boolean) {
  const nodeFs = new NodeWorkspaceFs();
  const c = rt.currentConfig.fs;
  const guard = new PathGuard({ roots: [root], workspaceOnly: c.workspaceOnly, allowPaths: c.allowPaths, denyPaths: c.denyPaths, alwaysDeny: [], home: os.homedir() });
  const reviewer = write ? new AutoApplyReviewer(nodeFs) : new RejectAllReviewer('pincer run does not write files unless you pass --write.');
  return { guard, tools: createFsTools({ guard, fs: nodeFs, reviewer }, { rgPath: locateRipgrep([]), denyPaths: c.denyPaths, home: os.homedir(), maxResultChars: rt.currentConfig.limits.maxResultChars }) };
}

function tools(values: Values): number {
  const { rt } = runtimeFor(values);
  const d = rt.effectiveTools({
    agentId: values.agent ?? 'default', provider: values.provider, channel: values.channel ?? 'cli',
    depth: int(values.depth, 'depth', 0), isOwner: !values['not-owner'], trusted: !values.untrusted,
    profileOverride: values.profile,
  });
  if (values.json) {
    process.stdout.write(JSON.stringify(d, null, 2) + '\n');
    return 0;
  }
  const out = [`Profile: ${d.profile.id} (${d.profile.source})`, `Allowed (${d.allowed.length}): ${d.allowed.join(', ') || '(none)'}`];
  if (d.removed.length) out.push('Removed:', ...d.removed.map((r) => `  ${r.tool} — ${r.step}: ${r.detail}`));
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

async function run(values: Values, positionals: string[]): Promise<number> {
  const [name, argText] = positionals;
  if (!name) throw new UsageError('pincer run needs a tool name: pincer run <tool> \'{"arg": "value"}\'');
  const { rt, workspace, jobs } = runtimeFor(values);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('interrupted')));
  const timeoutMs = int(values.timeout, 'timeout', rt.currentConfig.limits.defaultTimeoutMs / 1000) * 1000;
  const ctx = rt.context({
    channel: 'cli', agentId: values.agent ?? 'default', sessionKey: values.session ?? `cli:${process.pid}`,
    workspaceRoot: workspace ?? process.cwd(), signal: controller.signal, deadline: Date.now() + timeoutMs,
  });
  const result = await rt.registry.execute(name, argText ?? {}, ctx);
  const running = jobs.list(ctx.sessionKey).filter((j) => j.status === 'running');
  if (running.length) process.stderr.write(`pincer: stopping ${running.length} background job(s) as the run ends: ${running.map((j) => j.id).join(', ')}\n`);
  await jobs.dispose();
  process.stdout.write((values.json ? JSON.stringify(result, null, 2) : result.forLLM) + '\n');
  return result.isError ? 1 : 0;
}

async function scrub(values: Values): Promise<number> {
  const { Scrubber } = await import('../core/guard/scrubber');
  const s = new Scrubber();
  for (const v of values.secret ?? []) s.register(v);
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  process.stdout.write(s.scrub(Buffer.concat(chunks).toString('utf8')));
  return 0;
}

async function checkCommandCli(values: Values, positionals: string[]): Promise<number> {
  const [command] = positionals;
  if (command === undefined) throw new UsageError("pincer check-command needs a command: pincer check-command 'ls -la' (or - to read it from stdin)");
  const { checkCommand, readStdin } = await import('./check-command');
  const workspace = path.resolve(values.workspace ?? process.cwd());
  if (!fs.existsSync(workspace)) throw new UsageError(`--workspace ${workspace}: no such directory.`);
  const c = loadCliConfig(values.workspace ? workspace : undefined, values.config, (m) => process.stderr.write(`pincer: warning: ${m}\n`)).fs;
  const r = await checkCommand(command === '-' ? await readStdin() : command, { workspace: fs.realpathSync(workspace), json: !!values.json, fsConfig: c });
  process.stdout.write(r.out + '\n');
  return r.code;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [cmd, ...rest] = positionals;
    if (values.version) {
      process.stdout.write(`pincer ${typeof PINCER_VERSION === 'string' ? PINCER_VERSION : 'dev'}\n`);
      return 0;
    }
    if (values.help || !cmd) {
      process.stdout.write(HELP);
      return values.help ? 0 : 2;
    }
    if (cmd === 'tools') return tools(values);
    if (cmd === 'run') return await run(values, rest);
    if (cmd === 'scrub') return await scrub(values);
    if (cmd === 'check-command') return await checkCommandCli(values, rest);
    throw new UsageError(`unknown command "${cmd}". Commands: tools, run, check-command, scrub (pincer --help).`);
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`pincer: ${(e as Error).message}\n`);
    return usage ? 2 : 1;
  }
}

declare const PINCER_VERSION: string;

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
