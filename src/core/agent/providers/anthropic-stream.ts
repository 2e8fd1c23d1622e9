// Messages API stream events into port events. Text deltas pass straight on; a tool_use block gathers
// its input_json_delta fragments and is emitted whole at its content_block_stop; usage starts in
// message_start (input and cache counts) and message_delta updates it (cumulative output tokens);
// message_delta carries the stop reason.
import type { MessageDeltaUsage, RawMessageStreamEvent, Usage } from '@anthropic-ai/sdk/resources/messages';
import { ModelError, type ModelEvent, type StopReason, type TokenUsage } from '../model-types';
import { parseToolArgs } from './tool-args';

interface PendingToolUse {
  id: string;
  name: string;
  json: string;
  /** The input the block started with (the API sends {} and streams the rest). */
  initial: unknown;
}

type UsageKey = 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens';
type UsageCounts = Partial<Record<UsageKey, number>>;

export class MessageStreamAssembler {
  private readonly toolUses = new Map<number, PendingToolUse>();
  private usage: UsageCounts = {};
  private stop: string | null | undefined;
  private ended = false;
  private sawCalls = false;

  constructor(
    private readonly fromWire: (name: string) => string,
    private readonly where: string,
  ) {}

  push(event: RawMessageStreamEvent): ModelEvent[] {
    switch (event.type) {
      case 'message_start':
        this.mergeUsage(event.message.usage);
        return [];
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') return block.text ? [{ type: 'text', text: block.text }] : [];
        if (block.type === 'tool_use') this.toolUses.set(event.index, { id: block.id, name: block.name, json: '', initial: block.input });
        return [];
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') return delta.text ? [{ type: 'text', text: delta.text }] : [];
        if (delta.type === 'input_json_delta') {
          const use = this.toolUses.get(event.index);
          if (use) use.json += delta.partial_json;
        }
        // Thinking and citations are not asked for; anything else is not Pincer's to show.
        return [];
      }
      case 'content_block_stop': {
        const use = this.toolUses.get(event.index);
        if (!use) return [];
        this.toolUses.delete(event.index);
        return [this.toolCall(use, false)];
      }
      case 'message_delta':
        this.stop = event.delta.stop_reason ?? this.stop;
        this.mergeUsage(event.usage);
        return [];
      case 'message_stop':
        this.ended = true;
        return [];
      default:
        return [];
    }
  }

  /** Calls left open, usage and the stop, once the stream has ended without error or abort. */
  finish(): ModelEvent[] {
    if (!this.ended && !this.stop) {
      throw new ModelError(`${this.where}: the response stream ended before the model finished (no message_stop).`, true);
    }
    const cutOff = this.stop === 'max_tokens' || this.stop === 'model_context_window_exceeded';
    // A block the limit interrupted before its content_block_stop.
    const events: ModelEvent[] = [...this.toolUses.entries()].sort(([a], [b]) => a - b).map(([, use]) => this.toolCall(use, cutOff));
    const usage = this.tokenUsage();
    if (usage) events.push({ type: 'usage', usage });
    events.push({ type: 'stop', reason: stopReason(this.stop, this.sawCalls) });
    return events;
  }

  private toolCall(use: PendingToolUse, cutOff: boolean): ModelEvent {
    this.sawCalls = true;
    // No fragments: the block's own input is the whole of it (a tool without parameters).
    const { args, malformed } = use.json === '' && !cutOff ? { args: use.initial ?? {}, malformed: undefined } : parseToolArgs(use.json, cutOff);
    return {
      type: 'tool-call',
      call: { type: 'tool-call', id: use.id, name: this.fromWire(use.name), args, ...(malformed !== undefined ? { malformed } : {}) },
    };
  }

  private mergeUsage(u: Partial<Usage> | MessageDeltaUsage | null | undefined): void {
    if (!u) return;
    for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
      const v = u[key];
      if (typeof v === 'number') this.usage[key] = v;
    }
  }

  /**
   * inputTokens counts the whole prompt, as OpenAI's prompt_tokens does: Anthropic's input_tokens
   * leaves out what was read from or written to the cache.
   */
  private tokenUsage(): TokenUsage | undefined {
    const u = this.usage;
    if (u.input_tokens === undefined && u.output_tokens === undefined) return undefined;
    const cacheRead = u.cache_read_input_tokens;
    const usage: TokenUsage = {
      inputTokens: (u.input_tokens ?? 0) + (cacheRead ?? 0) + (u.cache_creation_input_tokens ?? 0),
      outputTokens: u.output_tokens ?? 0,
    };
    if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
    return usage;
  }
}

function stopReason(stop: string | null | undefined, sawCalls: boolean): StopReason {
  switch (stop) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    case 'tool_use':
      return sawCalls ? 'tool-calls' : 'end';
    default:
      // end_turn, stop_sequence, pause_turn (server tools only, which Pincer does not send).
      return sawCalls ? 'tool-calls' : 'end';
  }
}
