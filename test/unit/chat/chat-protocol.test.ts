// The chat protocol both ways: every message type round-trips (through JSON, as postMessage carries
// it) unchanged; hostile messages are refused whole — wrong types, strings and lists past the caps,
// unknown types and keys, prototype-pollution keys — and never change Object.prototype. Also the page
// HTML (CSP) and the stored-history conversion the host uses.
import assert from 'node:assert/strict';
import { chatCsp, chatHtml } from '../../../src/core/chat/chat-html';
import { chatIdSeq, preview, toChatMessages } from '../../../src/core/chat/chat-history';
import { CHAT_LIMITS, parseToHost, parseToWebview, pastedImageSource, type ToHost, type ToWebview } from '../../../src/core/chat/chat-protocol';
import { chatMessages, initMessage, page } from './chat-fixtures';

const roundTrip = (m: unknown) => JSON.parse(JSON.stringify(m));

const TO_HOST: ToHost[] = [
  { type: 'ready' },
  { type: 'send', text: 'Explain this', chips: [{ kind: 'file', path: '/ws/a.ts' }, { kind: 'selection', path: '/ws/b.ts', range: { startLine: 3, endLine: 9 }, text: 'const x = 1;', origin: 'editor' }] },
  { type: 'send', text: 'What is this?', chips: [], images: [{ name: 'shot.png', mimeType: 'image/png', data: Buffer.from('\x89PNG bytes').toString('base64') }] },
  { type: 'stop' },
  { type: 'new-session' },
  { type: 'setup-action', action: 'local' },
  { type: 'switch-session', key: 'agent:default:abc' },
  { type: 'rename-session', key: 'agent:default:abc', title: 'Refactor' },
  { type: 'delete-session', key: 'agent:default:abc' },
  { type: 'load-older', key: 'agent:default:abc', before: 'm120' },
  { type: 'pick-model', id: 'gpt-4.1' },
  { type: 'pick-agent', id: 'reviewer' },
  { type: 'approve', id: 'ap-1', answer: 'once' },
  { type: 'approve', id: 'ap-2', answer: 'always' },
  { type: 'approve', id: 'ap-3', answer: 'deny' },
  { type: 'review', id: 'rv-1', action: 'accept' },
  { type: 'review', id: 'rv-1', action: 'open' },
  { type: 'copy-code', text: 'npm test' },
  { type: 'insert-code', text: 'const a = 1;\n' },
  { type: 'open-code', text: 'print(1)', language: 'python' },
  { type: 'open-link', url: 'https://example.com/docs?q=1#x' },
  { type: 'mention-query', prefix: 'src/ap' },
  { type: 'mention-query', prefix: '' },
];

const TO_WEBVIEW: ToWebview[] = [
  initMessage(page('s1', 5, true)),
  initMessage(null, { sessions: [], models: [], agents: [], chips: [], model: undefined, agent: undefined }),
  initMessage(page('s1', 2), { live: [{ type: 'assistant-start', turnId: 't1', sessionKey: 's1' }, { type: 'text-delta', turnId: 't1', text: 'Hel' }] }),
  { type: 'session', session: page('s2', 3) },
  { type: 'older', key: 's2', messages: chatMessages(4), hasOlder: false },
  { type: 'assistant-start', turnId: 't1', sessionKey: 's1' },
  { type: 'text-delta', turnId: 't1', text: 'Hello **world**' },
  { type: 'tool-call', turnId: 't1', call: { callId: 'c1', name: 'read_file', args: '{"path":"a.ts"}', status: 'running' } },
  { type: 'tool-call', turnId: 't1', call: { callId: 'c1', name: 'read_file', args: '{"path":"a.ts"}', status: 'ok', durationMs: 12.5, result: '1\tx' } },
  {
    type: 'approval', id: 'ap-1', turnId: 't1', command: 'rm -rf build && npm ci', cwd: '/ws', host: 'terminal', reason: 'Deletes files.',
    parts: [{ text: 'rm -rf build', decision: 'ask', reason: 'deletes a folder', group: 'destructive_ops' }, { text: 'npm ci', decision: 'allow', reason: 'allowlisted' }],
    alwaysOffered: false, alwaysUnavailable: 'rm is never allowed for always',
  },
  { type: 'approval-settled', id: 'ap-1', answer: 'deny', note: 'timed out' },
  { type: 'review', id: 'rv-1', turnId: 't1', path: '/ws/src/a.ts', summary: 'Rename x to y', added: 3, removed: 1 },
  { type: 'review-settled', id: 'rv-1', outcome: 'accepted-with-changes' },
  { type: 'turn-end', turnId: 't1', usage: { input: 1200, output: 300, cached: 1000, costUsd: 0.0042 }, stopReason: 'end' },
  { type: 'turn-end', turnId: 't2', usage: { input: 0, output: 0, cached: 0 }, stopReason: 'error', message: '401 Unauthorized' },
  { type: 'turn-end', turnId: 't3', stopReason: 'error', message: 'No connection' },
  { type: 'setup', servers: [{ name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: 3 }] },
  { type: 'sessions', sessions: [{ key: 's1', title: 'A', updatedAt: 1, messageCount: 0 }], current: 's1' },
  { type: 'pickers', models: [{ id: 'm', name: 'M', source: 'Copilot' }], agents: [], model: 'm' },
  { type: 'context', chips: [{ kind: 'selection', path: '/ws/a.ts', range: { startLine: 1, endLine: 2 }, origin: 'editor' }] },
  { type: 'attach', chips: [{ kind: 'resource', server: 'docs', path: 'docs://guide', text: 'The guide.', origin: 'user' }] },
  { type: 'mention-results', prefix: 'ap', items: [{ path: 'src/app.ts', label: 'app.ts', detail: 'src' }] },
  { type: 'error', message: 'No model is configured.' },
];

function refused(r: { ok: boolean; error?: string }, pattern?: RegExp): void {
  assert.equal(r.ok, false, 'expected the message to be refused');
  if (pattern) assert.match(r.error ?? '', pattern);
}

describe('chat protocol', () => {
  describe('round trips', () => {
    for (const m of TO_HOST) {
      it(`webview → host: ${m.type}${'answer' in m ? ` ${m.answer}` : ''}`, () => {
        const r = parseToHost(roundTrip(m));
        assert.ok(r.ok, r.ok ? '' : r.error);
        assert.deepEqual(r.message, m);
      });
    }
    for (const m of TO_WEBVIEW) {
      it(`host → webview: ${m.type}`, () => {
        const r = parseToWebview(roundTrip(m));
        assert.ok(r.ok, r.ok ? '' : r.error);
        assert.deepEqual(r.message, roundTrip(m));
      });
    }
    it('the two directions do not accept each other\'s messages', () => {
      refused(parseToHost({ type: 'init' }));
      refused(parseToWebview({ type: 'ready' }));
      refused(parseToWebview({ type: 'send', text: 'x', chips: [] }));
    });
  });

  describe('hostile messages', () => {
    it('refuses what is not a message: null, strings, arrays, numbers, no type, unknown types', () => {
      for (const x of [null, undefined, 'ready', 42, [], [{ type: 'ready' }], {}, { type: 'READY' }, { type: 'eval', code: 'x' }, { type: 7 }]) refused(parseToHost(x));
      refused(parseToWebview({ type: 'exec', command: 'rm -rf /' }), /type|message/);
    });

    it('refuses wrong field types', () => {
      refused(parseToHost({ type: 'send', text: 42, chips: [] }), /text/);
      refused(parseToHost({ type: 'send', text: 'x' }), /chips/);
      refused(parseToHost({ type: 'approve', id: 'a', answer: 'yes' }), /answer/);
      refused(parseToHost({ type: 'review', id: 'a', action: 'apply' }), /action/);
      refused(parseToHost({ type: 'send', text: 'x', chips: [{ kind: 'folder', path: '/' }] }), /kind/);
      refused(parseToHost({ type: 'send', text: 'x', chips: [{ kind: 'selection', path: '/a', range: { startLine: -1, endLine: 2 } }] }));
      refused(parseToHost({ type: 'send', text: 'x', chips: [{ kind: 'selection', path: '/a', range: { startLine: 1.5, endLine: 2 } }] }));
      refused(parseToWebview({ type: 'turn-end', turnId: 't', usage: { input: Infinity, output: 0, cached: 0 }, stopReason: 'end' }));
      refused(parseToWebview({ type: 'turn-end', turnId: 't', usage: { input: NaN, output: 0, cached: 0 }, stopReason: 'end' }));
      refused(parseToWebview({ type: 'tool-call', turnId: 't', call: { callId: 'c', name: 'x', args: '', status: 'exploded' } }), /status/);
      refused(parseToHost({ type: 'setup-action', action: 'run-command' }), /action/);
      refused(parseToWebview({ type: 'setup', servers: [{ name: 'Ollama', baseUrl: 'javascript:alert(1)', models: 1 }] }), /baseUrl/);
      refused(parseToWebview({ type: 'session', session: { key: 's', title: 't', hasOlder: false, messages: [{ role: 'approval', id: 'm1:k0', approval: { command: 'x', cwd: '/', host: 'h', reason: 'r', answer: 'maybe' } }] } }));
      refused(parseToWebview({ type: 'tool-call', turnId: 't', call: { callId: 'c', name: 'x', args: '', status: 'ok', durationMs: -1 } }));
      refused(parseToWebview({ type: 'session', session: { key: 's', title: 't', messages: [{ role: 'system', id: 'x', text: 'y' }], hasOlder: false } }), /role|messages/);
    });

    it('refuses empty ids, empty sends and empty paths', () => {
      refused(parseToHost({ type: 'switch-session', key: '' }));
      refused(parseToHost({ type: 'send', text: '', chips: [] }), /text: empty \(a message needs text or an image\)/);
      refused(parseToHost({ type: 'send', text: '', chips: [], images: [] }), /text: empty/);
      // An image alone is a message.
      assert.ok(parseToHost({ type: 'send', text: '', chips: [], images: [{ name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] }).ok);
      refused(parseToHost({ type: 'rename-session', key: 'k', title: '' }));
      refused(parseToHost({ type: 'send', text: 'x', chips: [{ kind: 'file', path: '' }] }));
    });

    it('refuses strings and lists past the caps, and accepts them at the caps', () => {
      const at = (n: number) => 'x'.repeat(n);
      assert.ok(parseToHost({ type: 'send', text: at(CHAT_LIMITS.sendText), chips: [] }).ok);
      refused(parseToHost({ type: 'send', text: at(CHAT_LIMITS.sendText + 1), chips: [] }), /text/);
      refused(parseToHost({ type: 'copy-code', text: at(CHAT_LIMITS.text + 1) }));
      refused(parseToHost({ type: 'switch-session', key: at(CHAT_LIMITS.id + 1) }));
      refused(parseToHost({ type: 'mention-query', prefix: at(CHAT_LIMITS.mentionPrefix + 1) }));
      refused(parseToHost({ type: 'open-code', text: 'x', language: at(101) }));
      refused(parseToHost({ type: 'send', text: 'x', chips: Array.from({ length: CHAT_LIMITS.chips + 1 }, () => ({ kind: 'file', path: '/a' })) }), /chips/);
      assert.ok(parseToWebview({ type: 'text-delta', turnId: 't', text: at(CHAT_LIMITS.delta) }).ok);
      refused(parseToWebview({ type: 'text-delta', turnId: 't', text: at(CHAT_LIMITS.delta + 1) }));
      refused(parseToWebview({ type: 'error', message: at(CHAT_LIMITS.sentence + 1) }));
      refused(parseToWebview({ type: 'older', key: 'k', messages: chatMessages(CHAT_LIMITS.messagesPerPage + 1), hasOlder: true }), /messages/);
      refused(parseToWebview({ type: 'tool-call', turnId: 't', call: { callId: 'c', name: 'x', args: at(CHAT_LIMITS.preview + 1), status: 'ok' } }));
    });

    it('refuses 10 MB in any string field', () => {
      // The work must not grow with more than the cap: bounded by the test's timeout.
      const huge = 'A'.repeat(10 * 1024 * 1024);
      refused(parseToHost({ type: 'send', text: huge, chips: [] }));
      refused(parseToWebview({ type: 'text-delta', turnId: 't', text: huge }));
      refused(parseToWebview(initMessage(null, { chips: [{ kind: 'file', path: huge }] })));
    });

    it('refuses unknown keys, __proto__, constructor and prototype anywhere, and leaves Object.prototype alone', () => {
      const hostile = [
        '{"type":"ready","__proto__":{"polluted":"yes"}}',
        '{"type":"send","text":"x","chips":[{"kind":"file","path":"/a","__proto__":{"polluted":"yes"}}]}',
        '{"type":"send","text":"x","chips":[],"constructor":{"prototype":{"polluted":"yes"}}}',
        '{"type":"approve","id":"a","answer":"once","prototype":{"polluted":"yes"}}',
        '{"type":"stop","extra":1}',
      ];
      for (const json of hostile) refused(parseToHost(JSON.parse(json)), /key|unrecognized|Unrecognized/i);
      const toWebview = [
        '{"type":"error","message":"x","__proto__":{"polluted":"yes"}}',
        '{"type":"tool-call","turnId":"t","call":{"callId":"c","name":"n","args":"","status":"ok","__proto__":{"polluted":"yes"}}}',
        '{"type":"session","session":{"key":"s","title":"t","hasOlder":false,"messages":[{"role":"user","id":"1","text":"x","constructor":{}}]}}',
      ];
      for (const json of toWebview) refused(parseToWebview(JSON.parse(json)));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    });

    it('hands back fresh plain objects, never the input', () => {
      const input = { type: 'send', text: 'x', chips: [{ kind: 'file', path: '/a' }] };
      const r = parseToHost(input);
      assert.ok(r.ok);
      assert.notEqual(r.message, input);
      assert.equal(Object.getPrototypeOf(r.message), Object.prototype);
    });

    it('open-link takes http(s) URLs only', () => {
      for (const url of ['https://a.example/x', 'http://127.0.0.1:8080/']) assert.ok(parseToHost({ type: 'open-link', url }).ok, url);
      for (const url of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>', 'vscode://x', 'https://a b', ' https://a', 'command:workbench.action.terminal.new']) {
        refused(parseToHost({ type: 'open-link', url }), /url/);
      }
    });

    it('a pasted image: PNG, JPEG, GIF or WebP in base64, at most 20 MB of bytes and 4 images a message', () => {
      const send = (images: unknown) => parseToHost({ type: 'send', text: 'see', chips: [], images });
      const img = (over: Record<string, unknown> = {}) => ({ name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=', ...over });
      for (const mimeType of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) assert.ok(send([img({ mimeType })]).ok, mimeType);
      assert.ok(send([img(), img(), img(), img()]).ok);
      refused(send([img(), img(), img(), img(), img()]), /images: too many \(at most 4\)/);
      for (const mimeType of ['image/svg+xml', 'text/html', 'application/pdf', 'image/bmp', 'IMAGE/PNG', '']) refused(send([img({ mimeType })]), /mimeType/);
      for (const data of ['not base64!', 'iVBORw0KGgo', '<script>', 'iVBO\nRw0K', 'iVBORw0KGgo=====', 'data:image/png;base64,iVBORw0KGgo=', '']) refused(send([img({ data })]), /data/);
      for (const name of ['', 'x'.repeat(CHAT_LIMITS.label + 1)]) refused(send([img({ name })]), /name/);
      refused(send([{ ...img(), path: '/etc/passwd' }]), /unknown key/);
      refused(send([img({ data: 123 })]), /data/);
      const max = Math.ceil(CHAT_LIMITS.imageBytes / 3) * 4;
      assert.ok(send([img({ data: 'A'.repeat(max) })]).ok, 'exactly 20 MB of bytes is taken');
      refused(send([img({ data: 'A'.repeat(max + 4) })]), /data: too long/);
    });

    it('says which field is wrong, without echoing the value', () => {
      const r = parseToHost({ type: 'send', text: 'SECRET-'.repeat(40_000), chips: [] });
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.error.length < 500 && !r.error.includes('SECRET-'), r.ok ? '' : r.error);
    });
  });

  describe('page html', () => {
    const uris = { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'abcdefghijklmnopqrstuvwx', script: 'https://x/chat.js', style: 'https://x/chat.css', codicons: 'https://x/codicon.css' };
    it('has a strict CSP: nonce scripts, own styles and fonts, images from blob: only, nothing else', () => {
      const csp = chatCsp(uris.cspSource, uris.nonce);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /(^|; )img-src blob:(;|$)/);
      assert.doesNotMatch(csp, /data:|https?:\/\/\*|img-src [^;]*(https|cspSource|vscode)/);
      assert.match(csp, /script-src 'nonce-abcdefghijklmnopqrstuvwx'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*;/);
      const html = chatHtml(uris);
      assert.match(html, /<script nonce="abcdefghijklmnopqrstuvwx" src="https:\/\/x\/chat.js">/);
      assert.match(html, /id="vscode-codicon-stylesheet"/);
    });
    it('refuses a weak nonce and a cspSource that would add directives; escapes the URIs', () => {
      assert.throws(() => chatCsp(uris.cspSource, 'short'));
      assert.throws(() => chatCsp(uris.cspSource, 'abcdefghijklmnop"><script>'));
      assert.throws(() => chatCsp("https://x; script-src 'unsafe-inline'", uris.nonce));
      assert.throws(() => chatCsp('', uris.nonce));
      const html = chatHtml({ ...uris, script: 'https://x/"><script>alert(1)</script>' });
      assert.doesNotMatch(html, /<script>alert/);
    });
  });

  describe('stored history', () => {
    it('shows user and assistant text and one card per tool call with its result, all valid for the protocol', () => {
      const msgs = toChatMessages([
        { seq: 1, role: 'user', parts: [{ type: 'text', text: 'Read a.ts' }] },
        { seq: 2, role: 'assistant', parts: [{ type: 'text', text: 'Reading.' }, { type: 'tool-call', id: 'c1', name: 'read_file', args: { path: 'a.ts' } }, { type: 'tool-call', id: 'c2', name: 'exec', args: { command: 'ls' } }] },
        { seq: 3, role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 'read_file', content: '1\tx', isError: false }, { type: 'tool-result', id: 'c2', name: 'exec', content: 'denied', isError: true }] },
        { seq: 4, role: 'system', parts: [{ type: 'text', text: 'not shown' }] },
        { seq: 5, role: 'assistant', parts: [{ type: 'tool-call', id: 'c3', name: 'grep', args: 'cut off' }] },
      ]);
      assert.deepEqual(msgs.map((m) => `${m.role}:${m.id}`), ['user:m1', 'assistant:m2', 'tool:m2:t0', 'tool:m2:t1', 'tool:m5:t0']);
      const calls = msgs.flatMap((m) => (m.role === 'tool' ? [m.call] : []));
      assert.deepEqual(calls.map((c) => [c.name, c.status, c.args]), [['read_file', 'ok', '{"path":"a.ts"}'], ['exec', 'error', '{"command":"ls"}'], ['grep', 'error', 'cut off']]);
      assert.equal(calls[0].result, '1\tx');
      assert.ok(parseToWebview({ type: 'session', session: { key: 's', title: 't', messages: msgs, hasOlder: false } }).ok);
      assert.equal(chatIdSeq('m2:t1'), 2);
      assert.equal(chatIdSeq('local-1'), undefined);
    });

    it('a user message with pasted images names them by their source, with their thumbnails; one without has no images field', () => {
      const image = { type: 'image' as const, mimeType: 'image/png' as const, data: 'iVBORw0KGgo=', width: 1, height: 1, bytes: 8, source: pastedImageSource('shot<b>.png') };
      const msgs = toChatMessages([
        { seq: 1, role: 'user', parts: [{ type: 'text', text: 'What is this?' }, image, { ...image, source: pastedImageSource('two.png') }] },
        { seq: 2, role: 'user', parts: [{ type: 'text', text: 'And now?' }] },
      ]);
      assert.deepEqual(msgs, [
        { role: 'user', id: 'm1', text: 'What is this?', images: ['pasted image "shot<b>.png"', 'pasted image "two.png"'], thumbnails: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }, { mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
        { role: 'user', id: 'm2', text: 'And now?' },
      ]);
      assert.ok(parseToWebview({ type: 'session', session: { key: 's', title: 't', messages: msgs, hasOlder: false } }).ok);
    });
    it('joins the marks in: durations and denials on their cards, settled cards and footers after their message; broken marks are dropped', () => {
      const msgs = toChatMessages([
        { seq: 1, role: 'user', parts: [{ type: 'text', text: 'Run the tests' }] },
        { seq: 2, role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'exec', args: { command: 'npm test' } }] },
        { seq: 3, role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 'exec', content: 'The person said no.', isError: true }] },
        { seq: 4, role: 'assistant', parts: [{ type: 'text', text: 'Not run.' }] },
      ], {}, [
        { seq: 2, kind: 'approval', data: { command: 'npm test', cwd: '/ws', host: 'terminal', reason: 'scripts', answer: 'deny' } },
        { seq: 2, kind: 'approval', data: { pending: 'ap-2' } },
        { seq: 3, kind: 'tool', data: { callId: 'c1', status: 'denied', durationMs: 840 } },
        { seq: 3, kind: 'review', data: { path: 'a.ts', summary: 'change by edit', added: 1, removed: 0, outcome: 'rejected' } },
        { seq: 4, kind: 'turn-end', data: { stopReason: 'end', usage: { input: 10, output: 2, cached: 0 }, durationMs: 1200 } },
        { seq: 4, kind: 'turn-end', data: { stopReason: 'exploded' } },
      ]);
      assert.deepEqual(msgs.map((m) => `${m.role}:${m.id}`), ['user:m1', 'tool:m2:t0', 'approval:m2:k0', 'review:m3:k0', 'assistant:m4', 'turn-end:m4:k0']);
      const call = msgs.find((m) => m.role === 'tool');
      assert.deepEqual(call?.role === 'tool' && [call.call.status, call.call.durationMs], ['denied', 840]);
      assert.ok(parseToWebview({ type: 'session', session: { key: 's', title: 't', messages: msgs, hasOlder: false } }).ok);
      assert.equal(chatIdSeq('m4:k0'), 4);
    });
    it('cuts long texts and results to the caps, saying so', () => {
      const big = 'y'.repeat(CHAT_LIMITS.text + 10);
      const msgs = toChatMessages([
        { seq: 1, role: 'assistant', parts: [{ type: 'text', text: big }, { type: 'tool-call', id: 'c', name: 'read_file', args: { x: 'z'.repeat(50_000) } }] },
        { seq: 2, role: 'tool', parts: [{ type: 'tool-result', id: 'c', name: 'read_file', content: 'r'.repeat(50_000), isError: false }] },
      ]);
      assert.ok(parseToWebview({ type: 'older', key: 's', messages: msgs, hasOlder: false }).ok);
      assert.match(preview('abcdefghij'.repeat(10), 50), /more characters\)$/);
      assert.equal(preview('abcdefghij'.repeat(10), 50).length, 50);
    });
  });
});
