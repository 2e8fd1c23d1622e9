// Claude Code's PreToolUse hook, as its hooks reference documents it. The event on stdin carries
// `hook_event_name`, `cwd`, `tool_name` and `tool_input` (with session_id, transcript_path,
// permission_mode and tool_use_id beside them); the project folder is also in $CLAUDE_PROJECT_DIR.
// The answer is exit code 0 with
//   {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"ask"|"deny",
//    "permissionDecisionReason": "…"}}
// ("allow" skips Claude Code's prompt, "ask" shows it with the reason, "deny" refuses and tells
// Claude why), or exit 0 with nothing printed to leave the call to Claude Code's own rules.
//   Bash → the command through Pincer's exec decision: allow, ask or deny.
//   Read, Write, Edit, MultiEdit, NotebookEdit, and Grep/Glob with a path → the path guard. It only
//   denies: a path it accepts gets no decision, so Claude Code still confirms edits as it would.
import { z } from 'zod';
import type { HookChecks, HookVerdict } from './hook-checks';
import { readEvent, type HookAnswer, type HookFormat } from './hook-format';

const event = z.object({
  hook_event_name: z.string(),
  cwd: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
});

type PathAccess = 'read' | 'write' | 'list';

/** Which field of each file tool's input is the path, and what the tool does there. */
const PATH_TOOLS: Readonly<Record<string, { field: string; access: PathAccess }>> = {
  Read: { field: 'file_path', access: 'read' },
  Write: { field: 'file_path', access: 'write' },
  Edit: { field: 'file_path', access: 'write' },
  MultiEdit: { field: 'file_path', access: 'write' },
  NotebookEdit: { field: 'notebook_path', access: 'write' },
  Grep: { field: 'path', access: 'list' },
  Glob: { field: 'path', access: 'list' },
};

function decision(v: HookVerdict): HookAnswer {
  return {
    code: 0,
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: v.decision, permissionDecisionReason: v.reason } }),
  };
}

const NO_OPINION: HookAnswer = { code: 0 };

async function answer(e: z.infer<typeof event>, checks: HookChecks, workspace: string | undefined): Promise<HookAnswer> {
  if (e.hook_event_name !== 'PreToolUse') return NO_OPINION;
  const input = e.tool_input ?? {};
  if (e.tool_name === 'Bash') {
    const command = input.command;
    if (typeof command !== 'string') return decision({ decision: 'deny', reason: 'Pincer: the Bash call has no command to judge.' });
    return decision(await checks.command(command, e.cwd ?? workspace ?? process.cwd()));
  }
  const tool = e.tool_name ? PATH_TOOLS[e.tool_name] : undefined;
  if (!tool) return NO_OPINION;
  const file = input[tool.field];
  // Grep and Glob without a path search the working folder, which is Claude Code's to judge.
  if (file === undefined && tool.access === 'list') return NO_OPINION;
  if (typeof file !== 'string') return decision({ decision: 'deny', reason: `Pincer: the ${e.tool_name} call has no ${tool.field} to check.` });
  // The guard has no separate "list" answer for a single path: a folder searched is read.
  const v = await checks.path(file, tool.access === 'list' ? 'read' : tool.access);
  return v.decision === 'allow' ? NO_OPINION : decision(v);
}

export const claudeCodeHook: HookFormat = (stdin, env) => {
  const e = readEvent(stdin, event, 'Claude Code');
  const workspace = env.CLAUDE_PROJECT_DIR || e.cwd;
  return { workspace, answer: (checks) => answer(e, checks, workspace) };
};
