// Embeddings for memory search from any server speaking OpenAI's POST /embeddings: OpenAI itself,
// Azure-style gateways, Ollama, LM Studio, vLLM, llama.cpp. Uses the official `openai` SDK for the
// HTTP, retries (429/5xx with backoff, Retry-After honoured) and timeouts; this file adds batching,
// input order, response checks and error messages a person can act on, with the key never in them.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { IsolatedOpenAI } from '../agent/providers/isolated-openai';
import { clip, redactKey, rootCause } from '../guard/error-text';
import { MemoryError } from './types';
import { decodeEmbeddings, EmbeddingResponseError } from './embeddings-response';

export interface EmbeddingProvider {
  /** The identity of the vector space: vectors with different ids must not be compared. */
  readonly id: string;
  /** One vector per text, in order. Rejects with a MemoryError ('unavailable') or an AbortError. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface OpenAiCompatibleEmbeddingsOptions {
  /** Up to and including the version segment, e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1. */
  baseUrl: string;
  model: string;
  /** Absent for local servers that need none (then no Authorization header is sent at all). */
  apiKey?: string;
  /** Ask for shorter vectors (text-embedding-3 and later); the response must then have this many. */
  dimensions?: number;
  /** Inputs per request (default 64). */
  batchSize?: number;
  /** Per request attempt (default 60 s). */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx and connection errors (default 2). */
  maxRetries?: number;
}

const DEFAULT_BATCH = 64;
const MAX_BATCH = 2048; // OpenAI's limit on inputs per request
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RETRIES = 2;
// The SDK refuses to construct without some credential; this one is never sent (see below).
const NO_KEY = 'pincer-no-api-key';

export function createOpenAiCompatibleEmbeddings(opts: OpenAiCompatibleEmbeddingsOptions): EmbeddingProvider {
  const o = checkOptions(opts);
  const where = `${o.baseUrl} (model ${o.model})`;
  const client = new IsolatedOpenAI({
    baseURL: o.baseUrl,
    apiKey: o.apiKey ?? NO_KEY,
    // Explicit nulls: otherwise the SDK reads OPENAI_ADMIN_KEY / OPENAI_ORG_ID / OPENAI_PROJECT_ID from
    // the environment and would send a person's OpenAI credentials to whatever server is configured.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: o.maxRetries,
    timeout: o.timeoutMs,
    // No key: a null header tells the SDK to send no Authorization at all (not a placeholder).
    defaultHeaders: o.apiKey ? undefined : { Authorization: null },
  });
  const redact = (text: string): string => redactKey(text, o.apiKey);
  let knownDims = o.dimensions;

  async function embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    let body: unknown;
    try {
      body = await client.embeddings.create(
        {
          model: o.model,
          // OpenAI rejects an empty string input, which would fail the whole batch.
          input: batch.map((t) => (t === '' ? ' ' : t)),
          // base64 is a quarter of the JSON; servers that ignore it answer floats, handled alike.
          encoding_format: 'base64',
          ...(o.dimensions !== undefined ? { dimensions: o.dimensions } : {}),
        },
        { signal },
      );
    } catch (err) {
      throw describeFailure(err, where, o, signal, redact);
    }
    try {
      const vectors = decodeEmbeddings(body, batch.length, knownDims);
      knownDims = vectors[0]?.length ?? knownDims;
      return vectors;
    } catch (err) {
      if (!(err instanceof EmbeddingResponseError)) throw err;
      const hint =
        o.dimensions !== undefined && err.message.includes('dimensions')
          ? ` (dimensions ${o.dimensions} was asked for; some servers ignore it: remove the setting or pick a model that supports it)`
          : '';
      throw new MemoryError(redact(`Embeddings from ${where}: unusable response: ${err.message}${hint}.`), 'unavailable');
    }
  }

  return {
    id: `openai-compatible ${o.baseUrl} ${o.model} ${o.dimensions ?? ''}`,
    async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
        throw new MemoryError('embed() takes a list of strings.', 'invalid');
      }
      const out: Float32Array[] = [];
      // One batch at a time: local servers run one model and gain nothing from parallel requests.
      for (let i = 0; i < texts.length; i += o.batchSize) {
        if (signal?.aborted) throw abortError(where, signal);
        out.push(...(await embedBatch(texts.slice(i, i + o.batchSize), signal)));
      }
      return out;
    },
  };
}

type CheckedOptions = Required<Omit<OpenAiCompatibleEmbeddingsOptions, 'apiKey' | 'dimensions'>> &
  Pick<OpenAiCompatibleEmbeddingsOptions, 'apiKey' | 'dimensions'>;

function checkOptions(opts: OpenAiCompatibleEmbeddingsOptions): CheckedOptions {
  const invalid = (what: string): never => {
    throw new MemoryError(`Embeddings settings: ${what}.`, 'invalid');
  };
  let url: URL | undefined;
  try {
    url = new URL(opts.baseUrl);
  } catch {
    invalid(`baseUrl ${JSON.stringify(opts.baseUrl)} is not a URL (e.g. http://127.0.0.1:11434/v1)`);
  }
  if (url!.protocol !== 'http:' && url!.protocol !== 'https:') invalid(`baseUrl must be http or https, got ${url!.protocol}`);
  if (url!.username || url!.password) invalid('baseUrl must not hold credentials: put the key in apiKey');
  if (typeof opts.model !== 'string' || !opts.model.trim()) invalid('model is required');
  const positiveInt = (name: string, v: number | undefined, max = Number.MAX_SAFE_INTEGER): void => {
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > max)) invalid(`${name} must be an integer from 1 to ${max}, got ${v}`);
  };
  positiveInt('dimensions', opts.dimensions, 65536);
  positiveInt('batchSize', opts.batchSize, MAX_BATCH);
  positiveInt('timeoutMs', opts.timeoutMs);
  if (opts.maxRetries !== undefined && (!Number.isInteger(opts.maxRetries) || opts.maxRetries < 0 || opts.maxRetries > 10)) {
    invalid(`maxRetries must be an integer from 0 to 10, got ${opts.maxRetries}`);
  }
  return {
    // Trailing slashes dropped so that ".../v1" and ".../v1/" name the same vector space.
    baseUrl: opts.baseUrl.trim().replace(/\/+$/, ''),
    model: opts.model.trim(),
    apiKey: opts.apiKey || undefined,
    dimensions: opts.dimensions,
    batchSize: opts.batchSize ?? DEFAULT_BATCH,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: opts.maxRetries ?? DEFAULT_RETRIES,
  };
}

/** The SDK's error as a MemoryError saying what to do, or an AbortError when the caller aborted. */
function describeFailure(
  err: unknown,
  where: string,
  o: CheckedOptions,
  signal: AbortSignal | undefined,
  redact: (text: string) => string,
): Error {
  if (err instanceof APIUserAbortError || signal?.aborted) return abortError(where, signal);
  const fail = (what: string): MemoryError => new MemoryError(redact(`Embeddings from ${where}: ${what}`), 'unavailable');
  const retried = o.maxRetries ? ` after ${o.maxRetries} ${o.maxRetries === 1 ? 'retry' : 'retries'}` : '';
  if (err instanceof APIConnectionTimeoutError) {
    return fail(`no answer within ${o.timeoutMs} ms${retried}. Is the server overloaded, or the model still loading?`);
  }
  if (err instanceof APIConnectionError) {
    return fail(`cannot connect (${rootCause(err)})${retried}. Is the server running at that address?`);
  }
  if (err instanceof APIError) {
    const status = err.status ?? 0;
    const said = clip(err.message.replace(/^\d{3}\s*/, '').replace(/\.$/, ''));
    if (status === 401 || status === 403) {
      return fail(
        o.apiKey
          ? `the API key was refused (HTTP ${status}: ${said}). Check the key configured for embeddings.`
          : `the server requires an API key (HTTP ${status}: ${said}). Configure one for embeddings.`,
      );
    }
    if (status === 404) return fail(`not found (HTTP 404: ${said}). Check the base URL (often ending in /v1) and the model name.`);
    if (status === 429) return fail(`rate-limited (HTTP 429)${retried}: ${said}. Try again later.`);
    if (status >= 500) return fail(`server error (HTTP ${status})${retried}: ${said}.`);
    return fail(`request rejected (HTTP ${status}: ${said}).`);
  }
  return fail(`failed: ${clip(err instanceof Error ? err.message : String(err))}.`);
}


function abortError(where: string, signal: AbortSignal | undefined): Error {
  const e = new Error(`Embedding request to ${where} was aborted.`, { cause: signal?.reason });
  e.name = 'AbortError';
  return e;
}
