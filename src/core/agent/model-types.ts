// The model-provider port: how the agent loop talks to a model, whoever serves it (VS Code's Language
// Model API, an OpenAI-compatible endpoint, Anthropic). One request streams events — text, tool calls,
// usage — and ends with a stop reason; cancellation is the AbortSignal. Providers translate to and from
// their wire formats; nothing provider-specific leaks past this file's types.
import type { ImagePart } from '../media/image-part';

/** A tool as the model is shown it (already normalised for the provider by the provider itself). */
export interface ModelTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, top level `type: object` (from Registry.definitions). */
  parameters: Record<string, unknown>;
}

export interface ToolCallPart {
  type: 'tool-call';
  /** The provider's id for the call; the result must carry the same id. */
  id: string;
  /** The tool's name as Pincer knows it (a provider that had to rename maps it back). */
  name: string;
  /** Arguments as the model sent them: parsed JSON when it parsed, else the raw text. */
  args: unknown;
  /** Set when the arguments were cut off or not valid JSON (the loop answers with guidance). */
  malformed?: string;
}

export interface ToolResultPart {
  type: 'tool-result';
  id: string;
  name: string;
  /** What the model sees (ToolResult.forLLM, already capped and scrubbed). */
  content: string;
  isError: boolean;
  /** Images the result carries (a screenshot, read_image): sent as images where the model takes them. */
  images?: ImagePart[];
}

/** An image in a user message: one the person pasted or dropped into the chat. */
export type MessagePart = { type: 'text'; text: string } | ImagePart | ToolCallPart | ToolResultPart;

/**
 * A conversation turn. 'system' text goes to the provider's system slot; 'tool' messages carry
 * tool results (providers that put results in user turns translate).
 */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  parts: MessagePart[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache, where it reports them. */
  cachedInputTokens?: number;
}

export type StopReason = 'end' | 'tool-calls' | 'length' | 'content-filter' | 'cancelled' | 'error';

export type ModelEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; call: ToolCallPart }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'stop'; reason: StopReason; message?: string };

export interface ModelRequest {
  model: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  /** Upper bound on output tokens for this request. */
  maxOutputTokens?: number;
  temperature?: number;
  signal: AbortSignal;
}

/** A provider error the loop may retry (rate limit, overload, a dropped connection) or must not. */
export class ModelError extends Error {
  constructor(message: string, readonly retryable: boolean, readonly status?: number, readonly retryAfterMs?: number) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelInfo {
  /** Provider-scoped model id ('gpt-4.1', 'claude-sonnet-4-5', a vscode.lm id). */
  id: string;
  /** Where it comes from, for the picker: 'OpenAI-compatible (http://localhost:11434/v1)', 'Copilot', … */
  source: string;
  /** Context window in tokens, when known (adaptive read paging and the token budget use it). */
  contextTokens?: number;
  /** Whether the model takes images, when the provider says (undefined: not known, images are sent). */
  imageInput?: boolean;
}

export interface ModelProvider {
  /** 'openai', 'anthropic', 'vscode-lm' …: selects provider policy (pincer.tools.byProvider) and normalisation. */
  readonly id: string;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  /**
   * Streams one model response. Yields text and tool calls as they complete, usage when known, and
   * exactly one final 'stop'. Throws ModelError for provider failures (retryable or not); an aborted
   * signal ends the stream with stop 'cancelled' rather than throwing.
   */
  stream(req: ModelRequest): AsyncIterable<ModelEvent>;
  /**
   * Whether `model` takes images, as far as the provider knows (its models list, or a request the
   * model refused for its images): undefined when not known, and then images are sent.
   */
  imageInput?(model: string): boolean | undefined;
}
