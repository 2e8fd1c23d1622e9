// A real in-process ModelProvider that plays a script: each request gets the next reply — text in
// chunks, tool calls, usage, a stop, pauses that honour the signal, or a thrown ModelError — and every
// request it got is recorded (messages deep-copied as they were sent), so tests can check what the
// loop sent as well as what it did with the answers.
import type { ModelEvent, ModelInfo, ModelMessage, ModelProvider, ModelRequest, ModelTool, StopReason, TokenUsage, ToolCallPart } from '../../src/core/agent/model-types';

export type Action =
  | { text: string }
  | { call: Omit<ToolCallPart, 'type'> }
  | { usage: TokenUsage }
  | { stop: StopReason; message?: string }
  /** Pauses; ends the stream with stop 'cancelled' when the signal aborts (as the port asks). */
  | { wait: number }
  /** Waits forever and ignores the signal: a provider that never notices a cancel. `onHang` runs as it starts. */
  | { hang: true; onHang?: () => void }
  | { throw: Error };

/** A reply: its actions, or a function of the request that returns them. */
export type Reply = Action[] | ((req: RecordedRequest) => Action[]);

export interface RecordedRequest {
  model: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  maxOutputTokens?: number;
  temperature?: number;
}

const u = (input: number, output: number, cached?: number): TokenUsage => ({ inputTokens: input, outputTokens: output, ...(cached !== undefined ? { cachedInputTokens: cached } : {}) });

/** A final answer: the text in chunks, usage, stop 'end'. */
export function answer(text: string | string[], usage: TokenUsage = u(10, 5)): Action[] {
  return [...(Array.isArray(text) ? text : [text]).map((t) => ({ text: t })), { usage }, { stop: 'end' }];
}

/** Tool calls (ids call-1, call-2 … unless given), optionally after some text; stop 'tool-calls'. */
export function toolCalls(calls: { name: string; args: unknown; id?: string; malformed?: string }[], opts: { text?: string; usage?: TokenUsage } = {}): Action[] {
  return [
    ...(opts.text ? [{ text: opts.text }] : []),
    ...calls.map((c, i) => ({ call: { id: c.id ?? `call-${i + 1}`, name: c.name, args: c.args, ...(c.malformed !== undefined ? { malformed: c.malformed } : {}) } })),
    { usage: opts.usage ?? u(10, 5) },
    { stop: 'tool-calls' as const },
  ];
}

export { u as usage };

export class ScriptedProvider implements ModelProvider {
  readonly requests: RecordedRequest[] = [];
  /** Signals of the requests, to check they were aborted. */
  readonly signals: AbortSignal[] = [];
  private next = 0;

  constructor(private readonly script: Reply[], readonly id = 'scripted') {}

  get remaining(): number {
    return this.script.length - this.next;
  }

  async listModels(): Promise<ModelInfo[]> {
    return [{ id: 'scripted-1', source: 'test script', contextTokens: 100_000 }];
  }

  async *stream(req: ModelRequest): AsyncIterable<ModelEvent> {
    const recorded: RecordedRequest = structuredClone({
      model: req.model, messages: req.messages, tools: req.tools,
      ...(req.maxOutputTokens !== undefined ? { maxOutputTokens: req.maxOutputTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    });
    this.requests.push(recorded);
    this.signals.push(req.signal);
    const reply = this.script[this.next++];
    if (!reply) throw new Error(`The script has no reply for request ${this.requests.length}.`);
    const actions = typeof reply === 'function' ? reply(recorded) : reply;
    for (const a of actions) {
      if ('wait' in a) {
        const aborted = await pause(a.wait, req.signal);
        if (aborted) {
          yield { type: 'stop', reason: 'cancelled' };
          return;
        }
      } else if ('hang' in a) {
        a.onHang?.();
        await new Promise<never>(() => undefined);
      } else if ('throw' in a) {
        throw a.throw;
      } else if ('text' in a) {
        yield { type: 'text', text: a.text };
      } else if ('call' in a) {
        yield { type: 'tool-call', call: { type: 'tool-call', ...a.call } };
      } else if ('usage' in a) {
        yield { type: 'usage', usage: a.usage };
      } else {
        yield { type: 'stop', reason: a.stop, ...(a.message ? { message: a.message } : {}) };
        return;
      }
    }
  }
}

/** Resolves true if the signal aborted before `ms` passed. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(true);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
