// The chat view's message protocol: what the host (the WebviewViewProvider running the agent loop)
// posts to the webview and what the webview posts back. Both sides validate everything they receive
// with parseToWebview / parseToHost: the webview is a browser page that renders model output, so the
// host treats its messages as untrusted input, and the webview refuses anything the host would never
// send. Shapes of the pieces (messages, tool cards, chips, caps) are in chat-protocol-parts.ts.
//
// The conversation, in order:
//   webview `ready` → host `init` (and again after the view was hidden and shown: the page is new).
//   `send` → host `assistant-start` → `text-delta`* / `tool-call`* / `approval` / `review` … → `turn-end`.
//   The webview shows the person's message itself when it sends it; the host does not echo it.
//   A turn still running when `init` or `session` is sent is replayed through `live` (the same
//   events, text deltas may be coalesced), so a re-opened view shows it as it is.
//
// What the host side owes the page:
//   - the page from chat-html.ts (its CSP), localResourceRoots = dist/webview;
//   - `session` shows exactly what it carries: when a `send` creates or switches the session, post
//     `sessions` and `session` (with the person's message stored in it) before `assistant-start`;
//   - every `turnId` it streams starts with `assistant-start` (naming the session) and ends with
//     `turn-end`; a `send` refused before any turn started is answered with `error`;
//   - `delete-session` is confirmed natively (a webview cannot show a dialog); `open-link` goes to
//     vscode.env.openExternal (VS Code's own link protection); `copy-code` to vscode.env.clipboard;
//   - `approve` / `review` answer the same pending request the native prompt shows, and the host
//     posts `approval-settled` / `review-settled` however it was answered (here, natively, timeout);
//   - `load-older`.before is the id of the oldest message the page has (chat-history.ts: chatIdSeq).
import * as z from 'zod/mini';
import {
  agentChoice, approvalAnswer, handedTo, handoffButton, approvalPart, capped, CHAT_LIMITS as L, chatMessage, contextChip, count, idString, list,
  localServer, mentionItem, modelChoice, pastedImage, reviewAction, reviewOutcome, sessionPage, sessionSummary, subagentCard, toolCallView, turnStopReason, usage, webUrl,
} from './chat-protocol-parts';

export * from './chat-protocol-parts';

const msg = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.strictObject({ type: z.literal(type), ...shape });

// ---- host → webview: the events of a running turn (also replayed through `live`) ----

const assistantStart = msg('assistant-start', { turnId: idString, sessionKey: idString });
const textDelta = msg('text-delta', { turnId: idString, text: capped(L.delta) });
const toolCall = msg('tool-call', { turnId: idString, call: toolCallView });
/** A command waiting for the person (the same request the native prompt shows). */
const approval = msg('approval', {
  id: idString,
  turnId: z.optional(idString),
  command: capped(L.command),
  cwd: capped(L.path),
  /** Where it runs: 'terminal', 'process', 'sandbox', 'devcontainer'. */
  host: capped(L.label),
  reason: capped(L.sentence),
  parts: list(approvalPart, L.parts),
  alwaysOffered: z.boolean(),
  /** Why "Always allow" is not offered, when it is not. */
  alwaysUnavailable: z.optional(capped(L.sentence)),
  /** The subagent that asks, when a child of the turn raised it. */
  from: z.optional(capped(L.sentence)),
});
const approvalSettled = msg('approval-settled', { id: idString, answer: approvalAnswer, note: z.optional(capped(L.sentence)) });
/** An edit proposal waiting in the diff editor. */
const review = msg('review', {
  id: idString,
  turnId: z.optional(idString),
  path: z.string().check(z.minLength(1), z.maxLength(L.path)),
  summary: capped(L.sentence),
  added: count,
  removed: count,
});
const reviewSettled = msg('review-settled', { id: idString, outcome: reviewOutcome });
/**
 * A child agent's card, new or changed: the page updates the card with this id where it is, or adds it
 * to the turn `turnId` when that turn is on screen (a child of another turn or session is not drawn).
 */
const subagent = msg('subagent', { turnId: z.optional(idString), child: subagentCard });

const liveEvent = z.discriminatedUnion('type', [assistantStart, textDelta, toolCall, approval, approvalSettled, review, reviewSettled, subagent]);

// ---- host → webview: the rest ----

const init = msg('init', {
  sessions: list(sessionSummary, L.sessions),
  /** The session on screen; null before the first one exists. */
  session: z.nullable(sessionPage),
  models: list(modelChoice, L.choices),
  agents: list(agentChoice, L.choices),
  model: z.optional(idString),
  agent: z.optional(idString),
  /** The host's chips (the current file, the selection): `origin: 'editor'`. */
  chips: list(contextChip, L.chips),
  live: z.optional(list(liveEvent, L.liveEvents)),
});
const session = msg('session', { session: sessionPage, live: z.optional(list(liveEvent, L.liveEvents)) });
const older = msg('older', { key: idString, messages: list(chatMessage, L.messagesPerPage), hasOlder: z.boolean() });
/** No usage when the turn never reached a model (it failed before): the footer then shows none. */
const turnEnd = msg('turn-end', {
  turnId: idString, usage: z.optional(usage), stopReason: turnStopReason, message: z.optional(capped(L.sentence)),
  /** The answering agent's handoffs, shown as buttons under its answer. */
  handoffs: z.optional(list(handoffButton, 10)),
});
/** A handoff was taken: its prompt goes into the input (and is sent as the person's message when `send`). */
const prefill = msg('prefill', { text: capped(L.sendText), send: z.boolean() });
/** Who has session `key` now changed (a handoff, `handoff clear`, a button taken): the header names it, or no one when it is back. */
const handed = msg('handed', { key: idString, to: z.optional(handedTo) });
const sessions = msg('sessions', { sessions: list(sessionSummary, L.sessions), current: z.optional(idString) });
const pickers = msg('pickers', {
  models: list(modelChoice, L.choices), agents: list(agentChoice, L.choices), model: z.optional(idString), agent: z.optional(idString),
});
/** The editor's chips changed (another file, another selection): they replace the `origin: 'editor'` ones. */
const context = msg('context', { chips: list(contextChip, L.chips) });
/** Chips the host attaches for the person (an MCP resource from the MCP Servers view): added to the composer's. */
const attach = msg('attach', { chips: list(contextChip, L.chips) });
/** Images the host read for the person (image files dropped from VS Code's Explorer): added to the composer's like pasted ones. */
const attachImages = msg('attach-images', { images: list(pastedImage, L.images) });
const mentionResults = msg('mention-results', { prefix: capped(L.mentionPrefix), items: list(mentionItem, L.mentionResults) });
/** Shown as an alert. With the turnId of a turn that never started, it also ends that wait. */
const error = msg('error', { message: capped(L.sentence), turnId: z.optional(idString) });
/**
 * The message could not be sent because no model is available: the first-run card with its actions
 * (the local servers found on this machine among them). It also ends the wait for a turn.
 */
const setup = msg('setup', { servers: list(localServer, 10) });

export const toWebviewSchema = z.discriminatedUnion('type', [
  init, session, older, assistantStart, textDelta, toolCall, approval, approvalSettled, review, reviewSettled, subagent,
  turnEnd, sessions, pickers, context, attach, attachImages, mentionResults, error, setup, prefill, handed,
]);

// ---- webview → host ----

const code = capped(L.text);
export const toHostSchema = z.discriminatedUnion('type', [
  msg('ready', {}),
  // A message is text, images, or both: an image alone ("what is wrong here?" left unsaid) is a question too.
  msg('send', { text: z.string().check(z.maxLength(L.sendText)), chips: list(contextChip, L.chips), images: z.optional(list(pastedImage, L.images)) })
    .check(z.refine((m) => m.text.length > 0 || (m.images?.length ?? 0) > 0, { path: ['text'], error: 'empty (a message needs text or an image)' })),
  msg('stop', {}),
  msg('new-session', {}),
  msg('switch-session', { key: idString }),
  msg('rename-session', { key: idString, title: z.string().check(z.minLength(1), z.maxLength(L.label)) }),
  msg('delete-session', { key: idString }),
  /** The next page of earlier messages: those before the message `before` (the oldest one shown). */
  msg('load-older', { key: idString, before: idString }),
  msg('pick-model', { id: idString }),
  msg('pick-agent', { id: idString }),
  msg('approve', { id: idString, answer: approvalAnswer }),
  msg('review', { id: idString, action: reviewAction }),
  msg('copy-code', { text: code }),
  msg('insert-code', { text: code }),
  msg('open-code', { text: code, language: capped(100) }),
  msg('open-link', { url: webUrl }),
  /** `@pre` typed in the input: the host answers with `mention-results` for the same prefix. */
  msg('mention-query', { prefix: capped(L.mentionPrefix) }),
  /** A first-run card's button: use VS Code's models, connect a local server, set an API key. */
  msg('setup-action', { action: z.enum(['vscode-lm', 'local', 'api-key']) }),
  /** A child card's Stop (cancels that child and its own children) and Open Transcript buttons. */
  msg('subagent-stop', { id: idString }),
  msg('subagent-open', { id: idString }),
  /** A handoff button under an answer: the host finds it in the answering agent's definition by agent and label. */
  msg('handoff', { agent: idString, label: z.string().check(z.minLength(1), z.maxLength(100)) }),
  /**
   * Resources dropped on the page from VS Code (the Explorer, an editor tab), by URI: the host attaches
   * image files as images (`attach-images`), other files as file chips (`attach`), and says why it refused any.
   */
  msg('drop-uris', { uris: list(z.string().check(z.minLength(1), z.maxLength(L.path)), L.chips) }),
]);

export type ToWebview = z.infer<typeof toWebviewSchema>;
export type ToHost = z.infer<typeof toHostSchema>;
export type LiveEvent = z.infer<typeof liveEvent>;
/** One message type of either direction by its `type`: `MessageOf<ToHost, 'send'>`. */
export type MessageOf<U extends { type: string }, T extends U['type']> = Extract<U, { type: T }>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

/** One issue in words (zod/mini ships no messages; the value itself is never echoed). */
function issueText(i: z.core.$ZodIssue): string {
  switch (i.code) {
    case 'invalid_type': return `expected ${i.expected}`;
    case 'too_big': return `too ${i.origin === 'string' ? 'long' : i.origin === 'array' ? 'many' : 'big'} (at most ${i.maximum})`;
    case 'too_small': return `too ${i.origin === 'string' ? 'short' : i.origin === 'array' ? 'few' : 'small'} (at least ${i.minimum})`;
    case 'unrecognized_keys': return `unknown key${i.keys.length > 1 ? 's' : ''} ${i.keys.slice(0, 3).map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`;
    case 'invalid_value': return 'not an allowed value';
    case 'invalid_union': return 'not a known message type';
    case 'custom': return i.message;
    case 'invalid_format': return i.format === 'regex' ? 'not in the expected form' : `not a valid ${i.format}`;
    default: return i.code;
  }
}

function describe(issues: readonly z.core.$ZodIssue[]): string {
  return issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${issueText(i)}`).join('; ');
}

function parse<T>(schema: z.ZodMiniType<T>, x: unknown): Parsed<T> {
  const r = schema.safeParse(x);
  return r.success ? { ok: true, message: r.data } : { ok: false, error: `not a chat message: ${describe(r.error.issues)}` };
}

/** What the host does with a message from the webview: the typed message, or why it was refused. */
export function parseToHost(x: unknown): Parsed<ToHost> {
  return parse(toHostSchema, x);
}

/** What the webview does with a message from the host. */
export function parseToWebview(x: unknown): Parsed<ToWebview> {
  return parse(toWebviewSchema, x);
}
