// A ModelProvider for Anthropic's Messages API through the official `@anthropic-ai/sdk`. The SDK does
// the HTTP and SSE; this file translates both ways, maps tool names, and turns failures into
// ModelErrors. The SDK's own retries are off: the agent loop retries with its backoff.
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  type ClientOptions,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { ModelError, type ModelEvent, type ModelInfo, type ModelProvider, type ModelRequest } from '../model-types';
import { normalizeToolsFor, toolNameMapper } from '../schema-normalize';
import { toAnthropicConversation, toAnthropicTools } from './anthropic-request';
import { MessageStreamAssembler } from './anthropic-stream';
import { relayStream } from './provider-stream';
import { toModelError, type FailureContext } from './provider-errors';
import { checkBaseUrl } from './provider-options';

export interface AnthropicProviderOptions {
  apiKey: string;
  /** Without the /v1 segment (the SDK adds it); default https://api.anthropic.com. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** The Messages API requires max_tokens; this is asked for when the loop sets no limit. */
export const DEFAULT_MAX_TOKENS = 8192;
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Offered when the server has no models endpoint (some gateways relay only /v1/messages). */
export const KNOWN_ANTHROPIC_MODELS = ['claude-haiku-4-5', 'claude-opus-4-5', 'claude-sonnet-4-5'];

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError };

/**
 * The SDK merges ANTHROPIC_CUSTOM_HEADERS from the environment into every request; Pincer's settings
 * alone decide what is sent to the configured server. `_options` is private in the SDK's types, hence
 * the cast; a unit test sets the variable and checks that no such header arrives.
 */
class IsolatedAnthropic extends Anthropic {
  constructor(options: ClientOptions) {
    super(options);
    const self = this as unknown as { _options: ClientOptions };
    self._options = { ...self._options, defaultHeaders: options.defaultHeaders };
  }
}

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  const baseUrl = checkBaseUrl(opts.baseUrl ?? DEFAULT_BASE_URL, 'Anthropic provider');
  if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
    throw new ModelError('Anthropic provider: an API key is required. Set one for Anthropic first.', false);
  }
  const id = 'anthropic';
  const ctx: FailureContext = { where: `Anthropic (${baseUrl})`, apiKey: opts.apiKey };
  const client = new IsolatedAnthropic({
    // An explicit key and base URL: the SDK then reads neither ANTHROPIC_API_KEY / _AUTH_TOKEN nor
    // ANTHROPIC_BASE_URL, nor a credentials profile.
    apiKey: opts.apiKey,
    baseURL: baseUrl,
    webhookKey: null,
    logLevel: 'off',
    // Tracing would follow OTEL_* variables and could add propagation headers.
    openTelemetry: false,
    maxRetries: 0,
    fetch: opts.fetch,
  });

  // What the models list says each model reads (`capabilities.image_input`); the loop describes images in words to one that reads none.
  const imageInputs = new Map<string, boolean>();

  async function* stream(req: ModelRequest): AsyncGenerator<ModelEvent> {
    const { tools, nameMap } = normalizeToolsFor(id, req.model, req.tools);
    const names = toolNameMapper(id, req.model, nameMap);
    const { system, messages } = toAnthropicConversation(req.messages, names);
    // No temperature: the Messages API of this SDK generation has dropped the parameter.
    const params: MessageCreateParamsStreaming = {
      model: req.model,
      max_tokens: req.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
      messages,
      stream: true,
      ...(system ? { system } : {}),
      ...(tools.length > 0 ? { tools: toAnthropicTools(tools) } : {}),
    };
    const assembler = new MessageStreamAssembler(names.fromWire, ctx.where);
    yield* relayStream(() => client.messages.create(params, { signal: req.signal }), assembler, req.signal, (err) => toModelError(err, ctx, SDK_ERRORS), (err) => err instanceof APIUserAbortError);
  }

  async function listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const source = baseUrl === DEFAULT_BASE_URL ? 'Anthropic' : `Anthropic (${baseUrl})`;
    const models: ModelInfo[] = [];
    try {
      for await (const model of client.models.list({ limit: 100 }, { signal })) {
        const contextTokens = model.max_input_tokens ?? undefined;
        const takesImages = model.capabilities?.image_input?.supported;
        if (typeof takesImages === 'boolean') imageInputs.set(model.id, takesImages);
        models.push({ id: model.id, source, ...(contextTokens ? { contextTokens } : {}), ...(typeof takesImages === 'boolean' ? { imageInput: takesImages } : {}) });
      }
    } catch (err) {
      if (signal?.aborted) throw new ModelError(`${ctx.where}: listing models was cancelled.`, false);
      const status = err instanceof APIError ? err.status : undefined;
      if (status === 404 || status === 405) {
        return KNOWN_ANTHROPIC_MODELS.map((m) => ({ id: m, source: `${source}, known models: the server has no models list` }));
      }
      throw toModelError(err, ctx, SDK_ERRORS);
    }
    return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  return { id, stream, listModels, imageInput: (model) => imageInputs.get(model) };
}
