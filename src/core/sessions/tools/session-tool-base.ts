// What the session tools share: the store (the workspace database may be unavailable) and the
// refusals the store raises (another agent's session, an unknown one), turned into results the
// model can act on.
import { fail, type ToolResult } from '../../tools/types';
import { SessionError, type SessionStore } from '../session-store';

export const NO_SESSIONS = 'Sessions are not available: the workspace database could not be opened.';

/** Runs `body` with the store, or answers why it cannot; SessionErrors become error results. */
export async function withSessions(store: () => Promise<SessionStore | undefined>, body: (s: SessionStore) => Promise<ToolResult>): Promise<ToolResult> {
  const s = await store();
  if (!s) return fail(NO_SESSIONS);
  try {
    return await body(s);
  } catch (e) {
    if (e instanceof SessionError) return fail(e.message);
    throw e;
  }
}
