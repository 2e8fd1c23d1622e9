// The pieces the chat protocol's messages are made of: messages of a session, tool-call cards,
// approval and review prompts, pickers, context chips. Written with zod/mini so the webview bundle
// stays small (zod/mini ~14 KB minified against ~450 KB for the full `zod` import) and free of node
// imports: the host and the webview import this same file.
//
// Every object is strict (an unknown key, `__proto__` or `constructor` included, is an error) and
// every string and array has a cap: a message either fits the protocol or is refused whole.
import * as z from 'zod/mini';
import { THUMBNAIL_LIMITS } from '../media/image-part';

/** The caps. A host that has more (a longer text, more sessions) pages or shortens before sending. */
export const CHAT_LIMITS = Object.freeze({
  id: 200,
  /** Session titles, model and agent names, labels. */
  label: 500,
  path: 4096,
  /** Reasons, summaries, error messages, descriptions. */
  sentence: 4000,
  /** A whole message's text (user or assistant) and the text of a code block. */
  text: 1_000_000,
  /** What the person may send in one message. */
  sendText: 200_000,
  /** A chip's attached text (a selection). */
  chipText: 200_000,
  /** One streamed piece: a host with more splits it into several deltas. */
  delta: 65_536,
  /** Tool arguments and results as shown on a card (already shortened and scrubbed by the host). */
  preview: 20_000,
  command: 20_000,
  messagesPerPage: 5000,
  sessions: 10_000,
  choices: 1000,
  chips: 50,
  parts: 200,
  mentionResults: 200,
  mentionPrefix: 500,
  /** Events replayed for a turn that is still running (init / session). */
  liveEvents: 5000,
  count: Number.MAX_SAFE_INTEGER,
  durationMs: 1e9,
  /** Images pasted or dropped into one message, and the bytes of each (the host then shrinks it to what models take). */
  images: 4,
  imageBytes: 20_000_000,
});

const L = CHAT_LIMITS;

export const capped = (max: number) => z.string().check(z.maxLength(max));
export const idString = z.string().check(z.minLength(1), z.maxLength(L.id));
export const count = z.number().check(z.int(), z.gte(0), z.lte(L.count));
export const list = <T extends z.core.SomeType>(item: T, max: number) => z.array(item).check(z.maxLength(max));

/**
 * A file, a selection or an MCP server's resource the person attaches to a message. A resource's
 * `path` is its URI, `server` the server it came from, and `text` what the host read of it.
 */
export const contextChip = z.strictObject({
  kind: z.enum(['file', 'selection', 'resource']),
  path: z.string().check(z.minLength(1), z.maxLength(L.path)),
  server: z.optional(capped(L.label)),
  /** 1-based, inclusive line numbers of a selection. */
  range: z.optional(z.strictObject({ startLine: count, endLine: count })),
  /** The selected text, or the resource's, when the host attaches it. */
  text: z.optional(capped(L.chipText)),
  /** 'editor': follows the active editor (the host replaces it with `context`); 'user': picked by the person. */
  origin: z.optional(z.enum(['editor', 'user'])),
});

export const toolStatus = z.enum(['running', 'ok', 'error', 'denied']);

/** One tool call as its card shows it. Arguments and result are previews the host already scrubbed. */
export const toolCallView = z.strictObject({
  callId: idString,
  name: z.string().check(z.minLength(1), z.maxLength(L.label)),
  args: capped(L.preview),
  status: toolStatus,
  durationMs: z.optional(z.number().check(z.gte(0), z.lte(L.durationMs))),
  result: z.optional(capped(L.preview)),
  /** How far a running call got ("2 of 4 — copying"), from its progress reports. */
  progress: z.optional(capped(L.label)),
});

/** A session in the list. */
export const sessionSummary = z.strictObject({
  key: idString,
  title: capped(L.label),
  /** Epoch milliseconds. */
  updatedAt: count,
  messageCount: count,
  agentId: z.optional(idString),
});

export const modelChoice = z.strictObject({
  id: idString,
  name: capped(L.label),
  /** Where it comes from: 'Copilot', 'OpenAI-compatible (http://localhost:11434/v1)', 'Anthropic'. */
  source: capped(L.label),
});

export const agentChoice = z.strictObject({
  id: idString,
  name: capped(L.label),
  description: z.optional(capped(L.sentence)),
});

export const usage = z.strictObject({
  input: count,
  output: count,
  cached: count,
  costUsd: z.optional(z.number().check(z.gte(0), z.lte(1e9))),
});

/** A subagent's status, as the card and the Subagents view show it (see core/subagents/types.ts). */
export const subagentStatus = z.enum(['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted', 'stalled']);

/**
 * A child agent's card inside its parent's turn: what it was asked, how it stands, what it costs, its
 * latest tool calls while it runs and its answer once it finished (previews, already scrubbed).
 */
export const subagentCard = z.strictObject({
  id: idString,
  label: z.optional(capped(L.label)),
  agentId: idString,
  task: capped(L.sentence),
  status: subagentStatus,
  depth: count,
  usage,
  durationMs: z.number().check(z.gte(0), z.lte(L.durationMs)),
  /** Its latest tool calls (the card keeps the last few; the transcript has them all). */
  tools: list(z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(L.label)), args: capped(L.label), status: toolStatus }), 20),
  result: z.optional(capped(L.preview)),
});

export const approvalPart = z.strictObject({
  /** The segment as a person reads it (`rm -rf build`). */
  text: capped(L.command),
  decision: z.enum(['allow', 'ask', 'deny']),
  reason: capped(L.sentence),
  group: z.optional(capped(L.label)),
});

export const approvalAnswer = z.enum(['once', 'always', 'deny']);
export const reviewAction = z.enum(['accept', 'reject', 'open']);
export const reviewOutcome = z.enum(['accepted', 'accepted-with-changes', 'rejected', 'cancelled']);

export const turnStopReason = z.enum(['end', 'max-iterations', 'loop', 'cancelled', 'budget', 'error', 'length', 'content-filter']);

/**
 * A next step the answering agent's definition offers (a Copilot custom agent's `handoffs`), as a
 * button under its answer: the chat goes to `agent`, with `prompt` written in (sent when `send`).
 */
export const handoffButton = z.strictObject({
  label: z.string().check(z.minLength(1), z.maxLength(100)),
  agent: idString,
  agentName: capped(L.label),
  prompt: z.optional(capped(10_000)),
  send: z.boolean(),
});

/** A settled command approval as the transcript keeps it (the card with its answer, after a reload). */
export const settledApproval = z.strictObject({
  command: capped(L.command),
  cwd: capped(L.path),
  host: capped(L.label),
  reason: capped(L.sentence),
  /** The subagent that asked, when a child raised it. */
  from: z.optional(capped(L.sentence)),
  answer: approvalAnswer,
  note: z.optional(capped(L.sentence)),
});

/** A settled edit review as the transcript keeps it. */
export const settledReview = z.strictObject({
  path: z.string().check(z.minLength(1), z.maxLength(L.path)),
  summary: capped(L.sentence),
  added: count,
  removed: count,
  outcome: reviewOutcome,
});

/** How a turn ended, as its footer shows it: no usage when it never reached a model. */
export const turnFooter = z.strictObject({
  stopReason: turnStopReason,
  usage: z.optional(usage),
  message: z.optional(capped(L.sentence)),
  durationMs: z.optional(z.number().check(z.gte(0), z.lte(L.durationMs))),
});

/** The image formats the person may paste or drop: those every provider that reads images takes. */
export const PASTED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** base64 of at most `bytes` bytes (4 characters for every 3). */
const base64Of = (bytes: number) => z.base64().check(z.minLength(4), z.maxLength(Math.ceil(bytes / 3) * 4));

/** The small copy of a sent image that a stored message keeps, for its thumbnail (the page makes it a blob: URL). */
export const storedThumbnail = z.strictObject({ mimeType: z.enum(PASTED_IMAGE_TYPES), data: base64Of(THUMBNAIL_LIMITS.maxBytes) });

/** A message of a session as the transcript shows it, with the cards and footers its turns showed. */
export const chatMessage = z.discriminatedUnion('role', [
  z.strictObject({
    role: z.literal('user'), id: idString, text: capped(L.text), chips: z.optional(list(contextChip, L.chips)),
    /** The images it carried, by where they came from (pastedImageSource). */
    images: z.optional(list(capped(L.sentence), L.images)),
    /** Their thumbnails in the same order; null where none was kept (the image was too large). */
    thumbnails: z.optional(list(z.nullable(storedThumbnail), L.images)),
  }),
  z.strictObject({ role: z.literal('assistant'), id: idString, text: capped(L.text) }),
  z.strictObject({ role: z.literal('tool'), id: idString, call: toolCallView }),
  z.strictObject({ role: z.literal('approval'), id: idString, approval: settledApproval }),
  z.strictObject({ role: z.literal('review'), id: idString, review: settledReview }),
  z.strictObject({ role: z.literal('turn-end'), id: idString, end: turnFooter }),
  z.strictObject({ role: z.literal('subagent'), id: idString, child: subagentCard }),
]);

/** The agent a chat session is handed to (the `handoff` tool, a handoff button), as the chat's header names it. */
export const handedTo = z.strictObject({ agent: idString, name: capped(L.label) });

/** A page of a session: its newest messages (oldest first) and whether earlier ones exist. */
export const sessionPage = z.strictObject({
  key: idString,
  title: capped(L.label),
  messages: list(chatMessage, L.messagesPerPage),
  hasOlder: z.boolean(),
  /** The buttons under its last answer, as they were live (the agent that has the chat now offers them). */
  handoffs: z.optional(list(handoffButton, 10)),
  /** Who has the chat now, when it is handed over. */
  handedTo: z.optional(handedTo),
});

/** A local model server found on this machine, offered on the chat's first-run card. */
export const localServer = z.strictObject({
  name: capped(L.label),
  baseUrl: z.string().check(z.maxLength(2048), z.regex(/^https?:\/\/[^\s]+$/i)),
  models: count,
});

export const mentionItem = z.strictObject({
  path: z.string().check(z.minLength(1), z.maxLength(L.path)),
  /** Shown instead of the path when given (a file name with its folder as detail). */
  label: z.optional(capped(L.label)),
  detail: z.optional(capped(L.label)),
});

/** An http(s) URL and nothing else: links a model wrote open through the host, never in the webview. */
/**
 * An image the person pasted or dropped into the input, as the page read it. The type is what the
 * browser said; the host recognises the image by its bytes before anything reaches a model.
 */
export const pastedImage = z.strictObject({
  /** The file's name (a screenshot pasted from the clipboard has one the browser made up). */
  name: z.string().check(z.minLength(1), z.maxLength(L.label)),
  mimeType: z.enum(PASTED_IMAGE_TYPES),
  /** The bytes, base64: at most imageBytes of them (base64 is 4 characters for every 3 bytes). */
  data: base64Of(L.imageBytes),
});

/** Where a pasted image came from, as the model is told and the transcript shows it (the name quoted: it is the page's word). */
export const pastedImageSource = (name: string): string => `pasted image ${JSON.stringify(name)}`;

export const webUrl = z.string().check(z.maxLength(8192), z.regex(/^https?:\/\/[^\s]+$/i));

export type ContextChip = z.infer<typeof contextChip>;
export type ToolStatus = z.infer<typeof toolStatus>;
export type ToolCallView = z.infer<typeof toolCallView>;
export type ChatMessage = z.infer<typeof chatMessage>;
export type SessionSummary = z.infer<typeof sessionSummary>;
export type SessionPage = z.infer<typeof sessionPage>;
export type ModelChoice = z.infer<typeof modelChoice>;
export type AgentChoice = z.infer<typeof agentChoice>;
export type ChatUsage = z.infer<typeof usage>;
export type ApprovalPart = z.infer<typeof approvalPart>;
export type ApprovalAnswerChoice = z.infer<typeof approvalAnswer>;
export type ReviewAction = z.infer<typeof reviewAction>;
export type ReviewOutcome = z.infer<typeof reviewOutcome>;
export type ChatStopReason = z.infer<typeof turnStopReason>;
export type MentionItem = z.infer<typeof mentionItem>;
export type SettledApproval = z.infer<typeof settledApproval>;
export type SettledReview = z.infer<typeof settledReview>;
export type TurnFooter = z.infer<typeof turnFooter>;
export type HandoffButtonView = z.infer<typeof handoffButton>;
export type HandedTo = z.infer<typeof handedTo>;
export type LocalServerChoice = z.infer<typeof localServer>;
export type SubagentCardView = z.infer<typeof subagentCard>;
export type PastedImage = z.infer<typeof pastedImage>;
export type StoredThumbnail = z.infer<typeof storedThumbnail>;
