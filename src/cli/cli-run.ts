// `pincer tools` and `pincer run`: the runtime with the one toolset (src/core/toolset.ts), built from
// the CLI's ports, over the CLI's store. Loaded only by those subcommands (main.ts keeps check-command
// and scrub free of it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoApplyReviewer, RejectAllReviewer } from '../core/fs/auto-apply-reviewer';
import { CheckpointingReviewer } from '../core/fs/checkpointing-reviewer';
import { NodeWorkspaceFs } from '../core/fs/node-fs';
import { locateRipgrep } from '../core/fs/ripgrep-locate';
import { prepareScrubber } from '../core/guard/scrubber';
import { PincerRuntime } from '../core/runtime';
import { createToolset, type ExecPorts } from '../core/toolset';
import type { DestructiveAskDeps } from '../core/mcp/destructive-ask';
import type { JobManager } from '../core/exec/run/job-manager';
import type { CronToolPorts } from '../core/automation/cron-tool';
import { loadCliConfig } from './cli-config';
import { cliExecPorts, parseApprove } from './cli-exec';
import { cliCustomTools } from './cli-custom-tools';
import { cliSkills } from './cli-skills';
import { CliStore, defaultStateDir } from './cli-state';
import type { Values } from './main';
import { UsageError } from './usage-error';

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number ≥ 0, got "${v}".`);
  return n;
}

export interface CliRuntime {
  rt: PincerRuntime;
  root: string;
  jobs: JobManager;
  store: CliStore;
  /** --approve's answers, for MCP tools their servers mark destructive as for exec. */
  approvals: DestructiveAskDeps;
}

/**
 * Every tool on the workspace (or the current directory). Without --write, writes are refused at
 * review: the CLI has no one to show a diff to, so writing needs an explicit yes. Writes that land
 * keep their originals as checkpoints in the store, as in the editor.
 */
const warnOf = (m: string) => process.stderr.write(`pincer: warning: ${m}\n`);

/** Tools a command adds to the toolset: `pincer cron`'s scheduled jobs, on the same store. */
export interface CliExtras {
  cron?: (store: CliStore) => CronToolPorts;
}

export function runtimeFor(values: Values, extras: CliExtras = {}): CliRuntime {
  const workspace = values.workspace ? path.resolve(values.workspace) : undefined;
  if (workspace && !fs.existsSync(workspace)) throw new UsageError(`--workspace ${workspace}: no such directory.`);
  const root = fs.realpathSync(workspace ?? process.cwd());
  const warn = (m: string) => process.stderr.write(`pincer: warning: ${m}\n`);
  const rt = new PincerRuntime({ config: loadCliConfig(workspace, values.config, warn), warn });
  const store = new CliStore(values.state ? path.resolve(values.state) : defaultStateDir(root), rt, warn);
  const nodeFs = new NodeWorkspaceFs();
  const reviewer = values.write
    ? new CheckpointingReviewer(new AutoApplyReviewer(nodeFs), () => store.checkpoints(), nodeFs, warn)
    : new RejectAllReviewer('pincer run does not write files unless you pass --write.');
  const approve = parseApprove(values.approve);
  let jobs: JobManager | undefined;
  let approver: ExecPorts['approver'] = () => undefined;
  const custom = cliCustomTools(values, root, warn);
  const toolset = createToolset({
    rt, folders: () => [{ path: root }], home: os.homedir(), ownStorage: [store.dir], fs: nodeFs, customTools: custom,
    skills: { catalog: cliSkills(values, root, warn) },
    ...(extras.cron ? { cron: extras.cron(store) } : {}),
    reviewer, rgPath: locateRipgrep([]),
    memory: () => store.memory(), userId: () => store.userId(), sessions: () => store.sessions(),
    // No model in the CLI: sessions_send says so.
    runner: () => undefined,
    exec: (guard) => {
      const ports = cliExecPorts(rt, { get roots() { return guard().roots; } }, store.approvals, approve, (m) => process.stderr.write(`${m}\n`));
      jobs = ports.jobs;
      approver = ports.approver;
      return ports;
    },
  });
  const names = new Set(custom.definitions().map((d) => d.name));
  for (const h of toolset.hidden()) if (names.has(h.tool)) warn(h.reason);
  return { rt, root, jobs: jobs!, store, approvals: { approver: () => approver?.(), approvalTimeoutMs: () => rt.currentConfig.exec.approvalTimeoutMs } };
}

export async function tools(values: Values): Promise<number> {
  const { rt, root, store, approvals } = runtimeFor(values);
  const mcp = await (await import('./cli-mcp')).startCliMcp(values, rt, root, approvals, warnOf);
  const d = rt.effectiveTools({
    agentId: values.agent ?? 'default', provider: values.provider, channel: values.channel ?? 'cli',
    depth: int(values.depth, 'depth', 0), isOwner: !values['not-owner'], trusted: !values.untrusted,
    profileOverride: values.profile,
  });
  const status = mcp && (await import('./cli-mcp')).mcpStatusJson(mcp);
  await mcp?.manager.dispose();
  await store.close();
  if (values.json) {
    const servers = status ? { mcpServers: status } : {};
    process.stdout.write(JSON.stringify({ ...d, ...servers }, null, 2) + '\n');
    return 0;
  }
  const out = [`Profile: ${d.profile.id} (${d.profile.source})`, `Allowed (${d.allowed.length}): ${d.allowed.join(', ') || '(none)'}`];
  if (d.removed.length) out.push('Removed:', ...d.removed.map((r) => `  ${r.tool} — ${r.step}: ${r.detail}`));
  if (status?.length) out.push('MCP servers:', ...status.map((x) => `  ${x.name} (${x.file}) — ${x.state}, ${x.tools.length} tool(s)${x.error ? `: ${x.error}` : ''}`));
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

export async function run(values: Values, positionals: string[]): Promise<number> {
  const [name, argText] = positionals;
  if (!name) throw new UsageError('pincer run needs a tool name: pincer run <tool> \'{"arg": "value"}\'');
  const { rt, root, jobs, store, approvals } = runtimeFor(values);
  // Its result is scrubbed: the pattern compiles while the call starts (a listing never pays it).
  prepareScrubber();
  // MCP servers are started only for a call to one of their tools.
  const mcp = name.startsWith('mcp_') ? await (await import('./cli-mcp')).startCliMcp(values, rt, root, approvals, warnOf) : undefined;
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('interrupted')));
  const timeoutMs = int(values.timeout, 'timeout', rt.currentConfig.limits.defaultTimeoutMs / 1000) * 1000;
  const ctx = rt.context({
    channel: 'cli', agentId: values.agent ?? 'default', sessionKey: values.session ?? `cli:${process.pid}`,
    workspaceRoot: root, signal: controller.signal, deadline: Date.now() + timeoutMs,
  });
  const result = await rt.registry.execute(name, argText ?? {}, ctx);
  const running = jobs.list(ctx.sessionKey).filter((j) => j.status === 'running');
  if (running.length) process.stderr.write(`pincer: stopping ${running.length} background job(s) as the run ends: ${running.map((j) => j.id).join(', ')}\n`);
  await jobs.dispose();
  await mcp?.manager.dispose();
  await store.close();
  process.stdout.write((values.json ? JSON.stringify(result, null, 2) : result.forLLM) + '\n');
  return result.isError ? 1 : 0;
}

