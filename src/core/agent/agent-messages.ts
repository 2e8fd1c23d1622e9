// Building the messages a turn sends and adds. One invariant matters to every provider: each tool
// call of an assistant message is answered by exactly one tool result before the next user or
// assistant message (OpenAI and Anthropic reject the request otherwise). The loop keeps it for what
// it adds — a call that never ran is answered with why — and repairs history that broke it (a turn
// cut short by a crash, before its results were stored).
import type { ModelMessage, ToolCallPart, ToolResultPart } from './model-types';

export function systemMessage(text: string): ModelMessage {
  return { role: 'system', parts: [{ type: 'text', text }] };
}

export function userMessage(user: string | ModelMessage): ModelMessage {
  return typeof user === 'string' ? { role: 'user', parts: [{ type: 'text', text: user }] } : { ...user, role: 'user' };
}

/** The assistant's reply as one message: its text, then its tool calls; undefined when it said nothing. */
export function assistantMessage(text: string, calls: readonly ToolCallPart[]): ModelMessage | undefined {
  const parts: ModelMessage['parts'] = [];
  if (text) parts.push({ type: 'text', text });
  parts.push(...calls);
  return parts.length ? { role: 'assistant', parts } : undefined;
}

/** One tool message per result, so a session can store (and a UI show) each call on its own. */
export function toolMessage(result: ToolResultPart): ModelMessage {
  return { role: 'tool', parts: [result] };
}

export function notRun(call: ToolCallPart, why: string): ToolResultPart {
  return { type: 'tool-result', id: call.id, name: call.name, content: `${call.name} did not run: ${why}`, isError: true };
}

/**
 * Gives every call an id that is non-empty and unique within the response (results are matched by
 * id); a provider's own ids are kept whenever they already are. The made-up ids are deterministic.
 */
export function withCallIds(calls: readonly ToolCallPart[], iteration: number): ToolCallPart[] {
  const seen = new Set<string>();
  return calls.map((c, i) => {
    let id = typeof c.id === 'string' && c.id ? c.id : `call_${iteration}_${i}`;
    if (seen.has(id)) id = `${id}_${i}`;
    seen.add(id);
    return id === c.id ? c : { ...c, id };
  });
}

const INTERRUPTED = 'the conversation was interrupted before this call finished; call it again if you still need it.';

/**
 * History as providers accept it: unanswered tool calls get a "did not run" result right after their
 * assistant message, and tool results that answer no call are dropped.
 */
export function repairHistory(history: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  let pending: ToolCallPart[] = [];
  const answerPending = () => {
    for (const call of pending) out.push(toolMessage(notRun(call, INTERRUPTED)));
    pending = [];
  };
  for (const m of history) {
    if (m.role === 'tool') {
      const parts = m.parts.filter((p): p is ToolResultPart => {
        if (p.type !== 'tool-result') return false;
        const i = pending.findIndex((c) => c.id === p.id);
        if (i < 0) return false;
        pending.splice(i, 1);
        return true;
      });
      if (parts.length === m.parts.length) out.push(m);
      else if (parts.length) out.push({ ...m, parts });
      continue;
    }
    answerPending();
    out.push(m);
    if (m.role === 'assistant') pending = m.parts.filter((p): p is ToolCallPart => p.type === 'tool-call');
  }
  answerPending();
  return out;
}
