// A loopback server speaking OpenAI's Chat Completions protocol as the real one does, driven by a
// script (see model-script.ts), so tests exercise the official SDK: POST /v1/chat/completions streams
// `data: {chunk}` lines with choices[0].delta (content; tool_calls split into index/id/name and
// argument fragments), a finish_reason, a usage chunk when stream_options.include_usage, then
// `data: [DONE]`; without `stream` it answers one chat.completion. GET /v1/models lists models. A
// token makes every route answer 401 to a wrong bearer (echoing the presented key, as OpenAI does).
import { piecesOf, stepFor, stopOf, usageOf, type Script, type ScriptStep, type ScriptStop } from './model-script';
import { retryHeaders, sendJson, sendSse, startModelServer, type ModelServer, type RecordedRequest } from './model-server-base';

export interface OpenAiChatServerOptions {
  /** When set, requests without `Authorization: Bearer <token>` get a 401. */
  token?: string;
  /** Ids for GET /v1/models (default ['test-model']); an object adds a context_length, or OpenRouter's architecture. */
  models?: (string | { id: string; context_length?: number; architecture?: { input_modalities: string[] } })[];
}

const FINISH: Record<ScriptStop, string> = {
  end: 'stop',
  'stop-sequence': 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
  'content-filter': 'content_filter',
};

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'invalid_request_error', 404: 'invalid_request_error', 429: 'rate_limit_exceeded' };

export async function startOpenAiChatServer(script: Script, opts: OpenAiChatServerOptions = {}): Promise<ModelServer> {
  let completions = 0;
  return startModelServer('/v1', async (req, res) => {
    if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
      const presented = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const message = presented ? `Incorrect API key provided: ${presented}.` : 'You did not provide an API key.';
      return sendJson(res, 401, errorBody(message, 'invalid_request_error', 'invalid_api_key'));
    }
    if (req.method === 'GET' && req.path === '/v1/models') {
      const data = (opts.models ?? ['test-model']).map((m) => {
        const { id, ...extra } = typeof m === 'string' ? { id: m } : m;
        return { id, object: 'model', created: 0, owned_by: 'pincer-test', ...extra };
      });
      return sendJson(res, 200, { object: 'list', data });
    }
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') {
      return sendJson(res, 404, errorBody(`Unknown request URL: ${req.method} ${req.path}`, 'invalid_request_error'));
    }
    if (!req.body) return sendJson(res, 400, errorBody('The body is not JSON.', 'invalid_request_error'));
    const index = completions++;
    const step = stepFor(script, { body: req.body, index });
    if (step.error) {
      const e = step.error;
      const body = e.body ?? errorBody(e.message ?? `Scripted failure ${e.status}`, e.type ?? ERROR_TYPES[e.status] ?? 'server_error');
      return sendJson(res, e.status, body, retryHeaders(e));
    }
    if (req.body.stream !== true) return sendJson(res, 200, completionOf(step, req.body, index));
    return sendSse(res, req, chunksOf(step, req, index), step);
  });
}

function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

/** The whole streamed response as SSE lines. */
function chunksOf(step: ScriptStep, req: RecordedRequest, index: number): string[] {
  const body = req.body ?? {};
  const id = `chatcmpl-${index}`;
  const model = String(body.model ?? 'test-model');
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  const out = [delta({ role: 'assistant', content: '' })];
  for (const piece of piecesOf(step, 'call', index)) {
    if (piece.kind === 'text') out.push(delta({ content: piece.text }));
    if (piece.kind === 'tool-start') {
      out.push(delta({ tool_calls: [{ index: piece.call, id: piece.id, type: 'function', function: { name: piece.name, arguments: '' } }] }));
    }
    if (piece.kind === 'tool-args') out.push(delta({ tool_calls: [{ index: piece.call, function: { arguments: piece.fragment } }] }));
  }
  if (step.streamError) {
    out.push(`data: ${JSON.stringify({ error: { message: step.streamError.message, type: step.streamError.type, param: null, code: null } })}\n\n`);
    return out;
  }
  if (step.omitFinish) return out;
  out.push(delta({}, FINISH[stopOf(step)]));
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) out.push(chunk([], { usage: usageJson(step, body) }));
  out.push('data: [DONE]\n\n');
  return out;
}

function usageJson(step: ScriptStep, body: Record<string, unknown>) {
  const u = usageOf(step, body);
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    ...(u.cachedInput !== undefined ? { prompt_tokens_details: { cached_tokens: u.cachedInput } } : {}),
  };
}

/** The non-streaming answer: one chat.completion object. */
function completionOf(step: ScriptStep, body: Record<string, unknown>, index: number) {
  const parts = step.parts ?? [];
  const content = parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
  const toolCalls = parts
    .filter((p) => p.kind === 'tool')
    .map((p, call) => ({ id: p.id ?? `call_${index}_${call}`, type: 'function', function: { name: p.name, arguments: p.args } }));
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model: String(body.model ?? 'test-model'),
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: content || null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: FINISH[stopOf(step)],
      },
    ],
    usage: usageJson(step, body),
  };
}

export type { ModelServer, RecordedRequest } from './model-server-base';
