// One chat turn end to end, for any front end (the sidebar chat, sessions_send, the CLI later): load
// the session's history, assemble the system prompt from the agent's context files and the tools its
// policy allows, run the agent loop, and store every message as it is added and the usage at the end.
// A session is one conversation at a time: a second turn on a busy session waits for the first.
import type { AgentDefinition } from '../agents/types';
import { pastedImageSource } from '../chat/chat-protocol-parts';
import { prepareImage } from '../media/image-fit';
import type { ImagePart } from '../media/image-part';
import type { PincerRuntime } from '../runtime';
import type { SessionStore } from '../sessions/session-store';
import type { SessionRunner } from '../sessions/tools/sessions-send';
import type { ToolContext } from '../tools/types';
import { runAgentTurn, turnTools } from './agent-loop';
import type { TurnEvent, TurnLimits, TurnResult, TurnToolContext } from './agent-types';
import type { ModelMessage, ModelProvider } from './model-types';
import { buildSystemPrompt, loadContextFiles, type ContextFileReader } from './system-prompt';

export interface ChatModel {
  provider: ModelProvider;
  model: string;
  contextTokens?: number;
}

export interface ChatServiceDeps {
  rt: PincerRuntime;
  sessions: () => Promise<SessionStore | undefined>;
  /**
   * The model for this agent's turn in this session (its definition's, else its caller's: see
   * subagents/child-model.ts), or undefined when no model is available.
   */
  model: (agent: AgentDefinition, sessionKey: string) => Promise<ChatModel | undefined>;
  agent: (agentId: string) => AgentDefinition;
  contextFiles: ContextFileReader;
  user: () => string;
  workspace: () => { root: string; name: string } | undefined;
  /** Trust, ownership and the like for the tool calls of a turn. */
  toolContext: () => TurnToolContext;
  /** The subagents of this window, once they exist: their announcements and the tree a Stop cancels. */
  subagents?: () => SubagentHooks | undefined;
  /** TEAM.md when `agentId` leads a team in this session (top-level turns only: members never get it). */
  teamMd?: (sessionKey: string, agentId: string) => Promise<string | undefined>;
  /** The agent a chat session was handed to (the handoff tool), which runs its top-level turns. */
  handedTo?: (sessionKey: string) => Promise<string | undefined>;
}

/** What a chat turn owes the subagents its session started. */
export interface SubagentHooks {
  /** Results of background children for this session, merged, to add before the next model request. */
  inbox(sessionKey: string): ModelMessage[];
  /** The session's turn was cancelled (Stop): cancel every child it started, and theirs. */
  turnCancelled(sessionKey: string): void;
}

export interface ChatTurnRequest {
  sessionKey: string;
  agentId: string;
  text: string;
  /** Context the person attached (current file, selection, @file mentions), as text for the model. */
  attachments?: string;
  /** Images the person pasted or dropped (base64, as the chat page sent them): checked and shrunk before the turn. */
  images?: readonly { name: string; data: string }[];
  signal: AbortSignal;
  onEvent?: (e: TurnEvent) => void;
  /** Host-specific instructions appended to the system prompt. */
  extra?: string;
  /** Over the host's context (a subagent's turn: channel 'subagent' and its depth). */
  toolContext?: TurnToolContext;
  /** Over the chat's limits from the settings (a subagent's own iterations, budget and retries). */
  limits?: Partial<TurnLimits>;
}

export class ChatService {
  private readonly busy = new Map<string, Promise<unknown>>();
  private turnSeq = 0;

  constructor(private readonly deps: ChatServiceDeps) {}

  async turn(req: ChatTurnRequest): Promise<TurnResult> {
    // One turn per session at a time: the history of the next one includes this one.
    const before = this.busy.get(req.sessionKey) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.run(req));
    this.busy.set(req.sessionKey, run);
    try {
      return await run;
    } finally {
      if (this.busy.get(req.sessionKey) === run) this.busy.delete(req.sessionKey);
    }
  }

  private async run(req: ChatTurnRequest): Promise<TurnResult> {
    const store = await this.deps.sessions();
    if (!store) throw new Error('The workspace database could not be opened, so the chat cannot keep its history.');
    // Both reads at once: the storage worker answers them back to back, and eight subagents starting
    // together each wait one round trip less behind each other's. The history is used only once the
    // session is known to be this agent's.
    const [session, stored] = await Promise.all([store.owned(req.sessionKey, req.agentId), store.messages(req.sessionKey)]);
    // A conversation handed to another agent goes on as that agent, in the same session (never a child's turn).
    const agentId = (req.toolContext?.subagentDepth ? undefined : await this.deps.handedTo?.(session.key)) ?? req.agentId;
    const agent = this.deps.agent(agentId);
    const model = await this.deps.model(agent, req.sessionKey);
    if (!model) throw new Error('No model is available. Pick one with "Pincer: Select Model…" (VS Code\'s language models, an OpenAI-compatible endpoint or Anthropic).');
    const history: ModelMessage[] = stored.map(({ role, parts }) => ({ role, parts }));
    const toolContext = { ...this.deps.toolContext(), ...req.toolContext };
    const policyCtx = this.deps.rt.context({
      channel: 'chat', sessionKey: session.key, agentId, provider: model.provider.id, ...toolContext,
    } as Partial<ToolContext> & Pick<ToolContext, 'channel'>);
    const { tools, aliases } = turnTools(this.deps.rt.registry, this.deps.rt.registry.policyRequest(policyCtx));
    const system = buildSystemPrompt({
      agent, tools, aliases, workspace: this.deps.workspace(), extra: req.extra,
      teamMd: toolContext.subagentDepth ? undefined : await this.deps.teamMd?.(session.key, agentId),
      contextFiles: await loadContextFiles(this.deps.contextFiles, agentId, this.deps.user()),
    });
    const text = req.attachments ? `${req.text}\n\n${req.attachments}` : req.text;
    // Before anything is stored: an image that is not one (or is corrupt) fails the turn with the reason.
    const images = await pastedImages(req.images ?? [], req.signal);
    // An image sent without words is a user message of images alone (an empty text part is refused by Anthropic).
    const user: ModelMessage = { role: 'user', parts: [...(text ? [{ type: 'text' as const, text }] : []), ...images] };
    // Stored as they are added: a window closed mid-turn keeps what was said.
    const pending: Promise<void>[] = [];
    pending.push(store.append(session.key, [user]));
    if (!history.length) pending.push(store.rename(session.key, titleFrom(req.text || images.map((i) => i.source).join(', '))));
    const pricing = this.deps.rt.currentConfig.chat.pricing[model.model];
    const hooks = this.deps.subagents?.();
    const onAbort = () => hooks?.turnCancelled(session.key);
    req.signal.addEventListener('abort', onAbort, { once: true });
    const result = await runAgentTurn({ provider: model.provider, runtime: this.deps.rt, model: model.model, contextTokens: model.contextTokens, ...(pricing ? { pricing } : {}) }, {
      sessionKey: session.key, agentId, turnId: `${session.key}#${Date.now()}-${++this.turnSeq}`,
      history, user, system, tools, signal: req.signal, toolContext,
      limits: { maxIterations: this.deps.rt.currentConfig.chat.maxIterations, ...(this.deps.rt.currentConfig.chat.maxTurnTokens ? { maxTurnTokens: this.deps.rt.currentConfig.chat.maxTurnTokens } : {}), ...req.limits },
      onEvent: (e) => {
        if (e.type === 'message') pending.push(store.append(session.key, [e.message]));
        req.onEvent?.(e);
      },
      ...(hooks ? { inbox: () => hooks.inbox(session.key) } : {}),
    }).finally(() => req.signal.removeEventListener('abort', onAbort));
    // Queued behind the turn's last messages (the worker keeps their order), so it shares their
    // journal write and fsync instead of waiting for a second one.
    pending.push(store.append(session.key, [], { inputTokens: result.usage.input, outputTokens: result.usage.output, cachedInputTokens: result.usage.cached }));
    await Promise.all(pending);
    return result;
  }

  /** sessions_send: a turn in another of the agent's sessions, without a front end watching. */
  runner(): SessionRunner {
    return {
      send: async (key, text, from) => {
        const r = await this.turn({ sessionKey: key, agentId: from.agentId, text, signal: from.signal });
        return { reply: r.text || `(no answer: ${r.stopReason}${r.message ? `, ${r.message}` : ''})` };
      },
    };
  }
}

/**
 * Pasted images as the model gets them: recognised by their bytes (whatever type the page claimed),
 * refused when corrupt, shrunk to the providers' limits, each with a small copy the chat shows when the
 * session is opened again. One at a time: each decode has a worker of its own.
 */
async function pastedImages(images: readonly { name: string; data: string }[], signal: AbortSignal): Promise<ImagePart[]> {
  const parts: ImagePart[] = [];
  for (const image of images) parts.push(await prepareImage(Buffer.from(image.data, 'base64'), pastedImageSource(image.name), { signal, thumbnail: true }));
  return parts;
}

/** A session's title from its first message: the first line, shortened. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New chat';
}
