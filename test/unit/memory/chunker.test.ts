import * as assert from 'node:assert/strict';
import { chunkMarkdown, MAX_CHARS, splitLines, TARGET_CHARS } from '../../../src/core/memory/chunker';
import type { Chunk } from '../../../src/core/memory/types';
import { rng } from '../../support/rng';

/** Every chunk's text is exactly its lines (or, for a cut line, a piece of that one line). */
function assertExactLines(content: string, chunks: Chunk[]): void {
  const lines = splitLines(content);
  for (const c of chunks) {
    assert.ok(c.startLine >= 1 && c.endLine >= c.startLine && c.endLine <= lines.length, `range ${c.startLine}-${c.endLine} in ${lines.length} lines`);
    const joined = lines.slice(c.startLine - 1, c.endLine).join('\n');
    if (c.startLine === c.endLine && c.text !== joined) assert.ok(joined.includes(c.text), `chunk ${c.seq} is a piece of line ${c.startLine}`);
    else assert.equal(c.text, joined, `chunk ${c.seq} is lines ${c.startLine}-${c.endLine}`);
  }
  chunks.forEach((c, i) => assert.equal(c.seq, i));
}

const para = (word: string, chars: number): string => `${word} `.repeat(Math.ceil(chars / (word.length + 1))).slice(0, chars).trim();

describe('memory chunker', () => {
  it('keeps each heading path with its text, and a title with its first section', () => {
    const doc = [
      '# Project Pincer', // 1
      '', // 2
      '## Deploy', // 3
      '', // 4
      'We deploy from the release branch.', // 5
      '', // 6
      '### Staging', // 7
      'Staging runs nightly.', // 8
      '', // 9
      '## People', // 10
      'Ana owns the roadmap.', // 11
    ].join('\n');
    const chunks = chunkMarkdown(doc);
    assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
      ['Project Pincer > Deploy', 1, 5],
      ['Project Pincer > Deploy > Staging', 7, 8],
      ['Project Pincer > People', 10, 11],
    ]);
    assert.equal(chunks[0].text, '# Project Pincer\n\n## Deploy\n\nWe deploy from the release branch.');
    assertExactLines(doc, chunks);
  });

  it('text before the first heading has an empty heading; closing #s and extra spaces are not part of a title', () => {
    const doc = 'Intro line.\n\n##   Notes   on   things ##\nBody.';
    const chunks = chunkMarkdown(doc);
    assert.deepEqual(chunks.map((c) => c.heading), ['', 'Notes on things']);
    assertExactLines(doc, chunks);
  });

  it('reads setext headings, and a "---" under a list item or after a blank line is not one', () => {
    const doc = ['Title', '=====', '', 'Intro.', '', 'Section', '-------', 'Body.', '', '- item', '---', 'after'].join('\n');
    const chunks = chunkMarkdown(doc);
    assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
      ['Title', 1, 4],
      ['Title > Section', 6, 12],
    ]);
  });

  it('never takes a "#" line inside a code fence or front matter for a heading', () => {
    const doc = ['---', 'title: notes', '# a yaml comment', '---', '# Real', '```sh', '# not a heading', 'echo hi', '```', '~~~', '## still code', '~~~', 'end'].join('\n');
    const chunks = chunkMarkdown(doc);
    assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [['', 1, 4], ['Real', 5, 13]]);
    assertExactLines(doc, chunks);
  });

  it('does not split inside a fenced code block that fits the maximum, even past the target', () => {
    const code = ['```ts', ...Array.from({ length: 30 }, (_, i) => `const value${i} = compute(${i}); // ${'x'.repeat(10)}`), '```'];
    const doc = ['## Code', para('alpha', 300), '', ...code, '', para('omega', 300)].join('\n');
    const fenceLen = code.join('\n').length;
    assert.ok(fenceLen > TARGET_CHARS && fenceLen < MAX_CHARS, `fence is ${fenceLen} chars`);
    const chunks = chunkMarkdown(doc);
    const holder = chunks.filter((c) => c.text.includes('```'));
    assert.equal(holder.length, 1, 'the fence is in exactly one chunk');
    assert.ok(holder[0].text.includes(code[0]) && holder[0].text.includes(code[code.length - 1]) && holder[0].text.split('```').length === 3);
    assertExactLines(doc, chunks);
  });

  it('splits a long section at paragraph boundaries into chunks of at most the target', () => {
    const paras = Array.from({ length: 12 }, (_, i) => para(`word${i}`, 300));
    const doc = `# Long\n\n${paras.join('\n\n')}\n`;
    const chunks = chunkMarkdown(doc);
    assert.ok(chunks.length >= 5, `${chunks.length} chunks`);
    for (const c of chunks) {
      assert.ok(c.text.length <= TARGET_CHARS, `chunk of ${c.text.length}`);
      assert.equal(c.heading, 'Long');
      // Paragraph boundaries: no paragraph is cut in two.
      assert.ok(/^(# Long|word\d+)/.test(c.text) && /word\d+$/.test(c.text));
    }
    assertExactLines(doc, chunks);
  });

  it('splits a huge paragraph between lines, and a single huge line at spaces, keeping its line number', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `- list item ${i} ${'y'.repeat(40)}`);
    const huge = para('zeta', 5000);
    const doc = ['# H', ...lines, '', huge, '', 'tail'].join('\n');
    const chunks = chunkMarkdown(doc);
    for (const c of chunks) assert.ok(c.text.length <= MAX_CHARS, `chunk of ${c.text.length}`);
    const pieces = chunks.filter((c) => c.startLine === 83 && c.endLine === 83);
    assert.ok(pieces.length >= 4, `${pieces.length} pieces of line 83`);
    assert.equal(pieces.map((p) => p.text).join(' '), huge, 'the pieces are the line, cut at spaces');
    assertExactLines(doc, chunks);
  });

  it('cuts a line with no spaces at all (base64) into pieces of at most the maximum', () => {
    const blob = 'QUJD'.repeat(1000);
    const chunks = chunkMarkdown(`intro\n\n${blob}`);
    assert.equal(chunks.slice(1).map((c) => c.text).join(''), blob);
    for (const c of chunks) assert.ok(c.text.length <= MAX_CHARS);
  });

  it('handles CRLF and lone CR exactly like LF, with the same line numbers', () => {
    const lf = '# A\n\nfirst\n\n## B\nsecond\nthird\n';
    const a = chunkMarkdown(lf);
    assert.deepEqual(chunkMarkdown(lf.replace(/\n/g, '\r\n')), a);
    assert.deepEqual(chunkMarkdown(lf.replace(/\n/g, '\r')), a);
    assert.deepEqual(a.map((c) => [c.startLine, c.endLine]), [[1, 3], [5, 7]]);
  });

  it('a document with LF line ends gives the same chunks as its CRLF copy, on many random documents', () => {
    // LF documents' chunk texts are slices of the document, CRLF ones are joined lines: both must agree.
    const random = rng(11);
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda'.split(' ');
    const line = () => Array.from({ length: 1 + Math.floor(random() * 40) }, () => pick(words)).join(' ');
    for (let d = 0; d < 60; d++) {
      const parts: string[] = [];
      for (let i = 0; i < 40; i++) {
        parts.push(pick(['# Title', '## Part', '### Sub', '', '', '```', '- item', line(), line(), line(), `${line()} ${line()} ${line()}`.repeat(1 + Math.floor(random() * 8))]));
      }
      const lf = parts.join('\n') + (random() < 0.5 ? '\n' : '');
      const opts = { targetChars: 200 + Math.floor(random() * 600), maxChars: 900 };
      const chunks = chunkMarkdown(lf, opts);
      assert.ok(chunks.length > 0);
      assert.deepEqual(chunkMarkdown(lf.replace(/\n/g, '\r\n'), opts), chunks, `document ${d}`);
      assertExactLines(lf, chunks);
    }
  });

  it('gives no chunks for empty or blank documents, and counts lines as an editor does', () => {
    assert.deepEqual(chunkMarkdown(''), []);
    assert.deepEqual(chunkMarkdown('\n\n   \n\t\n'), []);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('a\n'), ['a']);
    assert.deepEqual(splitLines('a\n\n'), ['a', '']);
    assert.deepEqual(splitLines('a\r\nb'), ['a', 'b']);
  });

  it('keeps headings that have nothing under them at the end of a document', () => {
    const chunks = chunkMarkdown('Body first.\n\n# Later\n## Empty');
    assert.deepEqual(chunks.map((c) => [c.heading, c.text]), [['', 'Body first.'], ['Later > Empty', '# Later\n## Empty']]);
  });

  it('folds a small last piece into the one before it', () => {
    const doc = `# T\n\n${para('aa', 700)}\n\n${para('bb', 500)}\n\nshort end.`;
    const chunks = chunkMarkdown(doc);
    assert.ok(chunks[chunks.length - 1].text.endsWith('short end.'));
    assert.ok(chunks[chunks.length - 1].text.length > 100, 'not a crumb on its own');
    assertExactLines(doc, chunks);
  });

  it('is deterministic, and an edit far away leaves the other chunks exactly as they were', () => {
    const sections = Array.from({ length: 20 }, (_, i) => `## S${i}\n\n${para(`w${i}`, 400)}`);
    const doc = sections.join('\n\n');
    assert.deepEqual(chunkMarkdown(doc), chunkMarkdown(doc));
    const edited = doc.replace(para('w10', 400), para('changed', 400));
    const before = chunkMarkdown(doc).map((c) => c.text);
    const after = chunkMarkdown(edited).map((c) => c.text);
    assert.equal(after.filter((t, i) => t !== before[i]).length, 1);
  });

  it('respects custom sizes and handles a 2 MB document without a blow-up', () => {
    const small = chunkMarkdown(para('x', 3000), { targetChars: 100, maxChars: 200 });
    for (const c of small) assert.ok(c.text.length <= 200);
    const big = Array.from({ length: 4000 }, (_, i) => `## Section ${i}\n\n${para('lorem ipsum', 480)}`).join('\n\n');
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    const chunks = chunkMarkdown(big);
    assert.equal(chunks.length, 4000);
  });
});
