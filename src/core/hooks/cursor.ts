// Cursor's agent hooks (.cursor/hooks.json), as Cursor documents them. Every event on stdin carries
// `hook_event_name` and `workspace_roots`; the two Pincer answers are
//   beforeShellExecution {command, cwd} → {"permission": "allow"|"ask"|"deny", "user_message", "agent_message"}
//     from Pincer's exec decision;
//   beforeReadFile {file_path} → {"permission": "allow"|"deny"} from the path guard (reads have no "ask").
// Other events get no answer (nothing printed), which leaves them to Cursor.
import { z } from 'zod';
import type { HookChecks } from './hook-checks';
import { readEvent, type HookAnswer, type HookFormat } from './hook-format';

const event = z.object({
  hook_event_name: z.string(),
  workspace_roots: z.array(z.string()).optional(),
  command: z.string().optional(),
  cwd: z.string().optional(),
  file_path: z.string().optional(),
});

const print = (o: Record<string, unknown>): HookAnswer => ({ code: 0, stdout: JSON.stringify(o) });

async function answer(e: z.infer<typeof event>, checks: HookChecks, workspace: string | undefined): Promise<HookAnswer> {
  if (e.hook_event_name === 'beforeShellExecution') {
    if (e.command === undefined) return print({ permission: 'deny', user_message: 'Pincer: the event has no command to judge.', agent_message: 'Pincer: the event has no command to judge.' });
    const v = await checks.command(e.command, e.cwd || workspace || process.cwd());
    return print({ permission: v.decision, user_message: v.reason, agent_message: v.reason });
  }
  if (e.hook_event_name === 'beforeReadFile') {
    if (e.file_path === undefined) return print({ permission: 'deny' });
    return print({ permission: (await checks.path(e.file_path, 'read')).decision === 'allow' ? 'allow' : 'deny' });
  }
  return { code: 0 };
}

export const cursorHook: HookFormat = (stdin) => {
  const e = readEvent(stdin, event, 'Cursor');
  const workspace = e.workspace_roots?.[0] ?? e.cwd;
  return { workspace, answer: (checks) => answer(e, checks, workspace) };
};
