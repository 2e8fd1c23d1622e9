// Chat Completions stream chunks into port events. Text is passed on as it arrives; tool calls come in
// fragments keyed by index (the id and name once, the arguments in pieces, parallel calls possibly
// interleaved) and are emitted whole when the response ends, in index order; usage arrives in a last
// chunk with no choices (stream_options.include_usage).
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { ModelError, type ModelEvent, type StopReason, type TokenUsage } from '../model-types';
import { parseToolArgs } from './tool-args';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

export class ChatStreamAssembler {
  private readonly calls = new Map<number, PendingCall>();
  private lastIndex = -1;
  private finishReason: string | undefined;
  private usage: TokenUsage | undefined;

  /** @param fromWire maps a wire tool name back to Pincer's; @param where names the server in errors */
  constructor(
    private readonly fromWire: (name: string) => string,
    private readonly where: string,
  ) {}

  /** The events one chunk yields at once (text); the rest waits for finish(). */
  push(chunk: ChatCompletionChunk): ModelEvent[] {
    const events: ModelEvent[] = [];
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      // One completion is asked for (n = 1); a server that sends more is not followed past the first.
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') events.push({ type: 'text', text: delta.content });
      for (const fragment of delta.tool_calls ?? []) this.addFragment(fragment);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  /** Tool calls, usage and the stop, once the stream has ended without error or abort. */
  finish(): ModelEvent[] {
    if (this.finishReason === undefined) {
      throw new ModelError(`${this.where}: the response stream ended before the model finished (no finish_reason).`, true);
    }
    const cutOff = this.finishReason === 'length';
    const events: ModelEvent[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        const { args, malformed } = parseToolArgs(call.args, cutOff);
        return {
          type: 'tool-call',
          call: {
            type: 'tool-call',
            // Some local servers send no id; the result must carry one, so it is made up per index.
            id: call.id || `call_${index}`,
            name: this.fromWire(call.name),
            args,
            ...(malformed !== undefined ? { malformed } : {}),
          },
        };
      });
    if (this.usage) events.push({ type: 'usage', usage: this.usage });
    events.push({ type: 'stop', reason: stopReason(this.finishReason, this.calls.size > 0) });
    return events;
  }

  private addFragment(fragment: ToolCallDelta): void {
    const index = this.indexOf(fragment);
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (fragment.id && !call.id) call.id = fragment.id;
    const name = fragment.function?.name;
    // Servers send the name once; some repeat it whole in every fragment, a few split it.
    if (name && name !== call.name) call.name = call.name && !name.startsWith(call.name) ? call.name + name : name;
    if (fragment.function?.arguments) call.args += fragment.function.arguments;
  }

  /** Servers that omit `index` send each call whole or continue the last one; a new id starts a new call. */
  private indexOf(fragment: ToolCallDelta): number {
    if (typeof fragment.index === 'number') return fragment.index;
    const last = this.calls.get(this.lastIndex);
    if (last && (!fragment.id || fragment.id === last.id)) return this.lastIndex;
    return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
  }
}

function toUsage(u: CompletionUsage): TokenUsage {
  const usage: TokenUsage = { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') usage.cachedInputTokens = cached;
  return usage;
}

function stopReason(finish: string, hasCalls: boolean): StopReason {
  switch (finish) {
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return hasCalls ? 'tool-calls' : 'end';
    default:
      // 'stop' (some local servers say it even after tool calls) and anything unknown.
      return hasCalls ? 'tool-calls' : 'end';
  }
}
