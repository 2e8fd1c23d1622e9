// What the session tools share: the store (the workspace database may be unavailable). The refusals
// the store raises (another agent's session, an unknown one) are SessionErrors, which the pipeline
// turns into results the model can act on.
import { fail, type ToolResult } from '../../tools/types';
import type { SessionStore } from '../session-store';

const NO_SESSIONS = 'Sessions are not available: the workspace database could not be opened.';

/** Runs `body` with the store, or answers why it cannot. */
export async function withSessions(store: () => Promise<SessionStore | undefined>, body: (s: SessionStore) => Promise<ToolResult>): Promise<ToolResult> {
  const s = await store();
  return s ? body(s) : fail(NO_SESSIONS);
}
