// Protocol messages for the chat tests and the benchmark: sessions of any length with a realistic
// mix (questions, markdown answers with code, tool cards).
import type { ChatMessage, MessageOf, SessionPage, ToWebview } from '../../../src/core/chat/chat-protocol';

export function chatMessages(n: number, prefix = 'm'): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    if (i % 4 === 0) out.push({ role: 'user', id, text: `Question ${i}: what does the function on line ${i} do?` });
    else if (i % 4 === 1) {
      out.push({ role: 'tool', id, call: { callId: `call-${prefix}${i}`, name: 'read_file', args: `{"path":"src/file-${i}.ts"}`, status: 'ok', durationMs: 12 + (i % 50), result: `1\texport function f${i}() {}\n2\t// …` } });
    } else {
      out.push({ role: 'assistant', id, text: `Answer **${i}**: it returns \`f${i}\`.\n\n- first point\n- second point\n\n\`\`\`ts\nexport function f${i}(x: number): number {\n  return x * ${i};\n}\n\`\`\`\n` });
    }
  }
  return out;
}

export function page(key: string, n: number, hasOlder = false, title = `Session ${key}`): SessionPage {
  return { key, title, messages: chatMessages(n, `${key}-`), hasOlder };
}

export function initMessage(session: SessionPage | null, over: Partial<MessageOf<ToWebview, 'init'>> = {}): MessageOf<ToWebview, 'init'> {
  return {
    type: 'init',
    sessions: [
      { key: 's1', title: 'First session', updatedAt: 1_700_000_000_000, messageCount: 3, agentId: 'default' },
      { key: 's2', title: 'Second session', updatedAt: 1_700_000_100_000, messageCount: 8, agentId: 'default' },
    ],
    session,
    models: [
      { id: 'gpt-4.1', name: 'GPT-4.1', source: 'OpenAI-compatible (http://127.0.0.1:11434/v1)' },
      { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', source: 'Anthropic' },
    ],
    agents: [{ id: 'default', name: 'Default' }, { id: 'reviewer', name: 'Reviewer', description: 'Reads, never writes' }],
    model: 'gpt-4.1',
    agent: 'default',
    chips: [{ kind: 'file', path: '/ws/src/app.ts', origin: 'editor' }],
    ...over,
  };
}
