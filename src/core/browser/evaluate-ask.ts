// The browser tool's `evaluate` runs the model's JavaScript inside a page, with whatever that page can
// reach (its cookies, forms, the person's profile when one is configured), so it asks first through
// the same approval prompt commands use. Nobody to ask, no answer in time, a cancel: it does not run.
import { randomUUID } from 'node:crypto';
import { askApproval } from '../exec/approval-ask';
import type { Approver } from '../exec/exec-types';
import type { ToolContext } from '../tools/types';

export function evaluateAsker(approver: () => Approver | undefined, timeoutMs: () => number) {
  return async (expression: string, url: string, ctx: ToolContext): Promise<string | undefined> => {
    const a = approver();
    if (!a) return 'evaluate runs JavaScript in the page and needs a person\'s approval, which nobody can give here.';
    const { answer, note } = await askApproval(a, {
      id: randomUUID(), tool: 'browser', command: expression, cwd: url, host: 'process',
      reason: 'the browser tool would run this JavaScript in the page', segments: [],
      alwaysUnavailable: 'each script is asked about on its own', sessionKey: ctx.sessionKey, agentId: ctx.agentId,
    }, { timeoutMs: timeoutMs(), signal: ctx.signal });
    if (answer === 'once' || answer === 'always') return undefined;
    return `The user did not allow this JavaScript to run in the page${note ? ` (${note})` : ''}. Do not retry it; ask them what they want instead.`;
  };
}
