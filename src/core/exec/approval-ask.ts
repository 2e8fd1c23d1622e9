// Asking a person. Whatever goes wrong — nobody answers in time, the call is cancelled, the prompt
// itself fails, an answer that is not one of the three — the command does not run: OpenClaw runs
// on an approval timeout, which turns "nobody was looking" into "yes". Only a person's own
// 'once' or 'always' lets a command through.
import type { ApprovalAnswer, ApprovalRequest, Approver } from './exec-types';

export interface AskOptions {
  /** How long to wait for an answer (the caller's default is 120,000: pincer.exec.approvalTimeoutSeconds). */
  timeoutMs: number;
  /** The tool call's signal: cancelling the call withdraws the prompt. */
  signal: AbortSignal;
  /** Runs `fire` after `ms` and returns a cancel; setTimeout by default (tests hold the clock). */
  after?: (ms: number, fire: () => void) => () => void;
}

function afterTimer(ms: number, fire: () => void): () => void {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
}

export interface AskResult {
  answer: ApprovalAnswer;
  /** Why it came out as 'deny' without a person saying so, for the model and the log. */
  note?: string;
}

/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function describeWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  const s = Math.round(ms / 1000);
  return `${s} second${s === 1 ? '' : 's'}`;
}

export async function askApproval(approver: Approver, req: ApprovalRequest, opts: AskOptions): Promise<AskResult> {
  if (opts.signal.aborted) return { answer: 'deny', note: 'cancelled' };
  // The prompt gets its own signal: it is aborted on timeout or cancel so the UI can close it.
  const prompt = new AbortController();
  const timeoutMs = Number.isFinite(opts.timeoutMs) ? Math.min(Math.max(0, opts.timeoutMs), MAX_TIMER_MS) : MAX_TIMER_MS;
  let cancelTimer: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<AskResult>((resolve) => {
    cancelTimer = (opts.after ?? afterTimer)(timeoutMs, () => resolve({ answer: 'deny', note: `no answer within ${describeWait(timeoutMs)}: denied` }));
  });
  const cancelled = new Promise<AskResult>((resolve) => {
    onAbort = () => resolve({ answer: 'deny', note: 'cancelled' });
    opts.signal.addEventListener('abort', onAbort, { once: true });
  });
  let byPrompt = false;
  const answered = (async (): Promise<AskResult> => {
    try {
      return checkedAnswer(await approver.request(req, prompt.signal));
    } catch (e) {
      return { answer: 'deny', note: `the approval prompt failed (${e instanceof Error ? e.message : String(e)}): denied` };
    } finally {
      byPrompt = true;
    }
  })();
  try {
    const result = await Promise.race([answered, timedOut, cancelled]);
    // Timed out or cancelled: withdraw the prompt, so a late click cannot count for anything.
    if (!byPrompt) prompt.abort(new Error(result.note));
    return result;
  } finally {
    cancelTimer?.();
    if (onAbort) opts.signal.removeEventListener('abort', onAbort);
  }
}

/** Anything but a well-formed answer is a deny: a host bug must not become a yes. */
function checkedAnswer(r: unknown): AskResult {
  const answer = (r as { answer?: unknown } | null | undefined)?.answer;
  const note = (r as { note?: unknown } | null | undefined)?.note;
  if (answer === 'once' || answer === 'always' || answer === 'deny') return typeof note === 'string' && note ? { answer, note } : { answer };
  return { answer: 'deny', note: `the approval prompt gave no valid answer (${JSON.stringify(answer) ?? 'nothing'}): denied` };
}
