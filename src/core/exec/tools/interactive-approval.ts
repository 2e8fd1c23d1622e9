// A person's confirmation for what the judge cannot read: starting a program that reads commands,
// and a line typed into one (interactive-gate.ts). Same prompt and the same rules as exec's own
// questions — pincer.exec.ask 'off' or nobody to answer refuses — but never "Always allow": a rule
// for `bash` or for one line of Python would say nothing about what comes next.
import { randomUUID } from 'node:crypto';
import { askApproval } from '../approval-ask';
import { effectivePolicy, type CommandPolicy } from '../command-policy';
import type { Approver, ExecHostKind } from '../exec-types';

export interface PersonDeps {
  /** The effective policy of the call (configured, tightened by the request). */
  policy: CommandPolicy;
  approver?: Approver;
  approvalTimeoutMs: number;
}

export interface PersonQuestion {
  command: string;
  cwd: string;
  host: ExecHostKind;
  reason: string;
  /** Why "Always allow" is not offered. */
  alwaysUnavailable: string;
  sessionKey: string;
  agentId: string;
  signal: AbortSignal;
}

export async function askPerson(deps: PersonDeps, q: PersonQuestion): Promise<{ approved: true } | { refused: string; by: 'policy' | 'person' }> {
  const policy = effectivePolicy(deps.policy);
  if (policy.security === 'deny') return { by: 'policy', refused: "Running commands is switched off (pincer.exec.security is 'deny')." };
  if (policy.ask === 'off') return { by: 'policy', refused: `This needs a person's approval (${q.reason}), and pincer.exec.ask is 'off', so nobody is asked.` };
  if (!deps.approver) return { by: 'policy', refused: `This needs approval and nobody can give it here: ${q.reason}.` };
  const answer = await askApproval(deps.approver, {
    id: randomUUID(), tool: 'exec', command: q.command, cwd: q.cwd, host: q.host, reason: q.reason, segments: [],
    alwaysUnavailable: q.alwaysUnavailable, sessionKey: q.sessionKey, agentId: q.agentId,
  }, { timeoutMs: deps.approvalTimeoutMs, signal: q.signal });
  if (answer.answer !== 'deny') return { approved: true };
  const why = answer.note ? ` (${answer.note})` : '';
  return { by: 'person', refused: `The user denied it${why}. Do not retry it; ask them what they want instead, or choose a different approach.` };
}

/**
 * The approver with more said in the prompt's reason; with `alwaysUnavailable`, "Always allow" is
 * not offered (a stored rule would let the next start through unasked).
 */
export function prefixed(approver: Approver, lead: string, alwaysUnavailable?: string): Approver {
  return {
    request: (req, signal) => approver.request({
      ...req, reason: lead + req.reason, ...(alwaysUnavailable ? { always: undefined, alwaysUnavailable } : {}),
    }, signal),
  };
}
