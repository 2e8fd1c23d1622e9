import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseArguments } from '../../../src/core/tools/arguments';
import { capText } from '../../../src/core/tools/result-cap';

const schema = z.object({ path: z.string(), content: z.string(), append: z.boolean().optional() }).strict();

describe('arguments', () => {
  it('a missing "content" key is refused, while "" is a valid value', () => {
    const missing = parseArguments('write_file', schema, { path: 'a.txt' });
    assert.ok(!missing.ok);
    assert.match(missing.message, /- content: required, but missing\./);
    const empty = parseArguments('write_file', schema, { path: 'a.txt', content: '' });
    assert.ok(empty.ok);
    assert.equal(empty.value.content, '');
  });

  it('an array or a number where an object belongs is explained', () => {
    const r = parseArguments('write_file', schema, [1, 2]);
    assert.ok(!r.ok);
    assert.match(r.message, /\(arguments\): .*\(got an array of 2\)/);
  });

  it('long strings are described by length, not echoed back', () => {
    const r = parseArguments('write_file', schema, { path: 'x'.repeat(500), content: 5 });
    assert.ok(!r.ok);
    assert.ok(!r.message.includes('x'.repeat(50)));
    assert.match(r.message, /content: .*\(got number 5\)/);
  });

  it('at most ten problems are listed', () => {
    const wide = z.object(Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, z.string()])));
    const r = parseArguments('wide', wide, { k0: 1 });
    assert.ok(!r.ok);
    assert.match(r.message, /… and 5 more\./);
  });
});

describe('result cap', () => {
  it('leaves short text alone', () => {
    assert.deepEqual(capText('abc', 10, 's'), { text: 'abc', truncated: false, omitted: 0 });
  });

  it('keeps head and tail, says how much is missing and which setting widens it', () => {
    const text = 'A'.repeat(700) + 'B'.repeat(10_000) + 'Z'.repeat(300);
    const r = capText(text, 1000, 'pincer.tools.maxResultChars');
    assert.ok(r.truncated);
    assert.equal(r.omitted, 10_000);
    assert.ok(r.text.startsWith('A'.repeat(700)) && r.text.endsWith('Z'.repeat(300)));
    assert.match(r.text, /10,000 characters omitted here: the result was 11,000 characters, over the 1,000-character limit \(pincer\.tools\.maxResultChars\)/);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(2000);
    const r = capText(text, 1001, 's');
    const stripped = r.text.replace(/\n\n\[…[^\]]*\]\n\n/, '');
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(stripped));
  });
});
