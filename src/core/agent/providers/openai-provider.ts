// A ModelProvider for any server speaking OpenAI's Chat Completions: OpenAI, Azure-style gateways,
// OpenRouter, Ollama, LM Studio, vLLM, llama.cpp. The official `openai` SDK does the HTTP and the SSE
// parsing; this file adds the translation both ways, tool-name mapping, and errors the loop can act
// on. The SDK's own retries are off: the agent loop retries with its backoff and knows what was
// already streamed to the user.
//
// Whether a model takes images is rarely said by these servers (OpenRouter's models list does): images
// are sent, and a model whose server refuses a request for its images gets the same request again
// with each image as its placeholder line; the model is then remembered as one that takes none.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { IsolatedOpenAI } from './isolated-openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ModelError, type ModelEvent, type ModelInfo, type ModelProvider, type ModelRequest } from '../model-types';
import { normalizeToolsFor, toolNameMapper } from '../schema-normalize';
import { ChatStreamAssembler } from './openai-stream';
import { toChatMessages, toChatTools } from './openai-request';
import { relayStream } from './provider-stream';
import { toModelError, type FailureContext } from './provider-errors';
import { checkBaseUrl } from './provider-options';
import { countImages, imagesAsText } from '../../media/images-in-messages';

export interface OpenAiProviderOptions {
  /** Up to and including the version segment: https://api.openai.com/v1, http://127.0.0.1:11434/v1. */
  baseUrl: string;
  /** Absent for local servers that need none (then no Authorization header is sent at all). */
  apiKey?: string;
  fetch?: typeof fetch;
  /** Extra headers for every request (Azure's api-key, OpenRouter's HTTP-Referer …). */
  headers?: Record<string, string>;
  /** The provider id the policy and normalisation see (default 'openai'). */
  id?: string;
}

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError };

export function createOpenAiProvider(opts: OpenAiProviderOptions): ModelProvider {
  const baseUrl = checkBaseUrl(opts.baseUrl, 'OpenAI-compatible provider');
  const apiKey = opts.apiKey || undefined;
  const id = opts.id ?? 'openai';
  const ctx: FailureContext = { where: `OpenAI-compatible endpoint ${baseUrl}`, apiKey };
  const client = new IsolatedOpenAI({
    baseURL: baseUrl,
    // The SDK refuses to construct without a credential; without a key this one is never sent.
    apiKey: apiKey ?? 'pincer-no-api-key',
    // Explicit nulls: otherwise the SDK reads OPENAI_ADMIN_KEY / OPENAI_ORG_ID / OPENAI_PROJECT_ID.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off',
    maxRetries: 0,
    fetch: opts.fetch,
    // No key: a null header tells the SDK to send no Authorization at all.
    defaultHeaders: { ...(apiKey ? {} : { Authorization: null }), ...opts.headers },
  });
  // OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); most other
  // servers only know max_tokens.
  const host = new URL(baseUrl).hostname;
  const completionTokensParam = host === 'api.openai.com' || host.endsWith('.openai.azure.com');

  // What the models list said, and what servers refused: model id → takes images.
  const imageInputs = new Map<string, boolean>();
  const imageInput = (model: string) => imageInputs.get(model);

  async function* stream(req: ModelRequest): AsyncGenerator<ModelEvent> {
    const { tools, nameMap } = normalizeToolsFor(id, req.model, req.tools);
    const names = toolNameMapper(id, req.model, nameMap);
    const textOnly = imageInput(req.model) === false;
    const messages = textOnly ? imagesAsText(req.messages, 0, `the model ${req.model} does not take images`) : req.messages;
    const params: ChatCompletionCreateParamsStreaming = {
      model: req.model,
      messages: toChatMessages(messages, names),
      stream: true,
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools: toChatTools(tools) } : {}),
      ...(req.maxOutputTokens !== undefined
        ? completionTokensParam
          ? { max_completion_tokens: req.maxOutputTokens }
          : { max_tokens: req.maxOutputTokens }
        : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    };
    const assembler = new ChatStreamAssembler(names.fromWire, ctx.where);
    let started = false;
    try {
      for await (const event of relayStream(() => client.chat.completions.create(params, { signal: req.signal }), assembler, req.signal, (err) => toModelError(err, ctx, SDK_ERRORS), (err) => err instanceof APIUserAbortError)) {
        started = true;
        yield event;
      }
    } catch (err) {
      if (started || textOnly || countImages(messages) === 0 || !refusesImages(err)) throw err;
      imageInputs.set(req.model, false);
      yield* stream(req);
    }
  }

  async function listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const source = `OpenAI-compatible (${baseUrl})`;
    const models: ModelInfo[] = [];
    try {
      for await (const model of client.models.list({ signal })) {
        const contextTokens = contextWindowOf(model);
        const takesImages = imageInputOf(model);
        if (takesImages !== undefined) imageInputs.set(model.id, takesImages);
        models.push({ id: model.id, source, ...(contextTokens !== undefined ? { contextTokens } : {}), ...(takesImages !== undefined ? { imageInput: takesImages } : {}) });
      }
    } catch (err) {
      if (signal?.aborted) throw new ModelError(`${ctx.where}: listing models was cancelled.`, false);
      throw toModelError(err, ctx, SDK_ERRORS);
    }
    return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  return { id, stream, listModels, imageInput };
}

/** A request the server refused because of its images (the model takes none): worth sending again without them. */
function refusesImages(err: unknown): boolean {
  return err instanceof ModelError && (err.status === 400 || err.status === 415 || err.status === 422)
    && /image|vision|multi-?modal|modalit/i.test(err.message);
}

/** OpenRouter lists what a model reads (`architecture.input_modalities`); most servers say nothing. */
function imageInputOf(model: object): boolean | undefined {
  const modalities = (model as { architecture?: { input_modalities?: unknown } }).architecture?.input_modalities;
  return Array.isArray(modalities) ? modalities.includes('image') : undefined;
}

/** Servers that know a model's context window say so under different names. */
function contextWindowOf(model: object): number | undefined {
  const m = model as Record<string, unknown>;
  // OpenRouter, vLLM, LM Studio (loaded, then maximum), others.
  for (const key of ['context_length', 'max_model_len', 'loaded_context_length', 'max_context_length', 'context_window']) {
    const v = m[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}
