// Whether one exec call may run: parse (NUL refused, NFKC, invisible characters gone), judge per
// segment under the effective policy (configured, tightened by the request; the allowlist is the
// settings' plus the workspace's "Always allow" answers), then ask a person when the judge asks.
// Only 'run' lets the caller go on, and it carries the normalised text: that, not what the model
// sent, is what runs (NFKC turns a fullwidth `；` into a real `;` the judge has seen).
import { randomUUID } from 'node:crypto';
import type { PathResolver } from '../fs/types';
import { askApproval } from './approval-ask';
import { alwaysRulesFor, approvalsUsed } from './approval-rules';
import { parseCommand } from './command-parse';
import { effectivePolicy, type AskMode, type CommandPolicy, type Security } from './command-policy';
import { CommandRejected, type Verdict } from './command-types';
import type { ApprovalAnswer, ApprovalStore, Approver, ExecHostKind, StoredApproval } from './exec-types';

/**
 * The judge (with its rule tables, half of this folder's code) on the first command, not when the
 * runtime loads: a window whose first tool call reads a file does not evaluate it. Kept once loaded
 * (a bundle's require makes a new exports object per call).
 */
let judgeCommand: typeof import('./command-judge').judgeCommand | undefined;
function judge(): typeof import('./command-judge').judgeCommand {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (judgeCommand ??= (require('./command-judge') as typeof import('./command-judge')).judgeCommand);
}

export interface DecideDeps {
  policy: CommandPolicy;
  guard: PathResolver;
  store: ApprovalStore;
  /** Absent where nobody can answer (a CLI run without --approve): asking then means deny. */
  approver?: Approver;
  approvalTimeoutMs: number;
  home?: string;
}

export interface DecideRequest {
  command: string;
  cwd: string;
  host: ExecHostKind;
  requested?: { security?: Security; ask?: AskMode };
  sessionKey: string;
  agentId: string;
  signal: AbortSignal;
  /** The custom tool whose argv this is (the approval prompt names it); absent for exec's own commands. */
  customTool?: string;
}

export type Decided =
  | { kind: 'run'; text: string; verdict: Verdict; approval?: Exclude<ApprovalAnswer, 'deny'>; stored?: StoredApproval[] }
  | { kind: 'refused'; message: string; verdict?: Verdict; by: 'policy' | 'person' | 'nobody' | 'input' };

export async function decide(deps: DecideDeps, req: DecideRequest): Promise<Decided> {
  let parsed;
  try {
    parsed = await parseCommand(req.command);
  } catch (e) {
    if (e instanceof CommandRejected) return { kind: 'refused', by: 'input', message: `${e.message} Send the command as plain text.` };
    throw e;
  }
  if (!parsed.normalized.trim()) return { kind: 'refused', by: 'input', message: 'The command is empty: say what to run.' };
  const stored = await deps.store.list();
  const configured: CommandPolicy = { ...deps.policy, allowlist: [...deps.policy.allowlist, ...stored] };
  const policy = effectivePolicy(configured, req.requested);
  const verdict = await judge()(parsed, policy, { cwd: req.cwd, guard: deps.guard, home: deps.home });
  if (verdict.decision === 'allow') {
    // "Last used" in Manage Command Approvals: which stored rules let this run.
    await Promise.all(approvalsUsed(verdict, stored, req.cwd).map((a) => deps.store.touch(a.id)));
    return { kind: 'run', text: parsed.normalized, verdict };
  }
  if (verdict.decision === 'deny') return { kind: 'refused', by: 'policy', verdict, message: denyMessage(verdict) };
  if (!deps.approver) {
    return { kind: 'refused', by: 'nobody', verdict, message: `This command needs approval and nobody can give it here: ${verdict.reason}.` };
  }
  const rules = alwaysRulesFor(verdict, req.cwd);
  const answer = await askApproval(deps.approver, {
    id: randomUUID(), ...(req.customTool ? { tool: 'custom', customTool: req.customTool } : { tool: 'exec' }), command: parsed.normalized, cwd: req.cwd, host: req.host, reason: verdict.reason,
    segments: verdict.segments, sessionKey: req.sessionKey, agentId: req.agentId,
    ...('entries' in rules ? { always: rules.entries } : { alwaysUnavailable: rules.unavailable }),
  }, { timeoutMs: deps.approvalTimeoutMs, signal: req.signal });
  if (answer.answer === 'deny') {
    const why = answer.note ? ` (${answer.note})` : '';
    return { kind: 'refused', by: 'person', verdict, message: `The user denied running this command${why}. Do not retry it; ask them what they want instead, or choose a different approach.` };
  }
  if (answer.answer === 'always' && 'entries' in rules) {
    const added = await Promise.all(rules.entries.map((e) => deps.store.add(e, parsed.normalized)));
    return { kind: 'run', text: parsed.normalized, verdict, approval: 'always', stored: added };
  }
  return { kind: 'run', text: parsed.normalized, verdict, approval: 'once' };
}

function denyMessage(v: Verdict): string {
  const group = v.group ? ` [${v.group}]` : '';
  const hint = v.group === 'security'
    ? ''
    : ' If the user wants this command run, they can run it themselves, or change pincer.exec.denyGroups / pincer.exec.security in their user settings.';
  return `Command denied${group}: ${v.reason}.${hint} Do not try to get around this with another spelling of the same command.`;
}
