// What the front ends show of children, from a real manager: a parent's chat turn against the
// loopback OpenAI server spawns two children that call a tool and answer; the chat's cards (folded
// from the manager's events) and the Subagents view's rows (from its tree) say what happened, pass
// the chat protocol, and a stored transcript places each card where it was shown, once.
import assert from 'node:assert/strict';
import { toChatMessages } from '../../../src/core/chat/chat-history';
import { parseToWebview } from '../../../src/core/chat/chat-protocol';
import { SubagentCardBook } from '../../../src/core/subagents/subagent-cards';
import { actionsOf, childRow, groupBySession, transcriptMarkdown } from '../../../src/core/subagents/subagent-tree-model';
import type { SubagentRecord } from '../../../src/core/subagents/types';
import { reply, text, toolCall } from '../../support/model-script';
import { rigPerTest, until } from './subagent-rig';

describe('subagents: cards and the tree view model', () => {
  const rigs = rigPerTest();

  it('two children spawned in parallel: their cards show tool calls, tokens and results; the tree groups them under the session', async () => {
    const r = await rigs.start({
      roles: {
        parent: (_req, n) => (n === 0
          ? reply(toolCall('spawn', { action: 'spawn', task: 'Check A', label: 'alpha' }, 'c1'), toolCall('spawn', { action: 'spawn', task: 'Check B' }, 'c2'))
          : n === 1 ? reply(toolCall('spawn', { action: 'wait' }, 'c3')) : reply(text('Both checked.'))),
        child: (task, _req, n) => (n === 0 ? reply(toolCall('echo', { text: `looked at ${task}` })) : { ...reply(text(`${task}: fine`)), usage: { input: 100, output: 5 } }),
      },
    });
    const book = new SubagentCardBook(() => r.clock.now());
    r.manager.onEvent((e) => book.apply(e));
    const key = await r.session();
    const turn = await r.turn(key, 'Check A and B with two children');
    assert.equal(turn.stopReason, 'end');
    const records = r.manager.list({ parentSessionKey: key });
    assert.equal(records.length, 2);
    for (const rec of records) {
      const card = book.card(rec);
      assert.equal(card.status, 'done');
      assert.deepEqual(card.tools.map((t) => [t.name, t.status]), [['echo', 'ok']]);
      assert.match(card.tools[0].args, /looked at Check [AB]/);
      assert.equal(card.result, `${rec.task}: fine`);
      assert.ok(card.usage.input >= 100 && card.usage.output >= 5);
      // The card passes the protocol as the page checks it.
      assert.equal(parseToWebview({ type: 'subagent', turnId: 't1', child: card }).ok, true);
    }
    assert.equal(book.card(records.find((x) => x.label === 'alpha')!).label, 'alpha');

    const groups = groupBySession(r.manager.tree());
    assert.deepEqual(groups.map((g) => [g.sessionKey, g.children.map((c) => c.record.task).sort()]), [[key, ['Check A', 'Check B']]]);
    const row = childRow(records[0], book.durationOf(records[0]));
    assert.match(row.description, /^done · \d[\d,]* tokens · \d/);
    assert.equal(row.actions, 'done');
    assert.match(row.tooltip, /Result: Check [AB]: fine/);

    // Marks where the cards were shown: each card in its place with its latest state, a repeat mark dropped.
    const [a, b] = records;
    await r.sessions.mark(key, 'subagent', { id: a.id });
    await r.sessions.mark(key, 'subagent', { id: b.id });
    await r.sessions.mark(key, 'subagent', { id: a.id });
    await r.sessions.mark(key, 'subagent', { id: 'sa-gone' });
    const msgs = toChatMessages(await r.sessions.messages(key), { subagentCard: (id) => { const x = r.manager.get(id); return x && book.card(x); } }, await r.sessions.marks(key));
    const cards = msgs.filter((m) => m.role === 'subagent');
    assert.deepEqual(cards.map((m) => m.role === 'subagent' && [m.child.id, m.child.status]), [[a.id, 'done'], [b.id, 'done']]);
    assert.equal(msgs.at(-1)?.role, 'subagent', 'placed after the message that was last when they were marked');
    assert.equal(parseToWebview({ type: 'session', session: { key, title: 't', hasOlder: false, messages: msgs } }).ok, true);
    // Without the manager (no card for the id) the mark shows nothing rather than a stale card.
    assert.equal(toChatMessages(await r.sessions.messages(key), {}, await r.sessions.marks(key)).filter((m) => m.role === 'subagent').length, 0);
  });

  it('a running child\'s duration counts its current run on the clock; cancelled, its cut-off tool call stops spinning', async () => {
    const r = await rigs.start({
      roles: {
        parent: () => reply(text('unused')),
        child: () => reply(toolCall('sleep', { ms: 60_000 })),
      },
    });
    const book = new SubagentCardBook(() => r.clock.now());
    r.manager.onEvent((e) => book.apply(e));
    const key = await r.session();
    const child = await r.manager.spawn({ parentSessionKey: key, callerAgentId: 'default', callerDepth: 0, task: 'Sleep long', mode: 'spawn' });
    await until(() => book.card(r.manager.get(child.id)!).tools.some((t) => t.status === 'running'));
    r.clock.t += 5000;
    const running = r.manager.get(child.id)!;
    assert.equal(book.durationOf(running), 5000);
    assert.equal(childRow(running, book.durationOf(running)).actions, 'live');
    await r.manager.cancel(child.id);
    const card = book.card(r.manager.get(child.id)!);
    assert.equal(card.status, 'cancelled');
    assert.deepEqual(card.tools.map((t) => [t.name, t.status]), [['sleep', 'error']]);
    assert.match(card.result ?? '', /Cancelled by a person/);
    assert.equal(childRow(r.manager.get(child.id)!, 0).actions, 'resumable');
  });

  it('actions by status; the transcript document quotes the child\'s text and fences tool output it cannot close', () => {
    assert.deepEqual((['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted', 'stalled'] as const).map(actionsOf),
      ['live', 'live', 'done', 'resumable', 'resumable', 'resumable', 'resumable']);
    const rec: SubagentRecord = {
      id: 'sa-00000001', parentSessionKey: 'p', sessionKey: 'agent:default:subagent-sa-00000001', label: 'lbl', agentId: 'default',
      task: 'Find it', mode: 'run', status: 'done', depth: 1, usage: { input: 1200, output: 30, cached: 0, costUsd: 0.0123 },
      durationMs: 61_500, result: '# Not a heading of the document', createdAt: 1, delivered: true, archived: false,
    };
    const md = transcriptMarkdown(rec, [
      { role: 'system', parts: [{ type: 'text', text: 'SYSTEM PROMPT' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Find it' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'grep', args: { pattern: 'x' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c', name: 'grep', content: 'a ```` b\n# heading?', isError: false }] },
    ]);
    assert.match(md, /^# Subagent lbl \(sa-00000001\)\n\ndone · agent default · 1,230 tokens · \$0\.0123 · 1 min 2 s/);
    assert.ok(!md.includes('SYSTEM PROMPT'), 'the system prompt is not part of the transcript');
    assert.match(md, /## Result\n\n> # Not a heading/);
    assert.match(md, /\*\*Tool result\*\* `grep`\n\n`````\na ```` b\n# heading\?\n`````/);
    assert.match(md, /\*\*Tool call\*\* `grep`\n\n```\n\{"pattern":"x"\}\n```/);
  });
});
