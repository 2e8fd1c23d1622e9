import assert from 'node:assert/strict';
import { runtimeWith } from '../../support/test-tools';

describe('built-in tools', () => {
  it('datetime answers in the local zone or a named one, with UTC and Unix time', async () => {
    const rt = runtimeWith();
    const ctx = rt.context({ channel: 'test' });
    const before = Math.floor(Date.now() / 1000);
    const r = await rt.registry.execute('datetime', { timezone: 'Asia/Tokyo' }, ctx);
    const after = Math.floor(Date.now() / 1000);
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /^Now: \w+day, \d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d GMT\+09:00 \(Asia\/Tokyo\)/);
    const unix = r.details!.unix as number;
    assert.ok(before <= unix && unix <= after, `${unix} is the time of the call`);
  });

  it('session_status reports the caller and the tools it may use, and follows policy', async () => {
    const rt = runtimeWith({ 'tools.profile': 'coding' });
    const r = await rt.registry.execute('session_status', {}, rt.context({ channel: 'palette', sessionKey: 'p:1', workspaceTrusted: false }));
    assert.match(r.forLLM, /Session: p:1/);
    assert.match(r.forLLM, /Entry point: palette$/m);
    assert.match(r.forLLM, /not trusted: read-only tools only/);
    assert.match(r.forLLM, /Tools \(2\): datetime, session_status/);
    const refused = await rt.registry.execute('session_status', {}, rt.context({ channel: 'test', subagentDepth: 1 }));
    assert.match(refused.forLLM, /subagent deny/);
  });
});

describe('runtime configuration', () => {
  it('a bad combination of guard settings is reported and the previous values stay', async () => {
    const warnings: string[] = [];
    const rt = runtimeWith({ 'loopDetection.thresholds': { sameCall: { warn: 9, critical: 2 } }, 'rateLimit.burst': 1, 'rateLimit.perMinute': 5 }, [], undefined, warnings);
    assert.ok(warnings.some((w) => /pincer\.loopDetection: .*previous loop settings stay/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /pincer\.rateLimit: .*previous rate limit stays/.test(w)), warnings.join('\n'));
    // The runtime still works with the defaults.
    const r = await rt.registry.execute('datetime', {}, rt.context({ channel: 'test' }));
    assert.equal(r.isError, false);
  });
});
