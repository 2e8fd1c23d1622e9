// The provider side of the chat's first token: from the model server starting its reply to the
// agent loop's first text event, through the real OpenAI SDK, the provider and the loop (loopback
// Chat Completions server). chat-first-token (bench/chat-webview.mjs) measures the other side, the
// page rendering a text delta; the two together bound the first token on screen, less the
// extension host → webview postMessage hop, which no bench here measures.
//   chat-provider-first-token  ms, median of 30 after warm-up; goal: with chat-first-token ≤ 50 ms
// Needs `npx tsc -p .` (imports the compiled core and test servers from out/).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (...p) => require(path.join(ROOT, 'out', ...p));
const { runAgentTurn } = out('src', 'core', 'agent', 'agent-loop.js');
const { createOpenAiProvider } = out('src', 'core', 'agent', 'providers', 'openai-provider.js');
const { startOpenAiChatServer } = out('test', 'support', 'openai-chat-server.js');
const { reply, text } = out('test', 'support', 'model-script.js');
const { runtimeWith } = out('test', 'support', 'test-tools.js');
const { existsSync, readFileSync } = await import('node:fs');

const RUNS = 30;
let startedAt = 0;
const server = await startOpenAiChatServer(() => {
  startedAt = performance.now();
  return reply(text('Hello'), text(' there, this is the rest of the answer.'));
});
try {
  const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-bench-0123456789abcdef' });
  const rt = runtimeWith();
  const times = [];
  for (let i = 0; i < RUNS + 5; i++) {
    let first = 0;
    await runAgentTurn({ provider, runtime: rt, model: 'bench' }, {
      sessionKey: `bench:${i}`, agentId: 'default', turnId: `t${i}`, history: [], user: 'hi', system: 'Be brief.', tools: [],
      signal: new AbortController().signal,
      onEvent: (e) => { if (e.type === 'text' && !first) first = performance.now(); },
    });
    if (i >= 5) times.push(first - startedAt);
  }
  const value = Math.round(median(times) * 100) / 100;
  const page = path.join(ROOT, 'bench', 'results', 'chat-first-token.json');
  const pageMs = existsSync(page) ? JSON.parse(readFileSync(page, 'utf8')).value : undefined;
  record({
    name: 'chat-provider-first-token', unit: 'ms', value, goal: '+ chat-first-token <= 50', pass: pageMs !== undefined && value + pageMs <= 50,
    runs: RUNS, statistic: 'median', corpus: 'loopback Chat Completions server, real openai SDK, agent loop, no tools',
    extra: { p95: Math.round(percentile(times, 95) * 100) / 100, pageMs, sumMs: pageMs === undefined ? undefined : Math.round((value + pageMs) * 100) / 100 },
  });
} finally {
  await server.close();
}
