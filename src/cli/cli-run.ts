// `pincer tools` and `pincer run`: the runtime with every tool, built from the CLI's ports. Loaded
// only by those subcommands (main.ts keeps check-command and scrub free of it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoApplyReviewer, RejectAllReviewer } from '../core/fs/auto-apply-reviewer';
import { createFsTools } from '../core/fs/fs-tools';
import { NodeWorkspaceFs } from '../core/fs/node-fs';
import { PathGuard } from '../core/fs/path-guard';
import { locateRipgrep } from '../core/fs/ripgrep-locate';
import { PincerRuntime } from '../core/runtime';
import type { JobManager } from '../core/exec/run/job-manager';
import { loadCliConfig } from './cli-config';
import { cliExecTools, parseApprove } from './cli-exec';
import type { Values } from './main';
import { UsageError } from './usage-error';

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

export function tools(values: Values): number {
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

export async function run(values: Values, positionals: string[]): Promise<number> {
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

