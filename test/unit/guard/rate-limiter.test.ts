import * as assert from 'node:assert/strict';
import type { Clock } from '../../../src/core/clock';
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateDecision } from '../../../src/core/guard/rate-limiter';
import type { Capability } from '../../../src/core/tools/types';

class ManualClock implements Clock {
  constructor(public t = 1_000_000) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Takes until the first refusal; returns how many were allowed and the refusal. */
function drain(rl: RateLimiter, key: string, cap: Capability, max = 10_000): { allowed: number; refusal: RateDecision } {
  for (let i = 0; i < max; i++) {
    const d = rl.take(key, cap);
    if (!d.allowed) return { allowed: i, refusal: d };
  }
  throw new Error(`never refused after ${max} takes`);
}

function retryOf(d: RateDecision): number {
  assert.equal(d.allowed, false);
  return (d as { retryAfterMs: number }).retryAfterMs;
}

describe('RateLimiter', () => {
  it('has generous defaults: 120 units a minute, burst 60, reads 1 / mutations 2 / external 3', () => {
    assert.deepEqual({ ...DEFAULT_RATE_LIMIT, weights: { ...DEFAULT_RATE_LIMIT.weights } },
      { enabled: true, perMinute: 120, burst: 60, weights: { 'read-only': 1, mutating: 2, external: 3 } });
  });

  it('allows a full burst, then refuses with the exact time until one more unit', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    const { allowed, refusal } = drain(rl, 's', 'read-only');
    assert.equal(allowed, 60);
    // 120 a minute: one unit every 500 ms.
    assert.equal(retryOf(refusal), 500);
    clock.advance(499);
    assert.equal(retryOf(rl.take('s', 'read-only')), 1);
    clock.advance(1);
    assert.deepEqual(rl.take('s', 'read-only'), { allowed: true });
    assert.equal(retryOf(rl.take('s', 'read-only')), 500);
  });

  it('tells a heavier call to wait for its whole cost', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 's', 'read-only');
    assert.equal(retryOf(rl.take('s', 'external')), 1500);
    assert.equal(retryOf(rl.take('s', 'mutating')), 1000);
    clock.advance(1500);
    assert.deepEqual(rl.take('s', 'external'), { allowed: true });
  });

  it('a refused call consumes nothing', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 's', 'read-only');
    for (let i = 0; i < 1000; i++) assert.equal(rl.take('s', 'external').allowed, false);
    clock.advance(500);
    assert.equal(rl.take('s', 'read-only').allowed, true);
  });

  it('allows the steady rate indefinitely, for every capability', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 'r', 'read-only');
    for (let i = 0; i < 20_000; i++) {
      clock.advance(500);
      assert.equal(rl.take('r', 'read-only').allowed, true, `read ${i}`);
    }
    for (let i = 0; i < 5_000; i++) {
      clock.advance(1500);
      assert.equal(rl.take('x', 'external').allowed, true, `external ${i}`);
    }
  });

  it('weights: a burst of reads allows three times as many calls as external ones', () => {
    const rl = new RateLimiter({}, new ManualClock());
    const reads = drain(rl, 'a', 'read-only').allowed;
    const writes = drain(rl, 'b', 'mutating').allowed;
    const external = drain(rl, 'c', 'external').allowed;
    assert.deepEqual([reads, writes, external], [60, 30, 20]);
    assert.equal(reads, 3 * external);
  });

  it('keeps keys independent, including the empty key (no unlimited caller)', () => {
    const rl = new RateLimiter({}, new ManualClock());
    drain(rl, 'one', 'external');
    assert.equal(rl.take('two', 'external').allowed, true);
    assert.equal(drain(rl, '', 'read-only').allowed, 60);
    assert.equal(drain(rl, '__proto__', 'read-only').allowed, 60);
    assert.equal(drain(rl, 'constructor', 'read-only').allowed, 60);
  });

  it('applies updateConfig at once: a bigger burst, a faster rate, disabling', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 's', 'read-only');
    rl.updateConfig({ burst: 120 });
    assert.equal(drain(rl, 's', 'read-only').allowed, 60);
    // Ten times the rate: the same debt drains ten times faster.
    rl.updateConfig({ perMinute: 1200 });
    assert.equal(retryOf(rl.take('s', 'read-only')), 50);
    rl.updateConfig({ enabled: false });
    for (let i = 0; i < 1000; i++) assert.equal(rl.take('s', 'external').allowed, true);
    rl.updateConfig({ enabled: true });
    assert.equal(rl.take('s', 'read-only').allowed, false);
  });

  it('never leaves a key owing more than the new burst after it shrinks', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 's', 'read-only');
    rl.updateConfig({ burst: 10 });
    assert.equal(retryOf(rl.take('s', 'read-only')), 500);
    clock.advance(5000);
    assert.equal(drain(rl, 's', 'read-only').allowed, 10);
  });

  it('applies new weights at once', () => {
    const rl = new RateLimiter({}, new ManualClock());
    rl.updateConfig({ weights: { 'read-only': 0, mutating: 2, external: 30 } });
    for (let i = 0; i < 500; i++) assert.equal(rl.take('s', 'read-only').allowed, true);
    assert.equal(drain(rl, 's', 'external').allowed, 2);
    assert.equal(rl.size, 1);
  });

  it('disabled: always allowed and holds no state', () => {
    const rl = new RateLimiter({ enabled: false }, new ManualClock());
    for (let i = 0; i < 10_000; i++) assert.equal(rl.take(`k${i % 7}`, 'external').allowed, true);
    assert.equal(rl.size, 0);
  });

  it('rejects invalid values with a clear error and keeps the previous configuration', () => {
    const bad: unknown[] = [
      { perMinute: 0 }, { perMinute: -5 }, { perMinute: NaN }, { perMinute: Infinity },
      { burst: 0 }, { burst: -1 }, { burst: NaN }, { weights: { 'read-only': -1, mutating: 2, external: 3 } },
      { weights: { 'read-only': NaN, mutating: 2, external: 3 } }, { burst: 2 }, { enabled: 'yes' },
    ];
    for (const cfg of bad) {
      assert.throws(() => new RateLimiter(cfg as Partial<typeof DEFAULT_RATE_LIMIT>), /^Error: rate limit: /, JSON.stringify(cfg));
    }
    assert.throws(() => new RateLimiter({ burst: 2 }), /weights\.external \(3\) exceeds burst \(2\)/);
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    assert.throws(() => rl.updateConfig({ perMinute: 0 }), /perMinute must be a finite number > 0, got 0/);
    assert.equal(drain(rl, 's', 'read-only').allowed, 60);
    assert.equal(retryOf(rl.take('s', 'read-only')), 500);
  });

  it('ignores undefined fields in a patch instead of wiping defaults', () => {
    const rl = new RateLimiter({ burst: undefined, perMinute: undefined }, new ManualClock());
    assert.equal(drain(rl, 's', 'read-only').allowed, 60);
  });

  it('collects idle keys (bucket full again) as calls go on, without timers', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    for (let i = 0; i < 50; i++) rl.take(`idle${i}`, 'external');
    assert.equal(rl.size, 50);
    clock.advance(60_000);
    for (let i = 0; i < 2000; i++) {
      clock.advance(500);
      rl.take('busy', 'read-only');
    }
    assert.equal(rl.size, 1);
  });

  it('hostile: 100k distinct keys do not grow memory without bound once idle', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    let peak = 0;
    // Each key makes one call and never returns; one new key every millisecond.
    for (let i = 0; i < 100_000; i++) {
      clock.advance(1);
      rl.take(`attacker-${i}`, 'external');
      peak = Math.max(peak, rl.size);
    }
    // A key stays live for its cost (1.5 s at 3 units), so ~1500 are live at once; the amortised sweep
    // holds at most about twice the live set plus one sweep interval.
    assert.ok(peak < 5000, `peak ${peak}`);
    clock.advance(60_000);
    for (let i = 0; i < 5000; i++) rl.take('after', 'read-only');
    assert.ok(rl.size <= 1, `size ${rl.size}`);
  });

  it('hostile: 100k keys at one instant stay correct and are all collected afterwards', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    for (let i = 0; i < 100_000; i++) assert.equal(rl.take(`k${i}`, 'read-only').allowed, true);
    clock.advance(31_000);
    for (let i = 0; i < 100_001; i++) rl.take('late', 'read-only');
    assert.equal(rl.size, 1);
  });

  it('uneven rates (7 per minute) do not drift into wrongly refusing the steady pace', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({ perMinute: 7, burst: 3 }, clock);
    assert.equal(drain(rl, 's', 'read-only').allowed, 3);
    for (let i = 0; i < 10_000; i++) {
      clock.t += 60_000 / 7;
      assert.equal(rl.take('s', 'read-only').allowed, true, `call ${i}`);
    }
  });

  it('tolerates a clock that steps backwards (no crash, no free burst)', () => {
    const clock = new ManualClock();
    const rl = new RateLimiter({}, clock);
    drain(rl, 's', 'read-only');
    clock.advance(-10_000);
    const d = rl.take('s', 'read-only');
    assert.equal(d.allowed, false);
    assert.ok(retryOf(d) > 500);
  });
});
