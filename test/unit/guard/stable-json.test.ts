import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CIRCULAR_MARK, hashCall, hashText, stableJson } from '../../../src/core/guard/stable-json';
import { rng as prng } from '../../support/rng';


function randomValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 5 : 8));
  switch (pick) {
    case 0: return null;
    case 1: return rand() < 0.5;
    case 2: return Math.floor(rand() * 2000) - 1000 + (rand() < 0.3 ? 0.5 : 0);
    case 3: return String.fromCharCode(...Array.from({ length: Math.floor(rand() * 6) }, () => 32 + Math.floor(rand() * 0x2fff)));
    case 4: return undefined;
    case 5: case 6: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 5); i > 0; i--) o[`k${Math.floor(rand() * 20)}`] = randomValue(rand, depth + 1);
      return o;
    }
    default: return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  }
}

/** Reorders every object's keys, leaving arrays alone. */
function shuffleKeys(v: unknown, rand: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rand));
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort(() => rand() - 0.5);
    return Object.fromEntries(keys.map((k) => [k, shuffleKeys((v as Record<string, unknown>)[k], rand)]));
  }
  return v;
}

describe('stableJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    assert.equal(stableJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    assert.equal(stableJson([3, 1, 2]), '[3,1,2]');
  });

  it('follows JSON for values JSON drops or replaces', () => {
    const fn = () => 1;
    assert.equal(stableJson({ a: undefined, b: fn, c: Symbol('s'), d: 1 }), '{"d":1}');
    assert.equal(stableJson([undefined, fn, Symbol('s')]), '[null,null,null]');
    assert.equal(stableJson([NaN, Infinity, -Infinity, -0, 1e21, 0.1]), JSON.stringify([NaN, Infinity, -Infinity, -0, 1e21, 0.1]));
    assert.equal(stableJson(undefined), 'null');
    assert.equal(stableJson({}), '{}');
    assert.equal(stableJson([]), '[]');
  });

  it('honours toJSON and unwraps boxed primitives like JSON.stringify', () => {
    const d = new Date(0);
    assert.equal(stableJson({ when: d }), JSON.stringify({ when: d }));
    assert.equal(stableJson({ gone: { toJSON: () => undefined }, x: 1 }), '{"x":1}');
    assert.equal(stableJson([new String('s'), new Number(2), new Boolean(false)]), '["s",2,false]');
    assert.equal(stableJson({ m: new Map([[1, 2]]) }), '{"m":{}}');
  });

  it('escapes strings and keys exactly as JSON does', () => {
    const s = 'quote " backslash \\ newline \n nul \u0000 lone surrogate \ud800 emoji 😀';
    assert.equal(stableJson({ [s]: s }), JSON.stringify({ [s]: s }));
  });

  it('writes a bigint as its digits instead of throwing', () => {
    assert.equal(stableJson({ n: 12345678901234567890n }), '{"n":12345678901234567890}');
  });

  it('marks cycles without crashing, and writes shared non-cyclic references in full', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const arr: unknown[] = [1];
    arr.push(arr);
    assert.equal(stableJson(a), `{"name":"a","self":${JSON.stringify(CIRCULAR_MARK)}}`);
    assert.equal(stableJson(arr), `[1,${JSON.stringify(CIRCULAR_MARK)}]`);
    const shared = { x: 1 };
    assert.equal(stableJson({ p: shared, q: [shared, shared] }), '{"p":{"x":1},"q":[{"x":1},{"x":1}]}');
  });

  it('treats an own "__proto__" key from parsed JSON as data', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    assert.equal(stableJson(hostile), '{"__proto__":{"polluted":true},"a":1}');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('survives 100k levels of nesting (iterative, no stack overflow) in linear time', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? { k: deep } : [deep];
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const out = stableJson(deep);
    assert.ok(out.includes('"leaf"'));
    assert.equal(out.length, 50_000 * ('{"k":'.length + 1) + 50_000 * 2 + '"leaf"'.length);
  });

  it('writes a flat object (its one-loop path) as JSON does with sorted keys, a null prototype too', () => {
    const o: Record<string, unknown> = { b: 'x "q" \u2028', 10: -0, 2: NaN, a: true, n: null, u: undefined, z: 1e21 };
    const keys = Object.keys(o).sort();
    assert.equal(stableJson(o), JSON.stringify(o, keys));
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, o);
    assert.equal(stableJson(bare), JSON.stringify(o, keys));
    // A value the loop does not write sends the object down the general walk, with the same rules.
    assert.equal(stableJson({ b: 1, a: new Number(3), f: () => 1 }), '{"a":3,"b":1}');
    assert.equal(stableJson({ toJSON: () => ({ y: 1 }) }), '{"y":1}');
    assert.equal(stableJson({ toJSON: 'not a function', a: 1 }), '{"a":1,"toJSON":"not a function"}');
  });

  it('round-trips random values to what JSON.stringify means, whatever the key order', () => {
    const rand = prng(42);
    for (let i = 0; i < 500; i++) {
      const v = { root: randomValue(rand, 0) };
      const text = stableJson(v);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(v)));
      assert.equal(stableJson(shuffleKeys(v, rand)), text);
    }
  });
});

describe('hashCall', () => {
  it('ignores key order, nested too', () => {
    const a = hashCall('read_file', { path: 'a.ts', range: { start: 1, end: 9 }, opts: [{ x: 1, y: 2 }] });
    const b = hashCall('read_file', { opts: [{ y: 2, x: 1 }], range: { end: 9, start: 1 }, path: 'a.ts' });
    assert.equal(a, b);
  });

  it('separates tools, values, array order and types', () => {
    const base = hashCall('read_file', { path: 'a.ts' });
    assert.notEqual(hashCall('write_file', { path: 'a.ts' }), base);
    assert.notEqual(hashCall('read_file', { path: 'b.ts' }), base);
    assert.notEqual(hashCall('t', [1, 2]), hashCall('t', [2, 1]));
    assert.notEqual(hashCall('t', { n: 1 }), hashCall('t', { n: '1' }));
    // The separator keeps the name from running into the arguments.
    assert.notEqual(hashCall('ab', 'c'), hashCall('a', 'bc'));
  });

  it('treats arguments still in JSON text like the parsed object', () => {
    assert.equal(hashCall('grep', '{"b":2,"a":1}'), hashCall('grep', { a: 1, b: 2 }));
    assert.equal(hashCall('grep', 'not json {'), hashCall('grep', 'not json {'));
    assert.notEqual(hashCall('grep', '{broken'), hashCall('grep', {}));
  });

  it('drops undefined arguments like JSON, so an omitted optional equals an absent one', () => {
    assert.equal(hashCall('t', { a: 1, b: undefined }), hashCall('t', { a: 1 }));
  });

  it('keeps a short text as its own fingerprint, deterministically', () => {
    assert.equal(hashText('x'), hashText('x'));
    assert.notEqual(hashText('x'), hashText('y'));
    for (const text of ['', 'x', 'ok\u0000Echo: m5', 'wide \u2014 \ud83d\ude00 and a lone \ud800', 'a'.repeat(128)]) {
      assert.equal(hashText(text), `=${text}`);
    }
  });

  it('gives a long text sha1 in base64url, as a Hash object makes it, compactly', () => {
    for (const text of ['a'.repeat(129), `wide \u2014 \ud83d\ude00 and a lone \ud800 ${'z'.repeat(200)}`, 'x'.repeat(100_000)]) {
      assert.equal(hashText(text), `#${createHash('sha1').update(text).digest('base64url')}`);
      assert.match(hashText(text), /^#[A-Za-z0-9_-]{27}$/);
    }
  });

  it('hostile: a short text that spells a long text\'s digest is not mistaken for it', () => {
    const long = 'q'.repeat(500);
    const digest = createHash('sha1').update(long).digest('base64url');
    assert.notEqual(hashText(digest), hashText(long));
    assert.notEqual(hashText(`#${digest}`), hashText(long));
  });
});
