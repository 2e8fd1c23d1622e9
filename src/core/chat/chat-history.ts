// Stored session messages (the agent loop's ModelMessages, as SessionStore keeps them) as the chat
// view shows them: the person's and the assistant's text, and one tool card per call with its result
// joined in from the tool message that answered it. Texts are cut to the protocol's caps, so a page
// built here always passes parseToWebview. Ids carry the stored `seq` (`m12`, `m12:t0`), which is
// what the host needs back from `load-older`. The session's marks (what the chat showed beside the
// messages: tool durations, settled approval and review cards, turn footers) are joined in where they
// were made, so a reloaded transcript shows what it showed before.
import type { ModelMessage } from '../agent/model-types';
import { thumbnailOf } from '../media/image-part';
import type { SessionMark } from '../sessions/session-store';
import { CHAT_LIMITS, settledApproval, settledReview, toolStatus, turnFooter, type ChatMessage, type SubagentCardView, type ToolCallView } from './chat-protocol-parts';

export interface HistoryOptions {
  /** Characters of a tool call's arguments on its card (2,000). */
  argsChars?: number;
  /** Characters of a tool result on its card (4,000). */
  resultChars?: number;
  /** A child agent's card as it stands now, for a `subagent` mark (which keeps only where it was shown). */
  subagentCard?: (id: string) => SubagentCardView | undefined;
  /**
   * Base64 characters of thumbnails one page carries at most (4 million: about 90 large images' small
   * copies); past them, older messages name their images without one, the newest keep theirs.
   */
  thumbnailChars?: number;
}

/** Drops the thumbnails of the older user messages once the newer ones have used up `budget`. */
function capThumbnails(messages: ChatMessage[], budget: number): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || !m.thumbnails) continue;
    budget -= m.thumbnails.reduce((n, t) => n + (t?.data.length ?? 0), 0);
    if (budget < 0) delete m.thumbnails;
  }
}

/** `s` cut to `max` characters, with the cut said. */
export function preview(s: string, max: number): string {
  if (s.length <= max) return s;
  const note = `… (${(s.length - max).toLocaleString('en')} more characters)`;
  return s.slice(0, Math.max(0, max - note.length)) + note;
}

function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return String(args);
  }
}

const textOf = (m: ModelMessage) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

/** The stored `seq` inside an id made here, or undefined for another id. */
export function chatIdSeq(id: string): number | undefined {
  const m = /^m(\d{1,15})(?::[a-z]\d+)?$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** A stored mark as a transcript entry, or undefined when it is not one (or not valid any more). */
function markMessage(mark: SessionMark, id: string, o: HistoryOptions): ChatMessage | undefined {
  if (mark.kind === 'approval') {
    const r = settledApproval.safeParse(mark.data);
    return r.success ? { role: 'approval', id, approval: r.data } : undefined;
  }
  if (mark.kind === 'review') {
    const r = settledReview.safeParse(mark.data);
    return r.success ? { role: 'review', id, review: r.data } : undefined;
  }
  if (mark.kind === 'subagent') {
    const childId = (mark.data as { id?: unknown } | null)?.id;
    const child = typeof childId === 'string' ? o.subagentCard?.(childId) : undefined;
    return child && { role: 'subagent', id, child };
  }
  if (mark.kind === 'turn-end') {
    // The mark also names the agent that answered (lastAnswerBy), which the footer does not show.
    const { agent: _agent, ...footer } = (mark.data ?? {}) as Record<string, unknown>;
    const r = turnFooter.safeParse(footer);
    return r.success ? { role: 'turn-end', id, end: r.data } : undefined;
  }
  return undefined;
}

/**
 * Who gave the last answer on a page whose last message is `lastSeq`, when its turn ended normally and
 * nothing was stored after it (so its handoff buttons belong under it): the agent its turn-end mark
 * names, or null for a mark made before marks named one. Undefined when the last turn did not end
 * normally (stopped, failed, cut off by a closed window) or another message followed it.
 */
export function lastAnswerBy(marks: readonly SessionMark[], lastSeq: number): string | null | undefined {
  const end = [...marks].reverse().find((m) => m.kind === 'turn-end');
  const d = end?.data as { stopReason?: unknown; agent?: unknown } | null | undefined;
  if (!end || end.seq !== lastSeq || d?.stopReason !== 'end') return undefined;
  return typeof d.agent === 'string' ? d.agent : null;
}

/** A tool mark's facts (duration, a denial the result text alone does not carry) on its card. */
function applyToolMark(cards: Map<string, ToolCallView>, data: unknown): void {
  const d = data as { callId?: unknown; durationMs?: unknown; status?: unknown } | null;
  const card = typeof d?.callId === 'string' ? cards.get(d.callId) : undefined;
  if (!card) return;
  if (typeof d?.durationMs === 'number' && d.durationMs >= 0 && d.durationMs <= CHAT_LIMITS.durationMs) card.durationMs = d.durationMs;
  const status = toolStatus.safeParse(d?.status);
  if (status.success && status.data !== 'running') card.status = status.data;
}

export function toChatMessages(messages: readonly (ModelMessage & { seq: number })[], o: HistoryOptions = {}, marks: readonly SessionMark[] = []): ChatMessage[] {
  const argsChars = Math.min(o.argsChars ?? 2000, CHAT_LIMITS.preview);
  const resultChars = Math.min(o.resultChars ?? 4000, CHAT_LIMITS.preview);
  const out: ChatMessage[] = [];
  const cards = new Map<string, ToolCallView>();
  const toolMarks: unknown[] = [];
  const bySeq = new Map<number, SessionMark[]>();
  for (const mark of marks) {
    if (mark.kind === 'tool') toolMarks.push(mark.data);
    else bySeq.set(mark.seq, [...(bySeq.get(mark.seq) ?? []), mark]);
  }
  const cardsShown = new Set<string>();
  const placeMarks = (seq: number) => (bySeq.get(seq) ?? []).forEach((mark, i) => {
    const entry = markMessage(mark, `m${seq}:k${i}`, o);
    // A child resumed while its parent's session ran again is marked twice: it keeps its first place.
    if (entry?.role === 'subagent') {
      if (cardsShown.has(entry.child.id)) return;
      cardsShown.add(entry.child.id);
    }
    if (entry) out.push(entry);
  });
  for (const m of messages) {
    const id = `m${m.seq}`;
    if (m.role === 'user') {
      const text = textOf(m);
      const parts = m.parts.flatMap((p) => (p.type === 'image' ? [p] : [])).slice(0, CHAT_LIMITS.images);
      const images = parts.map((p) => preview(p.source, CHAT_LIMITS.sentence));
      // Each image's thumbnail, or null: the page then says it was too large to keep one.
      const thumbnails = parts.map((p) => thumbnailOf(p) ?? null);
      if (text || images.length) out.push({ role: 'user', id, text: preview(text, CHAT_LIMITS.text), ...(images.length ? { images, thumbnails } : {}) });
    } else if (m.role === 'assistant') {
      const text = textOf(m);
      if (text) out.push({ role: 'assistant', id, text: preview(text, CHAT_LIMITS.text) });
      let i = 0;
      for (const p of m.parts) {
        if (p.type !== 'tool-call') continue;
        const call: ToolCallView = {
          callId: p.id.slice(0, CHAT_LIMITS.id) || `call-${m.seq}-${i}`,
          name: p.name.slice(0, CHAT_LIMITS.label) || 'tool',
          args: preview(argsText(p.args), argsChars),
          status: 'running',
        };
        cards.set(p.id, call);
        out.push({ role: 'tool', id: `${id}:t${i++}`, call });
      }
    } else if (m.role === 'tool') {
      for (const p of m.parts) {
        if (p.type !== 'tool-result') continue;
        const card = cards.get(p.id);
        if (!card) continue;
        card.status = p.isError ? 'error' : 'ok';
        card.result = preview(p.content, resultChars);
      }
    }
    placeMarks(m.seq);
  }
  for (const data of toolMarks) applyToolMark(cards, data);
  // A call whose result never arrived (the turn was cut off) must not spin forever on its card.
  for (const card of cards.values()) {
    if (card.status !== 'running') continue;
    card.status = 'error';
    card.result = 'No result was recorded for this call.';
  }
  capThumbnails(out, o.thumbnailChars ?? 4_000_000);
  return out;
}
