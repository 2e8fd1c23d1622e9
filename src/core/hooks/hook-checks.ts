// What Pincer answers when another agent asks before running one of its own tools: a command goes
// through the same decision as Pincer's exec (the judge under the configured policy, with the
// workspace's "always" approvals), a file path through the same path guard as Pincer's file tools.
// The agent keeps running its tool itself; Pincer only says allow, ask or deny, and why.
import type { ApprovalStore, ExecHostKind } from '../exec/exec-types';
import { decide } from '../exec/exec-decide';
import type { CommandPolicy } from '../exec/command-policy';
import { PathError, type PathResolver } from '../fs/types';

export type HookDecision = 'allow' | 'ask' | 'deny';

export interface HookVerdict {
  decision: HookDecision;
  reason: string;
}

export interface HookCheckDeps {
  policy: CommandPolicy;
  guard: PathResolver;
  /** The workspace's "always" approvals (the CLI's store), so what a person allowed for good is allowed here too. */
  store: ApprovalStore;
  home: string;
  /** Where the agent will run the command: the judge's rules for the sandbox differ from a plain process. */
  host: ExecHostKind;
}

export interface HookChecks {
  command(command: string, cwd: string): Promise<HookVerdict>;
  path(file: string, access: 'read' | 'write'): Promise<HookVerdict>;
}

export function hookChecks(deps: HookCheckDeps): HookChecks {
  return {
    async command(command, cwd) {
      // No approver: where the judge would ask a person, the hook answers "ask" and the agent asks
      // its own person (in its own dialog) instead.
      const d = await decide({ policy: deps.policy, guard: deps.guard, store: deps.store, approvalTimeoutMs: 0, home: deps.home }, {
        command, cwd, host: deps.host, sessionKey: 'hook', agentId: 'default', signal: new AbortController().signal,
      });
      if (d.kind === 'run') return { decision: 'allow', reason: `Pincer: ${d.verdict.reason}` };
      if (d.by === 'nobody') return { decision: 'ask', reason: `Pincer: needs approval: ${d.verdict?.reason ?? d.message}` };
      return { decision: 'deny', reason: `Pincer: ${d.message}` };
    },
    async path(file, access) {
      try {
        const r = await deps.guard.resolve(file, access);
        return { decision: 'allow', reason: `Pincer: ${r.abs} is inside what the path guard allows for ${access}.` };
      } catch (e) {
        if (e instanceof PathError) return { decision: 'deny', reason: `Pincer: ${e.message}` };
        throw e;
      }
    },
  };
}
