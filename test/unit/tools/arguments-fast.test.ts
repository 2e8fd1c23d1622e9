import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseArguments } from '../../../src/core/tools/arguments';
import { quickParse } from '../../../src/core/tools/arguments-fast';

// Schemas as MCP servers declare them (read through z.fromJSONSchema, as the bridge does) and as
// built-ins write them.
const SCHEMAS: Record<string, z.ZodType> = {
  echo: z.fromJSONSchema({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }),
  mixed: z.fromJSONSchema({
    type: 'object', required: ['a'],
    properties: { a: { type: 'string' }, n: { type: 'number' }, flag: { type: 'boolean' }, pick: { type: 'string', enum: ['x', 'y'] } },
  }),
  closed: z.fromJSONSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }),
  strict: z.object({ path: z.string(), append: z.boolean().optional() }).strict(),
  stripping: z.object({ path: z.string(), n: z.number().optional() }),
  loose: z.looseObject({}),
  // Bounds the short way checks as zod does: a string's length, a number's range, an integer.
  integer: z.fromJSONSchema({ type: 'object', properties: { i: { type: 'integer' } } }),
  bounded: z.object({
    path: z.string().min(1), offset: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(10).optional(),
    code: z.string().length(2).optional(), ratio: z.number().gt(0).lt(1).optional(), short: z.string().max(3).optional(),
    step: z.number().multipleOf(0.5).optional(),
  }).strict(),
  boundedJson: z.fromJSONSchema({
    type: 'object', required: ['path'],
    properties: { path: { type: 'string', minLength: 2, maxLength: 4 }, offset: { type: 'integer', minimum: 1, maximum: 5 }, i: { type: 'integer', exclusiveMinimum: 0 } },
  }),
  intFormat: z.object({ i: z.int() }),
  // Shapes the short way leaves to zod: a default, a string format, a transform, a refinement.
  defaulted: z.fromJSONSchema({ type: 'object', properties: { a: { type: 'string', default: 'q' } } }),
  email: z.object({ s: z.email() }),
  emailJson: z.fromJSONSchema({ type: 'object', properties: { s: { type: 'string', format: 'email' } } }),
  trimmed: z.object({ s: z.string().trim() }),
  refined: z.object({ s: z.string() }).refine((v) => v.s !== 'no'),
};

const getter = { get a() { return 'from a getter'; } };
const INPUTS: unknown[] = [
  {}, { message: 'hi' }, { message: '' }, { message: 1 }, { message: undefined }, { message: null }, { message: 'hi', extra: 1 },
  { extra: 1, message: 'hi' }, JSON.parse('{"message":"hi","__proto__":{"message":"x"}}'), JSON.parse('{"__proto__":{"a":"x"}}'),
  Object.assign(Object.create(null), { message: 'hi', a: 'z' }), Object.create({ message: 'inherited' }), ['hi'], new Date(0),
  { a: 's' }, { n: 1, a: 's' }, { a: 's', n: Number.NaN }, { a: 's', n: Number.POSITIVE_INFINITY }, { a: 's', n: -0 },
  { a: 's', flag: 'true' }, { a: 's', flag: false }, { a: 's', pick: 'x' }, { a: 's', pick: 'z' }, { a: 's', pick: undefined, n: undefined },
  { a: 's', extra: undefined }, { path: 'p' }, { path: 'p', append: true }, { path: 'p', n: 2, other: 'x' }, { i: 2 }, { i: 1.5 },
  { s: ' padded ' }, { s: 'no' }, getter, { a: String('s') }, { a: new String('s') },
  { path: '' }, { path: 'pq' }, { path: 'pqrst' }, { path: 'p', offset: 0 }, { path: 'p', offset: 1 }, { path: 'pq', offset: 5 }, { path: 'pq', offset: 6 },
  { path: 'p', offset: 1.5 }, { path: 'p', offset: 2 ** 53 }, { path: 'p', offset: -0 }, { path: 'p', limit: 10 }, { path: 'p', limit: 11 },
  { path: 'p', code: 'ab' }, { path: 'p', code: 'abc' }, { path: 'p', code: '\u{1F600}' }, { path: 'p', ratio: 0 }, { path: 'p', ratio: 0.5 }, { path: 'p', ratio: 1 },
  { path: 'p', short: 'abc' }, { path: 'p', short: 'abcd' }, { path: 'p', short: '\u{1F600}\u{1F600}\u{1F600}' }, { path: 'p', step: 1.5 }, { path: 'p', step: 0.3 }, { i: 0 }, { i: -1 }, { i: 2 ** 53 }, { i: Number.NaN },
  { s: 'a@b.co' }, { s: 'not an address' },
];

describe('arguments: the short way through validation', () => {
  it('answers only what zod answers: the same keys in the same order and the same values', () => {
    let answered = 0;
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      for (const input of INPUTS) {
        const quick = quickParse(schema, input as object);
        if (quick === undefined) continue;
        answered++;
        const zod = schema.safeParse(input);
        assert.ok(zod.success, `${name}: ${JSON.stringify(input)} accepted here, refused by zod`);
        assert.deepEqual(Object.keys(quick), Object.keys(zod.data as object), `${name}: ${JSON.stringify(input)}`);
        assert.deepEqual(quick, zod.data, `${name}: ${JSON.stringify(input)}`);
        assert.equal(Object.getPrototypeOf(quick), Object.getPrototypeOf(zod.data));
        assert.notEqual(quick, input, 'a new object, as zod makes');
      }
    }
    assert.ok(answered >= 15, `the short way answered ${answered} of the common cases`);
  });

  it('takes the common shapes and leaves the rest to zod', () => {
    assert.deepEqual(quickParse(SCHEMAS.echo, { message: 'hi' }), { message: 'hi' });
    assert.deepEqual(quickParse(SCHEMAS.mixed, { pick: 'y', a: 's', flag: true }), { a: 's', flag: true, pick: 'y' });
    assert.deepEqual(quickParse(SCHEMAS.strict, { path: 'p' }), { path: 'p' });
    const kept = quickParse(SCHEMAS.mixed, { a: 's', n: undefined });
    assert.ok(kept && 'n' in kept && kept.n === undefined, 'an optional key given as undefined stays, as zod keeps it');
    for (const name of ['defaulted', 'email', 'emailJson', 'trimmed', 'refined']) assert.equal(quickParse(SCHEMAS[name], { a: 's', i: 2, s: 'x' }), undefined, name);
    // read_file's arguments as a model sends them: the bounds are checked here, a value out of them is zod's to word.
    assert.deepEqual(quickParse(SCHEMAS.bounded, { path: 'src/a.ts', offset: 3, limit: 10 }), { path: 'src/a.ts', offset: 3, limit: 10 });
    for (const bad of [{ path: '' }, { path: 'p', offset: 0 }, { path: 'p', offset: 1.5 }, { path: 'p', limit: 11 }, { path: 'p', code: 'abc' }, { path: 'p', ratio: 1 }]) {
      assert.equal(quickParse(SCHEMAS.bounded, bad), undefined, JSON.stringify(bad));
    }
    assert.deepEqual(quickParse(SCHEMAS.integer, { i: 2 }), { i: 2 });
    assert.equal(quickParse(SCHEMAS.integer, { i: 1.5 }), undefined);
    assert.equal(quickParse(SCHEMAS.intFormat, { i: 1.5 }), undefined, 'z.int() is a check of its own');
    assert.equal(quickParse(SCHEMAS.echo, JSON.parse('{"message":"hi","__proto__":{"message":"x"}}')), undefined, 'a "__proto__" key is zod\'s to judge');
    assert.equal(quickParse(SCHEMAS.stripping, { path: 'p', other: 'x' }), undefined, 'an unknown key is zod\'s to strip or refuse');
    assert.equal(quickParse(SCHEMAS.echo, Object.create({ message: 'inherited' })), undefined);
  });

  it('the pipeline\'s answers are the same with it: accepted values, and errors worded by zod', () => {
    const ok = parseArguments('echo', SCHEMAS.echo, { message: 'hi' });
    assert.deepEqual(ok, { ok: true, value: { message: 'hi' } });
    const wrong = parseArguments('echo', SCHEMAS.echo, { message: 1 });
    assert.ok(!wrong.ok);
    assert.match(wrong.message, /- message: .*expected string.*\(got number 1\)/);
    const extra = parseArguments('strict', SCHEMAS.strict, { path: 'p', rm: '-rf ~' });
    assert.ok(!extra.ok);
    assert.match(extra.message, /unknown parameter\(s\) "rm"; remove them\./);
    const empty = parseArguments('echo', SCHEMAS.echo, {});
    assert.ok(!empty.ok && empty.kind === 'empty');
    const text = parseArguments('echo', SCHEMAS.echo, '{"message":"from JSON"}');
    assert.deepEqual(text, { ok: true, value: { message: 'from JSON' } });
  });
});
