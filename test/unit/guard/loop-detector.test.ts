import * as assert from 'node:assert/strict';
import { DEFAULT_LOOP_CONFIG, LoopDetector, type LoopCall, type LoopVerdict } from '../../../src/core/guard/loop-detector';

const read = (path: string, extra: Record<string, unknown> = {}): LoopCall => ({ tool: 'read_file', args: { path, ...extra }, capability: 'read-only' });
const grep = (pattern: string): LoopCall => ({ tool: 'grep', args: { pattern }, capability: 'read-only' });
const edit = (n: number): LoopCall => ({ tool: 'edit_file', args: { path: 'a.ts', oldText: `v${n}`, newText: `v${n + 1}` }, capability: 'mutating' });
const typecheck: LoopCall = { tool: 'exec', args: { command: 'npx tsc --noEmit' }, capability: 'external' };
const poll = (id: string): LoopCall => ({ tool: 'process', args: { action: 'poll', id }, capability: 'read-only', poll: true });

type Step = [LoopCall, string, boolean?];
type Flagged = Exclude<LoopVerdict, { level: 'ok' }>;

/** Records the steps in order and returns every verdict. */
function run(d: LoopDetector, steps: Step[], key = 's'): LoopVerdict[] {
  return steps.map(([call, result, isError]) => d.record(key, call, result, isError ?? false));
}

const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** 1-based positions of non-ok verdicts as "position:level:detector". */
function fired(verdicts: LoopVerdict[]): string[] {
  return verdicts.flatMap((v, i) => (v.level === 'ok' ? [] : [`${i + 1}:${v.level}:${v.detector}`]));
}

describe('LoopDetector', () => {
  it('is on by default with the documented thresholds', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(DEFAULT_LOOP_CONFIG)), {
      enabled: true, historySize: 30,
      sameCall: { warn: 3, critical: 5 }, sameResult: { warn: 4, critical: 8 }, pingPong: { warn: 4, critical: 8 },
      pollNoProgress: { warn: 5, critical: 20 }, readOnlyStreak: { warn: 50, critical: 100 },
    });
  });

  describe('sameCall', () => {
    it('warns once at 3, stays quiet at 4, stops the run at 5 and stays halted until reset', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(5, () => [read('a.ts'), 'contents']));
      assert.deepEqual(fired(v), ['3:warning:sameCall', '5:critical:sameCall']);
      const warn = v[2] as Flagged;
      assert.equal(warn.count, 3);
      assert.match(warn.message, /read_file with the same arguments 3 times and got the same result/);
      assert.match(warn.message, /Use the result you already have, or change your approach/);
      const crit = v[4] as Flagged;
      assert.match(crit.message, /^Run stopped by loop detection: read_file was called with the same arguments 5 times/);
      assert.equal(d.haltedReason('s'), crit.message);
      assert.equal(d.record('s', grep('x'), 'other', false).level, 'critical');
      d.reset('s');
      assert.equal(d.haltedReason('s'), undefined);
      assert.deepEqual(fired(run(d, repeat(2, () => [read('a.ts'), 'contents']))), []);
    });

    it('counts a failing call repeated unchanged, and says it is the same error', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(5, () => [read('missing.ts'), 'ENOENT: no such file', true]));
      assert.deepEqual(fired(v), ['3:warning:sameCall', '5:critical:sameCall']);
      assert.match((v[2] as { message: string }).message, /got the same error each time\. Repeating it will not change the outcome/);
    });

    it('sees through key order in the arguments', () => {
      const d = new LoopDetector();
      const a: LoopCall = { tool: 'grep', args: { pattern: 'x', path: 'src', opts: { i: true, n: 3 } }, capability: 'read-only' };
      const b: LoopCall = { tool: 'grep', args: { opts: { n: 3, i: true }, path: 'src', pattern: 'x' }, capability: 'read-only' };
      assert.deepEqual(fired(run(d, [[a, 'r'], [b, 'r'], [a, 'r']])), ['3:warning:sameCall']);
    });

    it('catches repeats with other calls interleaved inside the window', () => {
      const d = new LoopDetector();
      const steps: Step[] = [];
      for (let i = 0; i < 5; i++) steps.push([read('a.ts'), 'same'], [read(`other${i}.ts`), `o${i}`], [grep(`p${i}`), `g${i}`]);
      // Once halted, every later record reports the halt again.
      assert.deepEqual(fired(run(d, steps)), ['7:warning:sameCall', '13:critical:sameCall', '14:critical:sameCall', '15:critical:sameCall']);
    });

    it('catches the same write repeated', () => {
      const d = new LoopDetector();
      const w: LoopCall = { tool: 'write_file', args: { path: 'a.ts', content: 'x' }, capability: 'mutating' };
      assert.deepEqual(fired(run(d, repeat(5, () => [w, 'Wrote 1 line to a.ts']))), ['3:warning:sameCall', '5:critical:sameCall']);
    });

    it('near miss: the same call whose result changes every time is not a loop', () => {
      const d = new LoopDetector();
      assert.deepEqual(fired(run(d, repeat(45, (i) => [read('log.txt'), `line ${i}`]))), []);
    });

    it('benign: edit then type-check with the same (empty) output, over and over, is work', () => {
      const d = new LoopDetector();
      const steps = repeat(25, (i) => i).flatMap((i): Step[] => [[edit(i), 'Edited a.ts'], [typecheck, '']]);
      assert.deepEqual(fired(run(d, steps)), []);
    });

    it('but re-checking after edits that all failed is still a loop', () => {
      const d = new LoopDetector();
      const steps = repeat(5, (i) => i).flatMap((i): Step[] => [[edit(i), `old text v${i} not found`, true], [typecheck, 'error TS2322']]);
      const v = fired(run(d, steps));
      assert.ok(v.some((f) => f.endsWith('critical:sameCall')), v.join(' '));
    });
  });

  describe('sameResult', () => {
    it('catches varying arguments with the same result (the evasion): warn at 4, stop at 8', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(8, (i) => [read('big.log', { offset: i * 1000 }), 'no new lines']));
      assert.deepEqual(fired(v), ['4:warning:sameResult', '8:critical:sameResult']);
      assert.match((v[3] as { message: string }).message, /called read_file 4 times with different arguments and got the same result/);
    });

    it('catches edits that keep failing the same way with different arguments', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(8, (i) => [edit(i), 'Error: oldText not found in a.ts', true]));
      assert.deepEqual(fired(v), ['4:warning:sameResult', '8:critical:sameResult']);
    });

    it('near miss: many different successful writes answering the same "ok" are progress', () => {
      const d = new LoopDetector();
      assert.deepEqual(fired(run(d, repeat(40, (i) => [edit(i), 'ok']))), []);
    });

    it('near miss: results that differ are not counted; same-argument repeats alone are sameCall\'s', () => {
      const d = new LoopDetector();
      assert.deepEqual(fired(run(d, repeat(30, (i) => [grep(`p${i}`), `match ${i}`]))), []);
      d.reset('s');
      assert.deepEqual(fired(run(d, repeat(2, () => [grep('p'), 'none']))), []);
    });
  });

  describe('pingPong', () => {
    it('warns when two calls alternate with unchanged results, then stops at 8 calls', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(8, (i): Step => (i % 2 ? [grep('foo'), 'no matches'] : [read('a.ts'), 'contents'])));
      assert.deepEqual(fired(v), ['4:warning:pingPong', '8:critical:pingPong']);
      assert.match((v[3] as { message: string }).message, /alternated between read_file and grep for 4 calls/);
    });

    it('catches edits that undo each other', () => {
      const d = new LoopDetector();
      const there: LoopCall = { tool: 'edit_file', args: { oldText: 'a', newText: 'b' }, capability: 'mutating' };
      const back: LoopCall = { tool: 'edit_file', args: { oldText: 'b', newText: 'a' }, capability: 'mutating' };
      const v = run(d, repeat(8, (i): Step => [i % 2 ? back : there, 'Edited a.ts']));
      assert.deepEqual(fired(v), ['4:warning:pingPong', '8:critical:pingPong']);
      assert.match((v[3] as { message: string }).message, /two edit_file calls/);
    });

    it('near miss: three calls in rotation are not ping-pong', () => {
      const d = new LoopDetector();
      const calls: Step[] = [[read('a.ts'), 'A'], [grep('x'), 'X'], [read('b.ts'), 'B']];
      const v = run(d, repeat(12, (i) => calls[i % 3]));
      assert.deepEqual(fired(v.slice(0, 6)), []);
      assert.ok(!fired(v).some((f) => f.includes('pingPong')), fired(v).join(' '));
    });

    it('near miss: alternating calls whose results change are not ping-pong', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(40, (i): Step => (i % 2 ? [typecheck, `error count ${i}`] : [read('a.ts'), `version ${i}`])));
      assert.deepEqual(fired(v), []);
    });
  });

  describe('pollNoProgress', () => {
    it('warns after 5 polls that bring nothing new and stops after 20', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(21, () => [poll('p1'), 'still running, no new output']));
      assert.deepEqual(fired(v), ['6:warning:pollNoProgress', '21:critical:pollNoProgress']);
      assert.match((v[5] as { message: string }).message, /polled process 5 times in a row and it returned nothing new\. Wait longer/);
    });

    it('near miss: a poll with new output each time never fires', () => {
      const d = new LoopDetector();
      assert.deepEqual(fired(run(d, repeat(300, (i) => [poll('p1'), `building ${i}%`]))), []);
    });

    it('new output resets the count and re-arms the warning', () => {
      const d = new LoopDetector();
      const steps: Step[] = [
        ...repeat(6, (): Step => [poll('p1'), 'waiting']), [poll('p1'), 'step 2 done'],
        ...repeat(5, (): Step => [poll('p1'), 'step 2 done']),
      ];
      assert.deepEqual(fired(run(d, steps)), ['6:warning:pollNoProgress', '12:warning:pollNoProgress']);
    });

    it('is not evaded by varying arguments or by cycling through old outputs', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(7, (i): Step => [poll(`p${i}`), i % 2 ? 'spinner |' : 'spinner /']));
      assert.deepEqual(fired(v), ['7:warning:pollNoProgress']);
    });

    it('polls do not count as repeats or as a read-only streak', () => {
      const d = new LoopDetector({ readOnlyStreak: { warn: 3, critical: 4 } });
      const steps: Step[] = [[read('a.ts'), 'a'], ...repeat(4, (): Step => [poll('p'), 'same']), [read('b.ts'), 'b']];
      assert.deepEqual(fired(run(d, steps)), []);
    });
  });

  describe('readOnlyStreak', () => {
    it('stays silent through 40 different reads, warns at 50, stops at 100', () => {
      const d = new LoopDetector();
      const v = run(d, repeat(100, (i) => [read(`src/file${i}.ts`), `contents of file ${i}`]));
      assert.deepEqual(fired(v.slice(0, 40)), []);
      assert.deepEqual(fired(v), ['50:warning:readOnlyStreak', '100:critical:readOnlyStreak']);
      assert.match((v[49] as { message: string }).message, /50 read-only calls in a row without changing anything\. If you have enough context, act on it or answer/);
    });

    it('a mutating call ends the streak and re-arms its warning', () => {
      const d = new LoopDetector();
      const reads = (from: number, n: number): Step[] => repeat(n, (i) => [read(`f${from + i}.ts`), `c${from + i}`]);
      assert.deepEqual(fired(run(d, [...reads(0, 49), [edit(1), 'ok'], ...reads(100, 49)])), []);
      assert.deepEqual(fired(run(d, [[edit(2), 'ok'], ...reads(200, 50)])), ['51:warning:readOnlyStreak']);
    });
  });

  it('escalates instead of repeating: a rotation of three calls gets one warning, not one per call', () => {
    const d = new LoopDetector();
    const calls: Step[] = [[read('a.ts'), 'A'], [grep('x'), 'X'], [read('b.ts'), 'B']];
    assert.deepEqual(fired(run(d, repeat(13, (i) => calls[i % 3]))), ['7:warning:sameCall', '13:critical:sameCall']);
  });

  it('a new loop that starts after a warning is warned about in its turn', () => {
    const d = new LoopDetector();
    const steps: Step[] = [...repeat(3, (): Step => [read('a.ts'), 'A']), [edit(1), 'ok'], ...repeat(3, (): Step => [grep('y'), 'none'])];
    assert.deepEqual(fired(run(d, steps)), ['3:warning:sameCall', '7:warning:sameCall']);
  });

  it('escalates instead of repeating: one warning per loop even when several detectors see it', () => {
    const d = new LoopDetector();
    // A B A B …: pingPong warns at 4; sameCall would warn at 5 about the same loop and does not.
    const v = run(d, repeat(7, (i): Step => (i % 2 ? [read('b.ts'), 'same'] : [read('a.ts'), 'same'])));
    assert.deepEqual(fired(v), ['4:warning:pingPong']);
  });

  it('a stubborn pattern is reminded about again only once its first evidence has left the window', () => {
    const d = new LoopDetector({ sameResult: { warn: 4, critical: 30 } });
    // Empty searches on odd calls, distinct reads between: at most 15 in the window, below critical.
    const steps = repeat(40, (i): Step => (i % 2 ? [read(`f${i}.ts`), `c${i}`] : [grep(`p${i}`), 'no matches']));
    // Warned at call 7 (the 4th); at call 37 the window (8..37) holds only searches made after it.
    assert.deepEqual(fired(run(d, steps)), ['7:warning:sameResult', '37:warning:sameResult']);
  });

  it('disabled: never fires and never halts', () => {
    const d = new LoopDetector({ enabled: false });
    assert.deepEqual(fired(run(d, repeat(200, () => [read('a.ts'), 'same']))), []);
    assert.equal(d.haltedReason('s'), undefined);
  });

  it('disabling at runtime lifts a halt at once; enabling starts clean', () => {
    const d = new LoopDetector();
    run(d, repeat(5, () => [read('a.ts'), 'same']));
    assert.ok(d.haltedReason('s'));
    d.updateConfig({ enabled: false });
    assert.equal(d.haltedReason('s'), undefined);
    d.updateConfig({ enabled: true });
    assert.equal(d.haltedReason('s'), undefined);
    assert.deepEqual(fired(run(d, repeat(2, () => [read('a.ts'), 'same']))), []);
  });

  it('updateConfig takes effect on the next call', () => {
    const d = new LoopDetector();
    run(d, repeat(2, () => [read('a.ts'), 'same']));
    d.updateConfig({ sameCall: { warn: 2, critical: 3 } });
    assert.equal(d.record('s', read('a.ts'), 'same', false).level, 'critical');
  });

  it('keeps sessions apart; forget drops one', () => {
    const d = new LoopDetector();
    run(d, repeat(5, () => [read('a.ts'), 'same']), 'one');
    assert.ok(d.haltedReason('one'));
    assert.equal(d.haltedReason('two'), undefined);
    assert.deepEqual(fired(run(d, repeat(2, () => [read('a.ts'), 'same']), 'two')), []);
    d.forget('one');
    assert.equal(d.haltedReason('one'), undefined);
  });

  it('drops the least recently used session first, a session used several times in a row included', () => {
    const d = new LoopDetector();
    run(d, repeat(5, () => [read('a.ts'), 'same']), 'kept');
    run(d, repeat(5, () => [read('a.ts'), 'same']), 'dropped');
    // 'kept' is used twice in a row (the second use finds it already the most recent) between
    // new sessions; 'dropped' is not used again, so 600 new sessions push it out.
    for (let i = 0; i < 600; i++) {
      d.record(`s${i}`, read('b.ts'), 'x', false);
      assert.ok(d.haltedReason('kept'));
      assert.ok(d.haltedReason('kept'));
    }
    assert.equal(d.haltedReason('dropped'), undefined);
    // A session forgotten while it was the most recent starts clean when it comes back.
    d.forget('kept');
    assert.equal(d.haltedReason('kept'), undefined);
    assert.deepEqual(fired(run(d, repeat(5, () => [read('a.ts'), 'same']), 'kept')), ['3:warning:sameCall', '5:critical:sameCall']);
  });

  it('rejects invalid configuration with a clear error and keeps the old one', () => {
    const bad: unknown[] = [
      { historySize: 0 }, { historySize: NaN }, { historySize: 2.5 }, { historySize: 4 }, { historySize: 1e9 },
      { sameCall: { warn: 0, critical: 5 } }, { sameCall: { warn: -1, critical: 5 } }, { sameCall: { warn: 6, critical: 5 } },
      { pingPong: { warn: 2, critical: 8 } }, { readOnlyStreak: { warn: NaN, critical: 10 } }, { enabled: 1 },
    ];
    for (const cfg of bad) assert.throws(() => new LoopDetector(cfg as object), /^Error: loop detection: /, JSON.stringify(cfg));
    assert.throws(() => new LoopDetector({ historySize: 4 }), /sameCall\.critical \(5\) exceeds historySize \(4\)/);
    const d = new LoopDetector();
    assert.throws(() => d.updateConfig({ sameCall: { warn: 9, critical: 2 } }), /sameCall\.critical \(2\) must be >= sameCall\.warn \(9\)/);
    assert.deepEqual(fired(run(d, repeat(5, () => [read('a.ts'), 'same']))), ['3:warning:sameCall', '5:critical:sameCall']);
  });

  it('accepts partial nested thresholds from settings', () => {
    const d = new LoopDetector({ sameCall: { warn: 2 } } as object);
    assert.deepEqual(fired(run(d, repeat(5, () => [read('a.ts'), 'same']))), ['2:warning:sameCall', '5:critical:sameCall']);
  });

  it('hostile: memory stays bounded across many calls and many sessions', () => {
    const d = new LoopDetector();
    for (let i = 0; i < 5000; i++) d.record('long', read(`f${i}.ts`), `c${i}`, i % 7 === 0);
    for (let i = 0; i < 5000; i++) d.record(`s${i}`, poll(`p${i}`), `out${i}`, false);
    // Peeks at private state: the bound is the point of this test.
    const sessions = (d as unknown as { sessions: Map<string, { history: unknown[]; polls: Map<string, unknown> }> }).sessions;
    assert.ok(sessions.size <= 512, `sessions ${sessions.size}`);
    for (const s of sessions.values()) {
      assert.ok(s.history.length <= 30);
      assert.ok(s.polls.size <= 16);
    }
  });

  it('hostile: 3000 records with 100 kB results stay linear', () => {
    const d = new LoopDetector();
    const big = 'x'.repeat(100_000);
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const levels = new Set<string>();
    for (let i = 0; i < 3000; i++) levels.add(d.record(`s${i % 3}`, i % 2 ? edit(i) : read(`f${i}`, { deep: { a: [i, { b: i }] } }), big + i, false).level);
    assert.deepEqual([...levels], ['ok'], 'calls that all differ are never a loop');
  });
});
