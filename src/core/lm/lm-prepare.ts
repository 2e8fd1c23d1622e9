// What VS Code shows before its agent calls one of Pincer's tools (LanguageModelTool.prepareInvocation):
// a line saying exactly what will happen, and a confirmation only where Pincer itself will ask nobody.
//
// One prompt for the person, never two: a command the judge asks about goes to Pincer's approval
// prompt, and an edit under review goes to Pincer's diff review, so VS Code is not asked to confirm
// those as well. The reverse (VS Code's Continue standing in for Pincer's approval) would be unsafe:
// VS Code can confirm on its own ("Always allow", chat.tools.autoApprove) and its extension API does
// not tell a tool whether a person really saw the question. So VS Code's confirmation is asked for
// only where Pincer would ask no one: an edit its review settings let land unreviewed, and process
// actions that write to or stop a running job. Read-only tools, commands the judge allows and calls
// Pincer will refuse run without a VS Code confirmation (VS Code may still add its own, per its settings).
// Everything here is free of side effects: VS Code may prepare a call it never makes.
import { decide } from '../exec/judge-lazy';
import type { CommandPolicy } from '../exec/command-policy';
import type { ApprovalStore, ExecHostKind } from '../exec/exec-types';
import { parsePatch } from '../fs/patch-parse';
import { needsReview, type ReviewPolicyConfig } from '../fs/review-policy';
import { PathError, type PathResolver } from '../fs/types';
import type { Capability } from '../tools/types';

export interface LmPrepared {
  /** Markdown: shown while the call runs. */
  invocationMessage: string;
  /** Asked by VS Code before the call (Continue / Cancel); absent: no VS Code confirmation. */
  confirmation?: { title: string; message: string };
}

export interface LmPrepareDeps {
  /** The capability of the Pincer tool being called. */
  capability: Capability;
  guard: PathResolver;
  review: ReviewPolicyConfig;
  exec: { policy: CommandPolicy; host: ExecHostKind; store: ApprovalStore; home: string };
}

type Args = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const code = (s: string) => `\`${s.replace(/`/g, 'ˋ').replace(/\s+/g, ' ').slice(0, 300)}\``;
/** Lines of a text, a final newline ending the last line rather than starting another. */
const lines = (s: string) => (s ? s.split('\n').length - (s.endsWith('\n') ? 1 : 0) : 0);

/** The judge's answer for a command, per part, without asking anyone and without touching stored approvals. */
async function commandMessage(command: string, workdir: string, deps: LmPrepareDeps): Promise<LmPrepared> {
  let cwd: string;
  try {
    cwd = (await deps.guard.resolve(workdir || '.', 'read')).abs;
  } catch (e) {
    if (e instanceof PathError) return { invocationMessage: `Pincer will refuse ${code(command)}: ${e.message}` };
    throw e;
  }
  const s = deps.exec.store;
  const readOnlyStore: ApprovalStore = {
    list: () => s.list(), touch: async () => undefined,
    add: (entry, example) => s.add(entry, example), update: (id, args) => s.update(id, args), remove: (id) => s.remove(id),
  };
  const d = await decide({ policy: deps.exec.policy, guard: deps.guard, store: readOnlyStore, approvalTimeoutMs: 0, home: deps.exec.home }, {
    command, cwd, host: deps.exec.host, sessionKey: 'lm-prepare', agentId: 'default', signal: new AbortController().signal,
  });
  const parts = (d.verdict?.segments ?? []).map((s) => `- ${s.decision}: ${code(s.segment.argv.map((w) => w.text).join(' '))}${s.decision === 'allow' ? '' : ` — ${s.reason}`}`);
  const detail = parts.length > 1 ? `\n\n${parts.join('\n')}` : '';
  if (d.kind === 'run') return { invocationMessage: `Running ${code(command)} (Pincer's judge allows it: ${d.verdict.reason})${detail}` };
  if (d.by === 'nobody') return { invocationMessage: `${code(command)} needs your approval in Pincer's prompt: ${d.verdict?.reason ?? d.message}${detail}` };
  return { invocationMessage: `Pincer will refuse ${code(command)}: ${d.message}${detail}` };
}

/** The files an edit touches with lines removed and added, as far as the arguments tell. */
function editSummary(tool: string, args: Args): { files: string[]; summary: string } | undefined {
  if (tool === 'write_file') return { files: [str(args.path)], summary: `write ${str(args.path)} (${lines(str(args.content))} lines; replaces the file if it exists)` };
  if (tool === 'edit') {
    const edits = Array.isArray(args.edits) ? (args.edits as Args[]) : [{ old_string: args.old_string, new_string: args.new_string }];
    const minus = edits.reduce((n, e) => n + lines(str(e.old_string)), 0);
    const plus = edits.reduce((n, e) => n + lines(str(e.new_string)), 0);
    return { files: [str(args.path)], summary: `edit ${str(args.path)}: ${edits.length} replacement(s), −${minus} +${plus} lines` };
  }
  if (tool === 'apply_patch') {
    const parsed = parsePatch(str(args.input));
    if (!parsed.ok) return undefined;
    const each = parsed.ops.map((op) => {
      if (op.kind === 'add') return { file: op.path, text: `add ${op.path} (+${lines(op.content)} lines)` };
      if (op.kind === 'delete') return { file: op.path, text: `delete ${op.path}` };
      const hl = op.hunks.flatMap((h) => h.lines);
      const moved = op.moveTo ? ` → ${op.moveTo}` : '';
      return { file: op.path, text: `update ${op.path}${moved} (−${hl.filter((l) => l.op === '-').length} +${hl.filter((l) => l.op === '+').length} lines)` };
    });
    return { files: each.map((e) => e.file), summary: each.map((e) => e.text).join('; ') };
  }
  return undefined;
}

async function editMessage(tool: string, args: Args, deps: LmPrepareDeps): Promise<LmPrepared> {
  const s = editSummary(tool, args);
  if (!s) return { invocationMessage: `Pincer: ${tool}` };
  let reviewed = false;
  for (const f of s.files) {
    try {
      const p = await deps.guard.resolve(f, 'write');
      if (needsReview({ tool, path: p, before: undefined, after: undefined }, deps.review)) reviewed = true;
    } catch (e) {
      if (e instanceof PathError) return { invocationMessage: `Pincer will refuse to ${s.summary}: ${e.message}` };
      throw e;
    }
  }
  if (reviewed) return { invocationMessage: `Proposing to ${s.summary}; review it in Pincer's diff` };
  return {
    invocationMessage: `Pincer: ${s.summary}`,
    confirmation: { title: `Let Pincer ${s.summary.split(' ')[0]} without review?`, message: `Pincer will ${s.summary}. Your pincer.edits.review settings let this change land without a diff review.` },
  };
}

const QUIET_PROCESS_ACTIONS = ['list', 'poll', 'log'];

export async function prepareLmCall(tool: string, input: unknown, deps: LmPrepareDeps): Promise<LmPrepared> {
  const args = (input && typeof input === 'object' ? input : {}) as Args;
  if (tool === 'exec') return commandMessage(str(args.command), str(args.workdir), deps);
  if (tool === 'edit' || tool === 'write_file' || tool === 'apply_patch') return editMessage(tool, args, deps);
  if (tool === 'process') {
    const action = str(args.action);
    const what = `process ${action}${args.id ? ` ${str(args.id)}` : ''}`;
    if (QUIET_PROCESS_ACTIONS.includes(action)) return { invocationMessage: `Pincer: ${what}` };
    return { invocationMessage: `Pincer: ${what}`, confirmation: { title: `Let Pincer ${action} a running job?`, message: `Pincer will run ${code(what)}: it acts on a job a command started.` } };
  }
  const target = str(args.path ?? args.pattern ?? args.query ?? args.id);
  const line = `Pincer: ${tool}${target ? ` ${code(target)}` : ''}`;
  if (deps.capability === 'read-only') return { invocationMessage: line };
  return { invocationMessage: line, confirmation: { title: `Let Pincer run ${tool}?`, message: `${line} changes something outside a diff review or approval.` } };
}
