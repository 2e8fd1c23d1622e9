// What the model is told after the user (or an auto-applying reviewer) decided on its changes. A
// model that is not told its edit was rejected, or that the user rewrote part of it, edits the
// wrong text next; so every file's decision is spelled out, with the user's reason, and with a
// diff from the proposal to what was actually written when the user changed it.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { fail, ok, type ToolResult } from '../tools/types';
import type { FsToolDeps, ProposedChange, ReviewDecision } from './types';

/** One proposed change and what the tool did, as a past-tense phrase ("created, 3 lines, 20 bytes"). */
export interface ChangeSummary {
  change: ProposedChange;
  what: string;
}

const MAX_DIFF_CHARS = 8_000;
/**
 * Beyond this many changed lines the user rewrote the file and a diff says less than "read it"; the
 * bound also keeps the O(N·D) diff short (~40 ms at 500 on 12,000 lines, ~600 ms at 2,000).
 */
const MAX_EDIT_LENGTH = 1_000;
const DIFF_TIMEOUT_MS = 500;

function lf(s: string): string {
  return s.replace(/\r\n/g, '\n');
}

/** A unified diff `from` → `to` with file headers, or undefined when they differ too much to show. */
export function unifiedDiff(rel: string, from: string, to: string, labels: [string, string] = ['proposed', 'written']): string | undefined {
  const patch = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, lf(from), lf(to), labels[0], labels[1], {
    context: 3, headerOptions: FILE_HEADERS_ONLY, maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return undefined;
  const text = patch.replace(/\n$/, '');
  return text.length > MAX_DIFF_CHARS ? `${text.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)` : text;
}

function describe(item: ChangeSummary, d: ReviewDecision): string {
  const rel = item.change.path.rel || item.change.path.abs;
  if (d.decision === 'accepted') return `${rel}: ${item.what}.`;
  if (d.decision === 'rejected') {
    const why = d.reason?.trim()
      ? ` The user's reason: ${JSON.stringify(d.reason.trim())}. Follow it rather than retrying the same change.`
      : ' No reason was given: do not retry the same change; ask the user how to proceed.';
    return `${rel}: NOT changed: the user rejected the proposed change (${item.what}).${why}`;
  }
  const proposed = item.change.after ?? '';
  const diff = unifiedDiff(rel, proposed, d.content);
  const shown = diff
    ? `What was written differs from your proposal as follows:\n\`\`\`diff\n${diff}\n\`\`\``
    : 'The written content differs from your proposal too much to show as a diff; read the file.';
  return `${rel}: ${item.what}, but the user edited your proposal before accepting it. ${shown}\nBase any further edit of ${rel} on its current content, not on your proposal.`;
}

/** The tool result for a set of changes and the decisions on them (same order). */
export function decisionsResult(tool: string, items: readonly ChangeSummary[], decisions: readonly ReviewDecision[], details: Record<string, unknown> = {}): ToolResult {
  const ds = items.map((_, i): ReviewDecision => decisions[i] ?? { decision: 'rejected', reason: 'the reviewer returned no decision for this file' });
  const lines = items.map((item, i) => describe(item, ds[i]!));
  const count = (k: ReviewDecision['decision']) => ds.filter((d) => d.decision === k).length;
  const rejected = count('rejected');
  const forLLM = items.length === 1
    ? lines[0]!
    : [`${tool}: ${items.length - rejected} of ${items.length} file changes applied (${count('accepted')} as proposed, ${count('modified')} edited by the user, ${rejected} rejected).`, ...lines.map((l) => `- ${l}`)].join('\n');
  const perFile = items.map((item, i) => ({
    path: item.change.path.rel, abs: item.change.path.abs, decision: ds[i]!.decision,
    ...(ds[i]!.decision === 'rejected' && ds[i]!.reason ? { reason: ds[i]!.reason } : {}),
  }));
  const result = { details: { ...details, decisions: perFile } };
  return rejected ? fail(forLLM, { ...result, outcome: 'rejected-by-user' }) : ok(forLLM, result);
}

/** Sends the changes of one tool call to the reviewer once and reports the decisions. */
export async function reviewChanges(deps: Pick<FsToolDeps, 'reviewer'>, tool: string, items: readonly ChangeSummary[], signal: AbortSignal, details: Record<string, unknown> = {}): Promise<ToolResult> {
  let decisions: ReviewDecision[];
  try {
    decisions = await deps.reviewer.review(items.map((i) => i.change), signal);
  } catch (e) {
    // A cancelled review is the pipeline's to report ("cancelled by the user").
    if (signal.aborted) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    const files = items.map((i) => i.change.path.rel).join(', ');
    return fail(`${tool} could not apply its changes: ${msg}. ${items.length > 1 ? `Some of ${files} may have been changed; read them` : `Read ${files}`} before trying again.`, { details: { ...details, error: msg } });
  }
  return decisionsResult(tool, items, decisions, details);
}
