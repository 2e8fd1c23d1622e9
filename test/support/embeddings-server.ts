// A real loopback HTTP server speaking OpenAI's POST /v1/embeddings (and /embeddings), for tests of
// the embeddings provider and of semantic memory search. Its vectors are deterministic: a hashed bag
// of words where a few synonyms share a bucket, so 'automobile' finds 'car' (which BM25 cannot).
// It can require a bearer token, fail the next requests on purpose, answer slowly, misbehave, and
// counts requests and inputs (for "re-embed only the changed chunks" tests).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingsServerOptions {
  /** Vector length when the request gives no `dimensions` (default 64). */
  dims?: number;
  /** When set, requests without `Authorization: Bearer <token>` get a 401. */
  token?: string;
  /** Delay before every answer, ms. */
  delayMs?: number;
  /** Answer in this encoding whatever was asked (some servers ignore encoding_format). */
  forceEncoding?: 'float' | 'base64';
  /** Ignore the request's `dimensions` (as Ollama does). */
  ignoreDimensions?: boolean;
}

/** Deliberately wrong answers, for the provider's response checks. */
export type Misbehaviour = 'none' | 'drop-one' | 'short-vector' | 'reverse-order' | 'no-data';

export interface EmbeddingsServerStats {
  requests: number;
  /** Texts embedded over all successful requests. */
  inputs: number;
  /** Largest number of inputs in one request. */
  maxBatch: number;
  /** Each request's inputs, in arrival order (successful or not). */
  batches: string[][];
  /** The Authorization header of the last request (undefined when absent). */
  lastAuthorization: string | undefined;
  /** All headers of the last request. */
  lastHeaders?: Record<string, string | string[] | undefined>;
  lastBody: Record<string, unknown> | undefined;
}

export interface EmbeddingsServer {
  /** Base URL including /v1, e.g. http://127.0.0.1:54321/v1. */
  url: string;
  /** Base URL without /v1 (the server also answers POST /embeddings). */
  rootUrl: string;
  stats: EmbeddingsServerStats;
  /** The next `times` requests answer `status` (with Retry-After-Ms so SDK retries stay fast). */
  fail(status: number, times: number, retryAfterMs?: number): void;
  setDelay(ms: number): void;
  misbehave(kind: Misbehaviour): void;
  stop(): Promise<void>;
}

/** Words that embed to the same bucket, so tests can show recall by meaning. */
const SYNONYMS: Record<string, string> = {
  automobile: 'car', vehicle: 'car', cars: 'car', automobiles: 'car',
  canine: 'dog', puppy: 'dog', dogs: 'dog',
  feline: 'cat', kitten: 'cat', cats: 'cat',
  physician: 'doctor', doctors: 'doctor',
  purchase: 'buy', bought: 'buy',
};

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The test embedding of `text`: +1 in the bucket of each (canonical) word, not normalised. */
export function embedText(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    v[fnv1a(SYNONYMS[word] ?? word) % dims] += 1;
  }
  return v;
}

function base64Of(v: Float32Array): string {
  const buf = Buffer.alloc(v.length * 4);
  v.forEach((x, i) => buf.writeFloatLE(x, i * 4));
  return buf.toString('base64');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const errorBody = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });

export async function startEmbeddingsServer(opts: EmbeddingsServerOptions = {}): Promise<EmbeddingsServer> {
  const stats: EmbeddingsServerStats = { requests: 0, inputs: 0, maxBatch: 0, batches: [], lastAuthorization: undefined, lastBody: undefined };
  let failing = { status: 0, times: 0, retryAfterMs: 0 };
  let delayMs = opts.delayMs ?? 0;
  let misbehaviour: Misbehaviour = 'none';

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    stats.requests++;
    stats.lastAuthorization = req.headers.authorization;
    stats.lastHeaders = req.headers;
    if (req.method !== 'POST' || !['/v1/embeddings', '/embeddings'].includes((req.url ?? '').split('?')[0])) {
      return sendJson(res, 404, errorBody(`No route ${req.method} ${req.url}`, 'invalid_request_error'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, errorBody('Body is not JSON', 'invalid_request_error'));
    }
    stats.lastBody = body;
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || input.some((t) => typeof t !== 'string')) {
      return sendJson(res, 400, errorBody("'input' must be a string or a list of strings", 'invalid_request_error'));
    }
    stats.batches.push(input as string[]);
    // Unref'd: a long delay must not keep the test process alive after the server stopped.
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs).unref());
    if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
      // Like OpenAI: the presented key is echoed back, which the provider must not pass on.
      const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const message = presented ? `Incorrect API key provided: ${presented}.` : 'You did not provide an API key.';
      return sendJson(res, 401, errorBody(message, 'invalid_request_error', 'invalid_api_key'));
    }
    if (failing.times > 0) {
      failing.times--;
      const headers = { 'retry-after-ms': String(failing.retryAfterMs) };
      const kind = failing.status === 429 ? 'rate_limit_exceeded' : 'server_error';
      return sendJson(res, failing.status, errorBody(`Injected failure ${failing.status}`, kind), headers);
    }
    if (input.some((t) => t === '')) {
      return sendJson(res, 400, errorBody("'input' cannot contain an empty string", 'invalid_request_error'));
    }
    const dims = !opts.ignoreDimensions && typeof body.dimensions === 'number' ? body.dimensions : (opts.dims ?? 64);
    const encoding = opts.forceEncoding ?? (body.encoding_format === 'base64' ? 'base64' : 'float');
    let data = (input as string[]).map((text, index) => {
      const v = embedText(text, misbehaviour === 'short-vector' && index === 0 ? dims - 1 : dims);
      return { object: 'embedding', index, embedding: encoding === 'base64' ? base64Of(v) : Array.from(v) };
    });
    if (misbehaviour === 'drop-one') data = data.slice(1);
    if (misbehaviour === 'reverse-order') data = data.reverse();
    stats.inputs += input.length;
    stats.maxBatch = Math.max(stats.maxBatch, input.length);
    const tokens = (input as string[]).reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);
    const answer = { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
    return sendJson(res, 200, misbehaviour === 'no-data' ? { ...answer, data: undefined } : answer);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(String(err), 'server_error'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const rootUrl = `http://127.0.0.1:${port}`;
  return {
    url: `${rootUrl}/v1`,
    rootUrl,
    stats,
    fail(status, times, retryAfterMs = 0) {
      failing = { status, times, retryAfterMs };
    },
    setDelay(ms) {
      delayMs = ms;
    },
    misbehave(kind) {
      misbehaviour = kind;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
