// `pincer hook <format>`: another agent's pre-tool-use hook. The event arrives on stdin; the answer is
// printed in that agent's format (src/core/hooks/). Settings are the CLI's (the workspace's
// .vscode/settings.json, then --config), and the workspace's "always" approvals are read from the same
// store `pincer run` keeps (--state DIR, by default the workspace's folder under the state directory).
// An event that cannot be read, or a check that fails, is answered with exit code 2 and the reason on
// stderr: both Claude Code and Cursor treat that as "do not run the tool", so a broken hook fails closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DbApprovalStore, MemoryApprovalStore } from '../core/exec/approval-store';
import { PathGuard } from '../core/fs/path-guard';
import { claudeCodeHook } from '../core/hooks/claude-code';
import { cursorHook } from '../core/hooks/cursor';
import { hookChecks } from '../core/hooks/hook-checks';
import { HookInputError, type HookFormat } from '../core/hooks/hook-format';
import { Database } from '../core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../core/storage/workspace-migrations';
import { readStdin } from './check-command';
import { loadCliConfig } from './cli-config';
import { defaultStateDir, storageWorkerPath } from './cli-state-paths';
import type { Values } from './main';
import { UsageError } from './usage-error';

const FORMATS: Readonly<Record<string, HookFormat>> = { 'claude-code': claudeCodeHook, cursor: cursorHook };

const warn = (m: string) => process.stderr.write(`pincer: warning: ${m}\n`);

export async function hook(values: Values, positionals: string[]): Promise<number> {
  const [name, ...extra] = positionals;
  const format = name === undefined ? undefined : FORMATS[name];
  if (!format || extra.length) throw new UsageError(`pincer hook needs one format: ${Object.keys(FORMATS).join(' or ')} (the event comes on standard input).`);
  let db: Database | undefined;
  try {
    const request = format(await readStdin(), process.env);
    const given = values.workspace ?? request.workspace ?? process.cwd();
    if (!fs.existsSync(given)) throw new UsageError(`the workspace ${given} does not exist.`);
    const root = fs.realpathSync(given);
    const config = loadCliConfig(root, values.config, warn);
    const stateDir = values.state ? path.resolve(values.state) : defaultStateDir(root);
    // A workspace Pincer never ran in has no approvals; the store is not created just to find that out.
    // Only the approvals are read (and their "last used" touched), so only the database is opened.
    if (fs.existsSync(stateDir)) db = await Database.open({ dir: stateDir, workerPath: storageWorkerPath(), migrations: WORKSPACE_MIGRATIONS, onWarning: (m) => warn(`storage: ${m}`) });
    const guard = new PathGuard({
      roots: [root], workspaceOnly: config.fs.workspaceOnly, allowPaths: config.fs.allowPaths, denyPaths: config.fs.denyPaths,
      alwaysDeny: [stateDir], home: os.homedir(),
    });
    const answer = await request.answer(hookChecks({
      policy: config.exec.policy, guard, store: db ? new DbApprovalStore(db) : new MemoryApprovalStore(), home: os.homedir(), host: config.exec.host,
    }));
    if (answer.stdout !== undefined) process.stdout.write(answer.stdout + '\n');
    return answer.code;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const why = e instanceof HookInputError ? e.message : `the check failed: ${(e as Error).message}`;
    process.stderr.write(`pincer hook: ${why} The tool call is refused.\n`);
    return 2;
  } finally {
    await db?.close();
  }
}
