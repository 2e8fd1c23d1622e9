// datetime with `at`: a moment converted between IANA zones (daylight saving included), read in
// `from` when it has no offset, and how long until it or since it; bad input says how to write it.
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { relative } from '../../../src/core/tools/builtin/datetime';
import { runtimeWith } from '../../support/test-tools';

const call = (args: Record<string, unknown>) => {
  const rt = runtimeWith();
  return rt.registry.execute('datetime', args, rt.context({ channel: 'test' }));
};

describe('datetime: conversion and time until', () => {
  it('a moment with an offset, shown in another zone', async () => {
    const r = await call({ at: '2026-12-24T18:00:00+01:00', timezone: 'America/New_York' });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^At: Thursday, 24\/12\/2026, 12:00:00 GMT-05:00 \(America\/New_York\)$/m);
    assert.match(r.forLLM, /^UTC: 2026-12-24T17:00:00\.000Z$/m);
    assert.equal(r.details!.unix, Date.UTC(2026, 11, 24, 17) / 1000);
  });

  it('a wall time without an offset is read in `from`, with that day\'s daylight saving', async () => {
    const summer = await call({ at: '2026-07-01T09:00', from: 'Europe/Berlin', timezone: 'Asia/Tokyo' });
    assert.match(summer.forLLM, /^At: Wednesday, 01\/07\/2026, 16:00:00 GMT\+09:00 \(Asia\/Tokyo\)$/m);
    assert.match(summer.forLLM, /^UTC: 2026-07-01T07:00:00\.000Z$/m);
    const winter = await call({ at: '2026-01-15T09:00', from: 'Europe/Berlin', timezone: 'UTC' });
    assert.match(winter.forLLM, /^UTC: 2026-01-15T08:00:00\.000Z$/m);
    const sameZone = await call({ at: '2026-01-15T09:00', timezone: 'Europe/Berlin' });
    assert.match(sameZone.forLLM, /^At: Thursday, 15\/01\/2026, 09:00:00 GMT\+01:00 \(Europe\/Berlin\)$/m);
  });

  it('how long until a moment, or since it', async () => {
    const ahead = DateTime.now().plus({ days: 3, hours: 4, seconds: 30 }).toUTC().toISO()!;
    const r = await call({ at: ahead, timezone: 'UTC' });
    assert.match(r.forLLM, /^From now \(.+\): in 3 days 4 hours$/m);
    assert.ok((r.details!.secondsFromNow as number) > 3 * 86400);
    const past = DateTime.now().minus({ hours: 2, seconds: 30 }).toUTC().toISO()!;
    assert.match((await call({ at: past })).forLLM, /^From now \(.+\): 2 hours ago$/m);
    const base = DateTime.fromISO('2026-03-28T12:00:00Z');
    assert.equal(relative(base.plus({ days: 1, minutes: 1 }), base), 'in 1 day 1 minute');
    assert.equal(relative(base.plus({ seconds: 20 }), base), 'now (less than a minute away)');
  });

  it('bad input: an unknown zone, a time that is not ISO 8601', async () => {
    assert.match((await call({ at: '2026-01-01T00:00', from: 'Mars/Olympus' })).forLLM, /Unknown time zone "Mars\/Olympus"/);
    assert.match((await call({ timezone: 'Nowhere/Town' })).forLLM, /Unknown time zone "Nowhere\/Town"/);
    const bad = await call({ at: 'next tuesday' });
    assert.equal(bad.isError, true);
    assert.match(bad.forLLM, /"next tuesday" is not an ISO 8601 date or time .*Write it like "2026-12-24T18:00"/);
  });
});
