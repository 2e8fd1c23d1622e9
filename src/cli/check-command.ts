// `pincer check-command '<command>'`: the exec judge from outside, with default settings, so the
// corpora and anyone's doubts can be replayed without an editor. `-` reads the command from stdin
// (argv cannot carry a NUL byte, stdin can — and a NUL must be refused, not judged).
import os from 'node:os';
import path from 'node:path';
import { PathGuard } from '../core/fs/path-guard';
import { judgeCommand } from '../core/exec/command-judge';
import { parseCommand } from '../core/exec/command-parse';
import { DEFAULT_COMMAND_POLICY } from '../core/exec/command-policy';
import { CommandRejected, type Decision, type Verdict } from '../core/exec/command-types';

/** Exit codes: 0 allow, 1 ask, 2 deny (a NUL byte is a deny); usage errors are 2 as well, with a message on stderr. */
const CHECK_EXIT: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

export interface CheckCommandOptions {
  workspace: string;
  json: boolean;
  fsConfig: { workspaceOnly: boolean; allowPaths: readonly string[]; denyPaths: readonly string[] };
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export async function checkCommand(command: string, opts: CheckCommandOptions): Promise<{ code: number; out: string }> {
  const guard = new PathGuard({ roots: [opts.workspace], workspaceOnly: opts.fsConfig.workspaceOnly, allowPaths: [...opts.fsConfig.allowPaths], denyPaths: [...opts.fsConfig.denyPaths], alwaysDeny: [], home: os.homedir() });
  let verdict: Verdict;
  try {
    verdict = await judgeCommand(await parseCommand(command), DEFAULT_COMMAND_POLICY, { cwd: path.resolve(opts.workspace), guard });
  } catch (e) {
    if (!(e instanceof CommandRejected)) throw e;
    verdict = { decision: 'deny', group: 'rejected', reason: e.message, segments: [], problems: [] };
  }
  const segs = verdict.segments.map((s) => ({ argv: s.segment.argv.map((w) => w.text), decision: s.decision, ...(s.group ? { group: s.group } : {}), reason: s.reason }));
  const out = opts.json
    ? JSON.stringify({ decision: verdict.decision, group: verdict.group ?? null, reason: verdict.reason, segments: segs, problems: verdict.problems }, null, 2)
    : [`${verdict.decision.toUpperCase()}: ${verdict.reason}`, ...segs.map((s) => `  ${s.decision.padEnd(5)} ${JSON.stringify(s.argv)}${s.decision === 'allow' ? '' : ` — ${s.reason}`}`)].join('\n');
  return { code: CHECK_EXIT[verdict.decision], out };
}
