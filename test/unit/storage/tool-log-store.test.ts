import assert from 'node:assert/strict';
import { Database } from '../../../src/core/storage/database';
import { TOOL_LOG_MIGRATIONS, ToolLogStore } from '../../../src/core/storage/tool-log-store';
import type { CallEnd } from '../../../src/core/tools/call-record';
import { STORAGE_WORKER, removeTempDirs, tempDir } from '../../support/storage-fixtures';
import { runtimeWith } from '../../support/test-tools';

after(removeTempDirs);

describe('tool log store', () => {
  it('keeps every call the registry reports, in order, across a reopen, with timing history', async () => {
    const dir = tempDir('toollog');
    const rt = runtimeWith();
    let db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TOOL_LOG_MIGRATIONS });
    let store = new ToolLogStore(db);
    const pending: Promise<void>[] = [];
    rt.registry.onCallEnd.on((c) => pending.push(store.append(c, rt.timing.get(c.tool))));
    for (let i = 0; i < 5; i++) await rt.registry.execute('datetime', { timezone: 'UTC' }, rt.context({ channel: 'test', sessionKey: `s${i}` }));
    await rt.registry.execute('nope', {}, rt.context({ channel: 'test' }));
    await Promise.all(pending);
    await db.close();

    db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TOOL_LOG_MIGRATIONS });
    store = new ToolLogStore(db);
    const recent: CallEnd[] = await store.recent(10);
    assert.deepEqual(recent.map((c) => `${c.tool}:${c.outcome}`), [...Array(5).fill('datetime:ok'), 'nope:unknown-tool']);
    assert.deepEqual(recent.slice(0, 5).map((c) => c.sessionKey), ['s0', 's1', 's2', 's3', 's4']);
    const timing = new Map(await store.timing());
    assert.equal(timing.get('datetime')?.samples, 5);
    assert.ok((timing.get('datetime')?.maxMs ?? -1) >= 0);
    assert.deepEqual((await store.recent(2)).map((c) => c.tool), ['datetime', 'nope'], 'the newest calls, oldest first');
    await db.close();
  });
});
