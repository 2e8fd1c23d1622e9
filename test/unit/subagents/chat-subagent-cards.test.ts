// The chat's side of child cards (src/host/chat/chat-subagent-cards.ts has no editor dependency), on a
// real manager whose children run against the loopback model server: a child started by the running
// turn is marked once and posted with that turn's id; its later changes replace its one replayed event
// (so a re-opened view draws it once, in its first place); it keeps updating after the turn ended; a
// child of a session that is neither running nor on screen is not posted; Stop cancels that child only.
import assert from 'node:assert/strict';
import type { LiveEvent, MessageOf } from '../../../src/core/chat/chat-protocol';
import { parseToWebview } from '../../../src/core/chat/chat-protocol';
import { ChatSubagentCards, type CardHost } from '../../../src/host/chat/chat-subagent-cards';
import { reply, text, toolCall } from '../../support/model-script';
import { rigPerTest, until } from './subagent-rig';

type Card = MessageOf<LiveEvent, 'subagent'>;

describe('chat: subagent cards', () => {
  const rigs = rigPerTest();

  it('marks and posts a running turn\'s children, updates them in place and after the turn, and stops one from its card', async () => {
    const r = await rigs.start({
      roles: {
        parent: () => reply(text('unused')),
        child: (task, _req, n) => (task === 'quick' ? (n === 0 ? reply(toolCall('echo', { text: 'hi' })) : reply(text('quick done'))) : reply(toolCall('sleep', { ms: 60_000 }))),
      },
    });
    const [key, other] = [await r.session(), await r.session()];
    const posted: Card[] = [];
    const marks: { key: string; id: string }[] = [];
    let running: ReturnType<CardHost['running']> = { turnId: 'turn-1', sessionKey: key, live: [] };
    const live = running!.live;
    const cards = new ChatSubagentCards(r.manager, {
      running: () => running, current: () => key,
      post: (e) => posted.push(e as Card), mark: (k, data) => marks.push({ key: k, id: data.id }),
    });
    const spawn = (parent: string, task: string) => r.manager.spawn({ parentSessionKey: parent, callerAgentId: 'default', callerDepth: 0, task, mode: 'spawn' });
    const quick = await spawn(key, 'quick');
    const slow = await spawn(key, 'slow');
    await until(() => r.manager.get(quick.id)?.status === 'done');
    await until(() => posted.some((m) => m.child.id === slow.id && m.child.tools.some((t) => t.status === 'running')));
    assert.deepEqual(marks, [{ key, id: quick.id }, { key, id: slow.id }], 'one mark per child, in the parent session');
    assert.ok(posted.every((m) => m.turnId === 'turn-1' && parseToWebview(m).ok), 'posted with the turn, valid for the page');
    assert.deepEqual(live.map((e) => e.type === 'subagent' && e.child.id), [quick.id, slow.id], 'one replayed event per child, in first-seen order');
    const replayedQuick = live[0] as Card;
    assert.equal(replayedQuick.child.status, 'done');
    assert.equal(replayedQuick.child.result, 'quick done');
    assert.deepEqual(replayedQuick.child.tools.map((t) => [t.name, t.status]), [['echo', 'ok']]);

    // The turn ends; the background child still updates its card (no turn id), and Stop cancels it only.
    running = undefined;
    const before = posted.length;
    await cards.cancel(slow.id);
    const last = posted.slice(before).filter((m) => m.child.id === slow.id).at(-1)!;
    assert.equal(last.turnId, undefined);
    assert.equal(last.child.status, 'cancelled');
    assert.match(last.child.result ?? '', /Stop on its card/);
    assert.equal(r.manager.get(quick.id)!.status, 'done', 'the other child is untouched');
    assert.equal(cards.card(slow.id)?.status, 'cancelled');
    assert.equal(cards.card('sa-unknown'), undefined);

    // A child of a session neither running nor on screen: no card, no mark.
    const n = posted.length;
    const foreign = await spawn(other, 'quick');
    await until(() => r.manager.get(foreign.id)?.status === 'done');
    assert.equal(posted.slice(n).length, 0);
    assert.equal(marks.length, 2);
  });
});
