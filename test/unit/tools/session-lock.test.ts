import assert from 'node:assert/strict';
import { SessionLocks } from '../../../src/core/tools/session-lock';

describe('session locks: the lock of the session that went idle last', () => {
  it('is not counted, serves that session\'s next call, and gives way to another session', async () => {
    const locks = new SessionLocks();
    const a1 = locks.tryAcquire('a', true);
    assert.ok(a1);
    assert.equal(locks.size, 1);
    a1();
    assert.equal(locks.size, 0, 'an idle session holds nothing');
    // The same session again: the lock is free at once, and held while the call runs.
    const a2 = locks.tryAcquire('a', true);
    assert.ok(a2);
    assert.equal(locks.size, 1);
    assert.equal(locks.tryAcquire('a', false), undefined, 'a reader waits for the writer of its session');
    const b = locks.tryAcquire('b', true);
    assert.ok(b, 'sessions do not block each other');
    assert.equal(locks.size, 2);
    a2();
    b();
    assert.equal(locks.size, 0);
    // A writer waiting behind readers of a session that was parked still gets its turn in order.
    const r1 = locks.tryAcquire('b', false);
    const r2 = locks.tryAcquire('b', false);
    assert.ok(r1 && r2);
    const order: string[] = [];
    const writer = locks.acquire('b', true).then((release) => {
      order.push('writer');
      release();
    });
    assert.equal(locks.tryAcquire('b', false), undefined, 'a reader does not pass a waiting writer');
    r1();
    order.push('first reader done');
    r2();
    order.push('second reader done');
    await writer;
    assert.deepEqual(order, ['first reader done', 'second reader done', 'writer']);
    assert.equal(locks.size, 0);
  });

  it('a release called twice after the lock was parked and taken again frees nothing', () => {
    const locks = new SessionLocks();
    const first = locks.tryAcquire('s', true);
    assert.ok(first);
    first();
    const second = locks.tryAcquire('s', true);
    assert.ok(second);
    first();
    assert.equal(locks.tryAcquire('s', true), undefined, 'still held by the second call');
    second();
    assert.ok(locks.tryAcquire('s', true));
  });
});
