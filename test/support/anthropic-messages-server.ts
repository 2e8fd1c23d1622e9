// A loopback server speaking Anthropic's Messages API as the real one does, driven by the same scripts
// as the OpenAI server (model-script.ts): POST /v1/messages with `stream: true` sends message_start,
// ping, content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop
// per block, message_delta (stop_reason, usage) and message_stop; without `stream` one Message object.
// It checks the key (x-api-key, or the bearer token SDK 1.x sends) and requires the anthropic-version header; errors come in Anthropic's
// `{type: 'error', error: {type, message}}` shape. GET /v1/models pages like the real endpoint.
import { piecesOf, stepFor, stopOf, usageOf, type Script, type ScriptStep, type ScriptStop } from './model-script';
import { retryHeaders, sendJson, sendSse, startModelServer, type ModelServer, type RecordedRequest } from './model-server-base';

export interface AnthropicMessagesServerOptions {
  /** When set, requests without the key (x-api-key or a bearer token) get a 401 echoing what was presented. */
  token?: string;
  /** Ids for GET /v1/models (default ['claude-test']); an object adds max_input_tokens. */
  models?: (string | { id: string; max_input_tokens?: number })[];
  /** Answer 404 to GET /v1/models, like a gateway that relays only /v1/messages. */
  noModelsEndpoint?: boolean;
}

const STOP: Record<ScriptStop, string> = {
  end: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
  'content-filter': 'refusal',
  'stop-sequence': 'stop_sequence',
};

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startAnthropicMessagesServer(script: Script, opts: AnthropicMessagesServerOptions = {}): Promise<ModelServer> {
  let messages = 0;
  // The SDK is given the root and adds /v1 itself.
  const server = await startModelServer('', async (req, res) => {
    // The key comes as x-api-key (the API's documented header) or, from SDK 1.x, as a bearer token.
    const presented = String(req.headers['x-api-key'] ?? (req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (opts.token !== undefined && presented !== opts.token) {
      return sendJson(res, 401, errorBody('authentication_error', presented ? `invalid x-api-key: ${presented}` : 'x-api-key header is required'));
    }
    if (!req.headers['anthropic-version']) {
      return sendJson(res, 400, errorBody('invalid_request_error', 'anthropic-version: header is required'));
    }
    if (req.method === 'GET' && req.path === '/v1/models' && !opts.noModelsEndpoint) return sendJson(res, 200, modelsPage(req, opts));
    if (req.method !== 'POST' || req.path !== '/v1/messages') {
      return sendJson(res, 404, errorBody('not_found_error', `Not found: ${req.method} ${req.path}`));
    }
    if (!req.body) return sendJson(res, 400, errorBody('invalid_request_error', 'The body is not JSON.'));
    if (typeof req.body.max_tokens !== 'number') return sendJson(res, 400, errorBody('invalid_request_error', 'max_tokens: Field required'));
    const index = messages++;
    const step = stepFor(script, { body: req.body, index });
    if (step.error) {
      const e = step.error;
      const body = e.body ?? errorBody(e.type ?? ERROR_TYPES[e.status] ?? 'api_error', e.message ?? `Scripted failure ${e.status}`);
      return sendJson(res, e.status, body, retryHeaders(e));
    }
    if (req.body.stream !== true) return sendJson(res, 200, messageOf(step, req.body, index));
    return sendSse(res, req, eventsOf(step, req, index), step);
  });
  return server;
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}

function modelsPage(req: RecordedRequest, opts: AnthropicMessagesServerOptions) {
  const all = (opts.models ?? ['claude-test']).map((m) => {
    const { id, ...extra } = typeof m === 'string' ? { id: m } : m;
    return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z', ...extra };
  });
  const limit = Number(req.query.get('limit') ?? 20);
  const after = req.query.get('after_id');
  const start = after ? all.findIndex((m) => m.id === after) + 1 : 0;
  const data = all.slice(start, start + limit);
  return { data, has_more: start + limit < all.length, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

function usageStart(step: ScriptStep, body: Record<string, unknown>) {
  const u = usageOf(step, body);
  const cached = u.cachedInput ?? 0;
  // Anthropic's input_tokens leaves out tokens read from the cache.
  return { input_tokens: u.input - cached, cache_read_input_tokens: cached, cache_creation_input_tokens: 0, output_tokens: 1 };
}

function eventsOf(step: ScriptStep, req: RecordedRequest, index: number): string[] {
  const body = req.body ?? {};
  const event = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const message = {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    model: String(body.model ?? 'claude-test'),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: usageStart(step, body),
  };
  const out = [event('message_start', { message }), event('ping', {})];
  for (const piece of piecesOf(step, 'toolu', index)) {
    if (piece.kind === 'text') {
      if (piece.first) out.push(event('content_block_start', { index: piece.block, content_block: { type: 'text', text: '' } }));
      out.push(event('content_block_delta', { index: piece.block, delta: { type: 'text_delta', text: piece.text } }));
    }
    if (piece.kind === 'tool-start') {
      const block = { type: 'tool_use', id: piece.id, name: piece.name, input: {} };
      out.push(event('content_block_start', { index: piece.block, content_block: block }));
    }
    if (piece.kind === 'tool-args') {
      out.push(event('content_block_delta', { index: piece.block, delta: { type: 'input_json_delta', partial_json: piece.fragment } }));
    }
    if (piece.kind === 'block-end') out.push(event('content_block_stop', { index: piece.block }));
  }
  if (step.streamError) {
    out.push(event('error', { error: { type: step.streamError.type, message: step.streamError.message } }));
    return out;
  }
  if (step.omitFinish) return out;
  const output = usageOf(step, body).output;
  out.push(event('message_delta', { delta: { stop_reason: STOP[stopOf(step)], stop_sequence: null }, usage: { output_tokens: output } }));
  out.push(event('message_stop', {}));
  return out;
}

/** The non-streaming answer: one Message object. */
function messageOf(step: ScriptStep, body: Record<string, unknown>, index: number) {
  let call = 0;
  const content = (step.parts ?? []).map((p) =>
    p.kind === 'text' ? { type: 'text', text: p.text } : { type: 'tool_use', id: p.id ?? `toolu_${index}_${call++}`, name: p.name, input: safeParse(p.args) },
  );
  return {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    model: String(body.model ?? 'claude-test'),
    content,
    stop_reason: STOP[stopOf(step)],
    stop_sequence: null,
    usage: { ...usageStart(step, body), output_tokens: usageOf(step, body).output },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export type { ModelServer, RecordedRequest } from './model-server-base';
