// The board's rules as every store enforces them (one suite, run against each backend): atomic
// claims, blockers checked at the claim itself, cycles named, results required, review, cancel
// naming stranded tasks, the watchdog's release, an audit event per change — the same outcomes and
// the same words on the workspace database and on a shared server.
import assert from 'node:assert/strict';
import type { BoardFixture } from './board-fixture';

const T = 'web';

/** Defines the suite for one backend; `open` makes a fresh, empty board for each test. */
export function boardContract(backend: string, open: () => Promise<BoardFixture>): void {
  describe(`teams: the board store (${backend})`, () => {
    let f: BoardFixture;
    beforeEach(async () => { f = await open(); });
    afterEach(async () => { await f.close(); });

    it('of 10 members claiming one pending task at once exactly one wins; the others are told who holds it', async () => {
      const task = await f.board.create(T, { subject: 'Write the parser' }, f.as('lead'));
      const names = Array.from({ length: 10 }, (_, i) => `m${i}`);
      const results = await Promise.allSettled(names.map((n) => f.board.claim(T, task.id, `run-${n}`, f.as(n))));
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      const winner = (won[0] as PromiseFulfilledResult<{ owner?: string }>).value.owner!;
      for (const r of results.filter((x) => x.status === 'rejected')) {
        assert.match(String((r as PromiseRejectedResult).reason.message), new RegExp(`^Refused: task #${task.id} is already claimed by ${winner}\\.$`));
      }
      const now = await f.board.get(T, task.id);
      assert.equal(now!.owner, winner);
      assert.equal((await f.board.events(T, { taskId: task.id })).filter((e) => e.action === 'claim').length, 1);
    });

    it('two windows on one board claiming the same 20 tasks at once: each task is claimed exactly once', async () => {
      const second = await f.second();
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push((await f.board.create(T, { subject: `Task ${i}` }, f.as('lead'))).id);
      const claimers = [f.board, second].flatMap((b, w) => [0, 1, 2].map((c) => ({ b, name: `w${w}m${c}` })));
      const wins = await Promise.all(claimers.map(async ({ b, name }) => {
        const mine: number[] = [];
        for (const id of ids) await b.claim(T, id, `run-${name}`, f.as(name)).then(() => mine.push(id), (e: Error) => assert.match(e.message, /^Refused: task #\d+ is already claimed by w\dm\d\.$/));
        return mine;
      }));
      assert.deepEqual(wins.flat().sort((a, b) => a - b), ids);
      const claims = (await f.board.events(T)).filter((e) => e.action === 'claim');
      assert.equal(claims.length, 20);
    });

    it('a blocked task cannot be claimed; it becomes claimable when every blocker completes, and blocked again when a blocker reopens', async () => {
      const a = await f.board.create(T, { subject: 'Schema' }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'API' }, f.as('lead'));
      const c = await f.board.create(T, { subject: 'UI', blockedBy: [a.id, b.id] }, f.as('lead'));
      assert.deepEqual(c.openBlockers, [a.id, b.id]);
      await assert.rejects(f.board.claim(T, c.id, 'r1', f.as('ann')), new RegExp(`^Error: Refused: task #${c.id} is blocked by #${a.id} \\(pending\\), #${b.id} \\(pending\\)`));
      await f.board.claim(T, a.id, 'r2', f.as('bob'));
      const done = await f.board.complete(T, a.id, 'tables made', f.as('bob'));
      assert.deepEqual(done.released, [], 'still blocked by b');
      await f.board.claim(T, b.id, 'r3', f.as('cy'));
      await f.board.cancel(T, b.id, 'not needed', f.as('lead'));
      await assert.rejects(f.board.claim(T, c.id, 'r1', f.as('ann')), /is blocked by #\d+ \(cancelled\)/);
      await f.board.retry(T, b.id, 'needed after all', f.as('lead'));
      await f.board.claim(T, b.id, 'r4', f.as('cy'));
      const released = await f.board.complete(T, b.id, 'endpoints', f.as('cy'));
      assert.deepEqual(released.released.map((t) => t.id), [c.id]);
      assert.equal((await f.board.claim(T, c.id, 'r1', f.as('ann'))).status, 'in_progress');
    });

    it('a dependency cycle is refused at update with the cycle named, and nothing of the update stays', async () => {
      const a = await f.board.create(T, { subject: 'A' }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'B', blockedBy: [a.id] }, f.as('lead'));
      const c = await f.board.create(T, { subject: 'C', blockedBy: [b.id] }, f.as('lead'));
      await assert.rejects(f.board.update(T, a.id, { subject: 'A2', blockedBy: [c.id] }, f.as('lead')),
        new RegExp(`that dependency would make a cycle: #${a.id} -> #${c.id} -> #${b.id} -> #${a.id}\\.`));
      await assert.rejects(f.board.update(T, a.id, { blockedBy: [a.id] }, f.as('lead')), /cannot be blocked by itself/);
      const after = await f.board.get(T, a.id);
      assert.equal(after!.subject, 'A');
      assert.deepEqual(after!.blockedBy, []);
      await assert.rejects(f.board.create(T, { subject: 'D', blockedBy: [999] }, f.as('lead')), /blocker #999 is not a task of this team/);
      await assert.rejects(f.board.claim(T, 999, 'r', f.as('ann')), /^Error: Refused: there is no task #999 on team web\.$/);
      await assert.rejects(f.board.claim('other-team', a.id, 'r', f.as('ann')), /there is no task #\d+ on team other-team/);
      assert.equal((await f.board.list(T, 'all', 'newest')).length, 3);
    });

    it('complete needs a result and the claim; a completed task is final', async () => {
      const a = await f.board.create(T, { subject: 'A' }, f.as('lead'));
      await assert.rejects(f.board.complete(T, a.id, 'x', f.as('ann')), /only the holder of task #\d+'s claim may complete it/);
      await f.board.claim(T, a.id, 'r', f.as('ann'));
      await assert.rejects(f.board.complete(T, a.id, '  ', f.as('ann')), /cannot be completed without a result/);
      await assert.rejects(f.board.complete(T, a.id, 'done', f.as('bob')), /only the holder/);
      await f.board.complete(T, a.id, 'done', f.as('ann'));
      await assert.rejects(f.board.cancel(T, a.id, 'oops', f.as('lead')), /is completed \(completed tasks are final/);
      await assert.rejects(f.board.update(T, a.id, { subject: 'B' }, f.as('lead')), /completed tasks are final/);
    });

    it('review: a task that requires it is handed in, then approved (releasing dependents) or rejected back to its member', async () => {
      const a = await f.board.create(T, { subject: 'A', requireReview: true }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'B', blockedBy: [a.id] }, f.as('lead'));
      await f.board.claim(T, a.id, 'r', f.as('ann'));
      await assert.rejects(f.board.complete(T, a.id, 'done', f.as('ann')), /requires review/);
      await f.board.submitForReview(T, a.id, 'first try', f.as('ann'));
      const rejected = await f.board.reject(T, a.id, 'tests missing', f.as('lead'));
      assert.deepEqual([rejected.status, rejected.assignee, rejected.owner], ['pending', 'ann', undefined]);
      await assert.rejects(f.board.claim(T, a.id, 'r2', f.as('bob')), /is assigned to ann, not bob/);
      await f.board.claim(T, a.id, 'r2', f.as('ann'));
      await f.board.submitForReview(T, a.id, 'with tests', f.as('ann'));
      const approved = await f.board.approve(T, a.id, 'good', f.as('lead'));
      assert.equal(approved.task.status, 'completed');
      assert.deepEqual(approved.released.map((t) => t.id), [b.id]);
      const actions = (await f.board.events(T, { taskId: a.id })).map((e) => `${e.actor}:${e.action}`);
      assert.deepEqual(actions, ['lead:create', 'ann:claim', 'ann:review', 'lead:reject', 'ann:claim', 'ann:review', 'lead:approve']);
    });

    it('cancelling or failing (blocker) a task names the open tasks it strands', async () => {
      const a = await f.board.create(T, { subject: 'A' }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'B', blockedBy: [a.id] }, f.as('lead'));
      const c = await f.board.create(T, { subject: 'C', blockedBy: [a.id] }, f.as('lead'));
      const cancelled = await f.board.cancel(T, a.id, 'wrong approach', f.as('lead'));
      assert.deepEqual(cancelled.stranded.map((t) => t.id), [b.id, c.id]);
      await f.board.claim(T, (await f.board.retry(T, a.id, 'again', f.as('lead'))).id, 'r', f.as('ann'));
      const blocked = await f.board.comment(T, a.id, 'blocker', 'no credentials for the API', f.as('ann'));
      assert.equal(blocked.task.status, 'failed');
      assert.equal(blocked.task.result, 'Blocked: no credentials for the API');
      assert.deepEqual(blocked.stranded.map((t) => t.id), [b.id, c.id]);
    });

    it('the watchdog returns tasks of ended runs to pending, and to the lead after two returns; live runs keep theirs', async () => {
      const a = await f.board.create(T, { subject: 'A' }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'B' }, f.as('lead'));
      await f.board.claim(T, a.id, 'run-1', f.as('ann'));
      await f.board.claim(T, b.id, 'run-2', f.as('bob'));
      const lead = () => 'lead';
      let moved = await f.board.releaseOrphans(new Set(['run-2']), lead, 2, f.as('x').at);
      assert.deepEqual(moved.map((t) => [t.id, t.status, t.returns, t.assignee]), [[a.id, 'pending', 1, undefined]]);
      assert.equal((await f.board.get(T, b.id))!.status, 'in_progress');
      await f.board.claim(T, a.id, 'run-3', f.as('ann'));
      moved = await f.board.releaseOrphans(new Set(['run-2']), lead, 2, f.as('x').at);
      assert.deepEqual(moved.map((t) => [t.id, t.status, t.returns, t.assignee]), [[a.id, 'pending', 2, 'lead']]);
      const notes = (await f.board.events(T, { taskId: a.id })).filter((e) => e.actor === 'watchdog').map((e) => e.detail);
      assert.match(notes[0], /^back to pending: its member run run-1 \(ann\) ended without completing it/);
      assert.match(notes[1], /^returned to the lead lead after 2 returns/);
    });

    it('search ranks by subject and description; progress, comments and attachments are recorded as events', async () => {
      await f.board.create(T, { subject: 'Login page styling', description: 'CSS for the form' }, f.as('lead'));
      const api = await f.board.create(T, { subject: 'Login API', description: 'token endpoint for the login form' }, f.as('lead'));
      await f.board.create('other', { subject: 'Login API elsewhere' }, f.as('lead'));
      assert.deepEqual((await f.board.search(T, 'login endpoint')).map((t) => t.id), [api.id]);
      assert.equal((await f.board.search(T, 'login')).length, 2);
      assert.deepEqual(await f.board.search(T, '"); DROP TABLE team_tasks; --'), []);
      await f.board.claim(T, api.id, 'r', f.as('ann'));
      await f.board.progress(T, api.id, 40, 'routes done', f.as('ann'));
      await f.board.comment(T, api.id, 'note', 'using JWT', f.as('ann'));
      const t = await f.board.attach(T, api.id, 'src/api/login.ts', f.as('ann'));
      assert.deepEqual([t.progress, t.progressNote, t.attachments], [40, 'routes done', ['src/api/login.ts']]);
      const events = await f.board.events(T, { taskId: api.id });
      assert.deepEqual(events.map((e) => e.action), ['create', 'claim', 'progress', 'comment', 'attach']);
      assert.ok(events.every((e, i) => i === 0 || e.at > events[i - 1].at));
    });

    it('a task\'s own gates are kept with it, read back by every read (claims too), replaced by update, and recorded', async () => {
      const tests = { name: 'npm test', kind: 'command' as const, command: 'npm test', blockOnFailure: true, maxRetries: 2 };
      const review = { name: 'reviewer qa', kind: 'agent' as const, agent: 'qa', blockOnFailure: false, maxRetries: 0 };
      const plain = await f.board.create(T, { subject: 'No gates' }, f.as('lead'));
      assert.deepEqual(plain.gates, []);
      const t = await f.board.create(T, { subject: 'Gated', gates: [tests] }, f.as('lead'));
      assert.deepEqual(t.gates, [tests]);
      assert.deepEqual((await f.board.claim(T, t.id, 'r', f.as('ann'))).gates, [tests]);
      assert.deepEqual((await f.board.update(T, t.id, { gates: [tests, review] }, f.as('lead'))).gates, [tests, review]);
      assert.deepEqual((await f.board.list(T, 'all', 'newest')).map((x) => x.gates.length), [2, 0]);
      assert.deepEqual((await f.board.update(T, t.id, { gates: [] }, f.as('lead'))).gates, []);
      assert.deepEqual((await f.board.events(T, { taskId: t.id })).map((e) => e.detail), [
        'created "Gated", gates npm test (command)', 'claimed (run r)', 'gates now npm test (command), reviewer qa (agent)', 'gates now none']);
    });

    it('messages: each recipient reads its unread messages once, even when two reads race', async () => {
      await f.board.send(T, 'lead', ['ann', 'bob'], 'standup', 1);
      await f.board.send(T, 'bob', ['ann'], 'need the schema', 2);
      const [r1, r2] = await Promise.all([f.board.readUnread(T, 'ann', 3), f.board.readUnread(T, 'ann', 3)]);
      assert.deepEqual([...r1, ...r2].map((m) => `${m.sender}:${m.text}`).sort(), ['bob:need the schema', 'lead:standup']);
      assert.deepEqual(await f.board.readUnread(T, 'ann', 4), []);
      assert.deepEqual((await f.board.readUnread(T, 'bob', 4)).map((m) => m.text), ['standup']);
      // The board's mailbox: every message of the team, oldest first, read or not, and reading it marks nothing.
      await f.board.send('other', 'lead', ['ann'], 'not this team', 5);
      assert.deepEqual((await f.board.messages(T)).map((m) => [m.sender, m.recipient, m.text, m.readAt]),
        [['lead', 'ann', 'standup', 3], ['lead', 'bob', 'standup', 4], ['bob', 'ann', 'need the schema', 3]]);
      await f.board.send(T, 'ann', ['lead'], 'schema is in', 6);
      assert.deepEqual((await f.board.messages(T, 2)).map((m) => m.text), ['need the schema', 'schema is in']);
      assert.equal(await f.board.unreadCount(T, 'lead'), 1);
    });
  });
}
