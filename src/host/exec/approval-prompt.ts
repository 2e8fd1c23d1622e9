// The approval prompt: a modal dialog with the command exactly as it will run, where, why it asks and
// every part of it with its own verdict; Allow Once / Always Allow (only where a precise rule can be
// stored) / Deny. Pending requests are also answerable by id (the chat view's inline buttons and the
// host tests use that), and the caller's abort — the 2-minute timeout, cancel — settles them as Deny.
// A modal cannot be closed from code, so an answer that comes after the request settled is ignored
// and the person is told so.
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../core/exec/exec-types';
import { Emitter } from '../../core/events';

// Deny comes first: it is the dialog's default (Enter, Escape, the close box), so a stray key press never runs anything.
const DENY: vscode.MessageItem = { title: 'Deny', isCloseAffordance: true };
const ALLOW_ONCE: vscode.MessageItem = { title: 'Allow Once' };
const ALWAYS: vscode.MessageItem = { title: 'Always Allow' };

interface Pending {
  req: ApprovalRequest;
  settle(answer: ApprovalAnswer, note?: string): void;
}

export class ApprovalPrompt implements Approver {
  private readonly pending = new Map<string, Pending>();
  /** Fires when a request starts waiting or settles (for views and tests). */
  readonly onDidChange = new Emitter<{ id: string; state: 'waiting' | 'settled'; request?: ApprovalRequest; answer?: ApprovalAnswer; note?: string }>();
  /** True for a request the chat shows inline (its own turn, on screen): no dialog over it then. */
  inline?: (req: ApprovalRequest) => boolean;
  /** Names the subagent whose session raised a request (undefined for a person's own chat). */
  origin?: (sessionKey: string) => string | undefined;

  constructor(private readonly mode: () => 'modal' | 'notification' = () => 'modal') {}

  request(req: ApprovalRequest, signal: AbortSignal): Promise<{ answer: ApprovalAnswer; note?: string }> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: ApprovalAnswer, note?: string) => {
        if (settled) return;
        settled = true;
        this.pending.delete(req.id);
        signal.removeEventListener('abort', onAbort);
        this.onDidChange.fire({ id: req.id, state: 'settled', answer, ...(note ? { note } : {}) });
        resolve({ answer, ...(note ? { note } : {}) });
      };
      const onAbort = () => settle('deny', 'no answer in time');
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(req.id, { req, settle });
      this.onDidChange.fire({ id: req.id, state: 'waiting', request: req });
      if (this.inline?.(req)) return;
      const buttons = req.always ? [DENY, ALLOW_ONCE, ALWAYS] : [DENY, ALLOW_ONCE];
      const from = this.origin?.(req.sessionKey);
      // A notification has no room for details: it carries the command and the reason on one line.
      const shown = this.mode() === 'modal'
        ? vscode.window.showWarningMessage(title(req, from), { modal: true, detail: detail(req) }, ...buttons)
        : vscode.window.showWarningMessage(`${title(req, from)} ${req.command} — ${req.reason}`, ...buttons);
      void shown.then((choice) => {
        if (settled) {
          if (choice && choice !== DENY) void vscode.window.showInformationMessage('Pincer: that command was already answered (or timed out and was denied); nothing ran from this dialog.');
          return;
        }
        settle(choice === ALLOW_ONCE ? 'once' : choice === ALWAYS ? 'always' : 'deny', choice ? undefined : 'the dialog was dismissed');
      });
    });
  }

  /** Requests waiting for an answer, oldest first. */
  waiting(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.req);
  }

  /** Answers a waiting request; false when it is not (or no longer) waiting. */
  answer(id: string, answer: ApprovalAnswer): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    if (answer === 'always' && !p.req.always) return false;
    p.settle(answer);
    return true;
  }
}

function title(req: ApprovalRequest, from: string | undefined): string {
  const tool = req.tool === 'exec' ? 'run this command' : req.tool === 'spawn' ? 'start a subagent with this task'
    : req.tool === 'mcp' ? 'call this MCP tool, which its server says is destructive'
    : req.tool === 'custom' ? `run the custom tool "${req.customTool}" (this command)`
      : req.tool === 'browser' ? 'run this JavaScript in the browser page' : `run ${req.command.split(' ')[0]} with your credentials`;
  // A child's request says which child asks: the person may have several running at once.
  return `Allow Pincer (${from ?? `agent "${req.agentId}"`}) to ${tool}?`;
}

function detail(req: ApprovalRequest): string {
  const lines = [req.command, '', `in ${req.cwd} (${req.host})`, '', `Why it asks: ${req.reason}`];
  // One part: the reason already names it.
  if (req.segments.length > 1) {
    lines.push('', 'Parts:');
    for (const s of req.segments) {
      const text = s.segment.text || s.segment.argv.map((w) => w.text).join(' ');
      lines.push(`  ${s.decision === 'allow' ? '✓' : s.decision === 'ask' ? '?' : '✗'} ${text}${s.decision === 'allow' ? '' : ` — ${s.reason}`}`);
    }
  }
  if (req.always) {
    lines.push('', 'Always Allow saves for this workspace:');
    for (const e of req.always) lines.push(`  ${e.executable} ${e.args ?? ''}`.trimEnd());
  } else if (req.alwaysUnavailable) {
    lines.push('', `Always Allow is not offered: ${req.alwaysUnavailable}`);
  }
  return lines.join('\n');
}
