// The webview's side of the host connection: every outgoing message is checked against the
// protocol before it leaves (a bug here shows in the console, not as a message the host refuses),
// and the view's saved state (restored when the view is hidden and shown again).
import { contextChip, parseToHost, type ContextChip, type ToHost } from '../../src/core/chat/chat-protocol';
import type { ScrollAnchor } from './transcript';

interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(m: ToHost): void {
  const r = parseToHost(m);
  if (!r.ok) {
    console.error(`chat: not sent (${r.error})`);
    return;
  }
  api.postMessage(r.message);
}

/** What survives the page being thrown away while the view is hidden. The host re-sends the rest (init). */
export interface SavedState {
  v: 1;
  draft: string;
  /** The chips the person added (@file mentions); the editor's come back with init. */
  chips: ContextChip[];
  sessionKey?: string;
  /** Where the transcript of `sessionKey` was scrolled to (none: at the bottom). */
  position?: ScrollAnchor;
  sessionsOpen: boolean;
}

export function loadState(): SavedState | undefined {
  const s = api.getState() as Partial<SavedState> | undefined;
  if (!s || s.v !== 1) return undefined;
  return {
    v: 1,
    draft: typeof s.draft === 'string' ? s.draft : '',
    chips: Array.isArray(s.chips) ? s.chips.filter((c) => contextChip.safeParse(c).success) : [],
    sessionKey: typeof s.sessionKey === 'string' ? s.sessionKey : undefined,
    position: typeof s.position?.id === 'string' && Number.isFinite(s.position.offset) ? { id: s.position.id, offset: s.position.offset } : undefined,
    sessionsOpen: s.sessionsOpen === true,
  };
}

let pending: (() => SavedState) | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Saves soon (debounced: streaming and typing call this often), or at once with `now`. */
export function saveState(snapshot: () => SavedState, now = false): void {
  pending = snapshot;
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (now) flushState();
  else timer = setTimeout(flushState, 200);
}

export function flushState(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (pending) api.setState(pending());
  pending = undefined;
}
