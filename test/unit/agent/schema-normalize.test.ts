import * as assert from 'node:assert/strict';
import { z } from 'zod';
import type { ModelTool } from '../../../src/core/agent/model-types';
import { normalizeToolsFor, sanitizeToolName, TOOL_NAME_PATTERN, toolNameMapper } from '../../../src/core/agent/schema-normalize';

const tool = (name: string, parameters: Record<string, unknown> = { type: 'object', properties: {} }): ModelTool => ({ name, description: `${name} tool`, parameters });
const paramsOf = (providerId: string, model: string, parameters: Record<string, unknown>) => normalizeToolsFor(providerId, model, [tool('t', parameters)]).tools[0].parameters;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** What zod 4 makes of a discriminated union (as Registry.jsonSchema does). */
function processSchema(): Record<string, unknown> {
  const s = z.discriminatedUnion('action', [
    z.object({ action: z.literal('list'), limit: z.number().int().min(1).max(100).optional() }),
    z.object({ action: z.literal('kill'), id: z.string().regex(/^j/), signal: z.enum(['TERM', 'KILL']).nullable() }),
  ]);
  const json = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { type: 'object', properties: {}, ...json };
}

describe('agent schema normalisation: top level', () => {
  it('gives every schema a top-level type object with properties', () => {
    assert.deepEqual(paramsOf('openai', 'gpt-4.1', {}), { type: 'object', properties: {} });
    assert.deepEqual(paramsOf('openai', 'gpt-4.1', { properties: { a: { type: 'string' } } }), { type: 'object', properties: { a: { type: 'string' } } });
    assert.deepEqual(paramsOf('openai', 'gpt-4.1', { type: 'string', description: 'oops' }), { type: 'object', properties: {}, description: 'oops' });
    assert.deepEqual(normalizeToolsFor('openai', 'm', [{ name: 'x', description: '', parameters: null as never }]).tools[0].parameters, { type: 'object', properties: {} });
  });

  it('flattens a zod discriminated union: every property, the discriminator enum kept, required only where all variants require', () => {
    const out = paramsOf('openai', 'gpt-4.1', processSchema());
    assert.equal(out.oneOf, undefined);
    assert.equal(out.anyOf, undefined);
    assert.deepEqual(out.properties, {
      action: { type: 'string', enum: ['list', 'kill'] },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      id: { type: 'string', pattern: '^j' },
      signal: { anyOf: [{ type: 'string', enum: ['TERM', 'KILL'] }, { type: 'null' }] },
    });
    assert.deepEqual(out.required, ['action']);
    assert.equal(out.additionalProperties, undefined, 'a flattened union is looser than each variant');
  });

  it('merges enums of the same property across anyOf variants and keeps the base properties required', () => {
    const out = paramsOf('anthropic', 'claude-sonnet-4-5', {
      type: 'object',
      properties: { session: { type: 'string' } },
      required: ['session'],
      anyOf: [
        { type: 'object', properties: { mode: { enum: ['a', 'b'] }, x: { type: 'number' } }, required: ['mode', 'x'] },
        { type: 'object', properties: { mode: { enum: ['b', 'c'] } }, required: ['mode'] },
        { type: 'string' },
      ],
    });
    assert.deepEqual(out, {
      type: 'object',
      properties: { session: { type: 'string' }, mode: { enum: ['a', 'b', 'c'] }, x: { type: 'number' } },
      required: ['session', 'mode'],
    });
  });

  it('merges allOf parts with the union of their required fields', () => {
    const out = paramsOf('openai', 'gpt-4.1', {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
      ],
    });
    assert.deepEqual(out, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'] });
  });

  it('leaves constraints alone for providers that accept them', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 0, format: 'int32' } }, additionalProperties: false };
    assert.deepEqual(paramsOf('openai', 'gpt-4.1', schema), schema);
    assert.deepEqual(paramsOf('anthropic', 'claude-opus-4-5', schema), schema);
  });
});

describe('agent schema normalisation: Gemini', () => {
  it('strips refused keywords at every depth but keeps properties that happen to share their names', () => {
    const out = paramsOf('openai', 'gemini-2.5-flash', {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      type: 'object',
      additionalProperties: false,
      patternProperties: { '^x': { type: 'string' } },
      examples: [{}],
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: 9, pattern: '^a', format: 'regex', description: 'the pattern' },
        format: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 }, minItems: 1, maxItems: 3 },
        nested: { type: 'object', properties: { deep: { type: 'string', examples: ['e'] } }, additionalProperties: { type: 'string' } },
      },
      required: ['pattern'],
    });
    assert.deepEqual(out, {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'the pattern' },
        format: { type: 'array', items: { type: 'number' } },
        nested: { type: 'object', properties: { deep: { type: 'string' } } },
      },
      required: ['pattern'],
    });
  });

  it('turns const into a one-value enum, drops null variants and null types, and flattens the zod union', () => {
    const out = paramsOf('gemini', 'anything', {
      type: 'object',
      properties: {
        kind: { const: 'fixed' },
        maybe: { anyOf: [{ type: 'string', description: 'text' }, { type: 'null' }], description: 'optional text' },
        typed: { type: ['integer', 'null'] },
        choice: { oneOf: [{ const: 'a' }, { const: 'b' }, { const: null }] },
      },
    });
    assert.deepEqual(out.properties, {
      kind: { enum: ['fixed'] },
      maybe: { type: 'string', description: 'optional text' },
      typed: { type: 'integer' },
      choice: { enum: ['a', 'b'] },
    });
    const flattened = paramsOf('openai', 'models/gemini-1.5-pro', processSchema());
    assert.deepEqual(flattened.properties, {
      action: { type: 'string', enum: ['list', 'kill'] },
      limit: { type: 'integer' },
      id: { type: 'string' },
      signal: { type: 'string', enum: ['TERM', 'KILL'] },
    });
    assert.deepEqual(flattened.required, ['action']);
  });

  it('inlines local $refs before dropping $defs, and stops a recursive one', () => {
    const out = paramsOf('openai', 'gemini-2.0', {
      type: 'object',
      $defs: { Point: { type: 'object', properties: { x: { type: 'number', minimum: 0 } } }, Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      definitions: { Name: { type: 'string', maxLength: 5 } },
      properties: { at: { $ref: '#/$defs/Point', description: 'where' }, name: { $ref: '#/definitions/Name' }, tree: { $ref: '#/$defs/Node' }, ext: { $ref: 'https://example.com/s.json' } },
    });
    assert.deepEqual(out, {
      type: 'object',
      properties: {
        at: { type: 'object', properties: { x: { type: 'number' } }, description: 'where' },
        name: { type: 'string' },
        tree: { type: 'object', properties: { child: { type: 'object' } } },
        ext: { type: 'object' },
      },
    });
  });

  it('survives hostile schemas: __proto__ properties stay data, very deep nesting is cut off, input is never mutated', () => {
    const hostile = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","pattern":"x"},"ok":{"type":"string"}}}') as Record<string, unknown>;
    deepFreeze(hostile);
    const out = paramsOf('openai', 'gemini-pro', hostile) as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(out.properties), ['__proto__', 'ok']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out.properties, '__proto__')?.value, { type: 'string' });
    assert.equal(Object.getPrototypeOf(out.properties), Object.prototype);
    assert.equal(({} as Record<string, unknown>).type, undefined, 'no prototype pollution');
    // 5,000 levels, each pointing twice at the level below: 2^5000 paths if walked naively.
    let inner: Record<string, unknown> = { type: 'string' };
    let deep = inner;
    for (let i = 0; i < 5000; i++) {
      inner = deep;
      deep = { type: 'object', properties: { n: inner }, anyOf: [{ type: 'object', properties: { m: inner } }] };
    }
    // Bounded by the test's timeout: walking every path would never end.
    const cut = paramsOf('openai', 'gemini-pro', deep);
    assert.equal(cut.type, 'object');
    assert.ok(JSON.stringify(cut).length < 2_000_000, 'nesting cut off');
    assert.deepEqual(paramsOf('openai', 'gpt-4.1', deep).properties, { n: inner, m: inner }, 'only the top level is flattened');
  });

  it('stops a "billion laughs" of $refs that each point twice at the next definition', () => {
    const $defs: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) $defs[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
    // 2^40 copies if expanded: bounded by the test's timeout and by the size check below.
    const out = paramsOf('openai', 'gemini-2.5-pro', { type: 'object', $defs, properties: { root: { $ref: '#/$defs/d0' } } });
    assert.equal(out.type, 'object');
    assert.ok(JSON.stringify(out).length < 2_000_000);
    assert.equal(JSON.stringify(out).includes('$ref'), false);
  });
});

describe('agent schema normalisation: names and determinism', () => {
  it('sanitises names to ^[a-zA-Z0-9_-]{1,64}$ and maps them back', () => {
    const { tools, nameMap } = normalizeToolsFor('openai', 'gpt-4.1', [tool('mcp.github/search'), tool('read_file'), tool('ünïcödé 🦀'), tool(''), tool('x'.repeat(100))]);
    assert.deepEqual(tools.map((t) => t.name), ['mcp_github_search', 'read_file', '_n_c_d___', 'tool', 'x'.repeat(64)]);
    for (const t of tools) assert.match(t.name, TOOL_NAME_PATTERN);
    assert.equal(nameMap.get('mcp_github_search'), 'mcp.github/search');
    assert.equal(nameMap.get('read_file'), 'read_file');
    const names = toolNameMapper('openai', 'gpt-4.1', nameMap);
    assert.equal(names.toWire('mcp.github/search'), 'mcp_github_search');
    assert.equal(names.fromWire('mcp_github_search'), 'mcp.github/search');
    assert.equal(names.fromWire('unknown_tool'), 'unknown_tool', 'a name the model made up passes through for the registry to refuse');
    assert.equal(names.toWire('removed.tool'), 'removed_tool', 'history names outside the tool list are sanitised alike');
  });

  it('makes colliding names unique, valid names keep theirs, and the outcome does not depend on order', () => {
    const input = [tool('a.b'), tool('a_b'), tool('a/b'), tool(`${'y'.repeat(70)}1`), tool(`${'y'.repeat(70)}2`)];
    const forward = normalizeToolsFor('openai', 'gpt-4.1', input);
    const backward = normalizeToolsFor('openai', 'gpt-4.1', [...input].reverse());
    const wireOf = (r: ReturnType<typeof normalizeToolsFor>) => new Map([...r.nameMap].map(([w, p]) => [p, w]));
    assert.equal(wireOf(forward).get('a_b'), 'a_b', 'a valid name is never renamed');
    assert.deepEqual(wireOf(forward), wireOf(backward));
    const wire = forward.tools.map((t) => t.name);
    assert.equal(new Set(wire).size, 5);
    for (const w of wire) assert.match(w, TOOL_NAME_PATTERN);
    assert.equal(forward.nameMap.size, 5);
  });

  it('gives Gemini names a letter or underscore first', () => {
    assert.equal(sanitizeToolName('1password.get', true), '_1password_get');
    assert.equal(sanitizeToolName('1password.get', false), '1password_get');
  });

  it('is deterministic: the same tools give byte-identical JSON, and the input is not mutated', () => {
    const tools = deepFreeze([tool('proc.ess', processSchema()), tool('grep', { type: 'object', properties: { pattern: { type: 'string', pattern: '.' } } })]);
    const before = JSON.stringify(tools);
    for (const model of ['gpt-4.1', 'gemini-2.5-pro']) {
      const a = JSON.stringify(normalizeToolsFor('openai', model, tools).tools);
      const b = JSON.stringify(normalizeToolsFor('openai', model, JSON.parse(before) as ModelTool[]).tools);
      assert.equal(a, b, model);
    }
    assert.equal(JSON.stringify(tools), before);
  });

  it('handles a thousand tools with many collisions without a blow-up', () => {
    const many = Array.from({ length: 1000 }, (_, i) => tool(`mcp.server${i % 10}/tool.${Math.floor(i / 10)}`));
    many.push(...Array.from({ length: 50 }, (_, i) => tool(`mcp_server${i % 10}_tool_${Math.floor(i / 10)}`)));
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const { tools, nameMap } = normalizeToolsFor('anthropic', 'claude', many);
    assert.equal(new Set(tools.map((t) => t.name)).size, 1050);
    assert.equal(nameMap.size, 1050);
  });
});
