// HTML → markdown on the calling thread (the worker runs the same function): code blocks fenced with
// their text intact, GFM tables with and without a marked header, absolute links, menus dropped.
import assert from 'node:assert/strict';
import { htmlToMarkdown } from '../../../src/core/web/html-to-markdown';

const PARAGRAPHS = '<p>The shore crab is the most common crab on the coasts of the North Sea, living in rock pools and estuaries and eating almost anything.</p>'.repeat(6);

function page(body: string): string {
  return `<!doctype html><html><head><title>Crab notes</title></head><body><nav><a href="/">Home</a></nav><article><h1>Crab notes</h1>${PARAGRAPHS}${body}</article><footer>Copyright the crab people</footer></body></html>`;
}

describe('web: HTML to markdown', () => {
  it('writes a code block fenced, its text as written (entities decoded, lines kept)', () => {
    const md = htmlToMarkdown(page('<pre><code>if (a &lt; b &amp;&amp; c) {\n  crab.molt();\n}</code></pre>'), 'https://crabs.example/').markdown;
    assert.match(md, /```\nif \(a < b && c\) \{\n {2}crab\.molt\(\);\n\}\n```/);
  });

  it('writes tables as GFM tables: rows in <thead>/<tbody>, rows straight in <table>, and a header added when none is marked', () => {
    const md = htmlToMarkdown(page(
      '<table><thead><tr><th>Species</th><th>Width</th></tr></thead><tbody><tr><td>Shore crab</td><td>9</td></tr><tr><td>Edible crab</td><td>25</td></tr></tbody></table>'
      + '<table><tr><td>Tide</td><td>High</td></tr><tr><td>Time</td><td>09:14</td></tr></table>',
    ), 'https://crabs.example/').markdown;
    assert.match(md, /\| Species \| Width \|\n\| --- \| --- \|\n\| Shore crab \| 9 +\|\n\| Edible crab \| 25 +\|/);
    assert.match(md, /\| +\| +\|\n\| --- \| --- \|\n\| Tide \| High \|\n\| Time \| 09:14 \|/);
    assert.doesNotMatch(md, /SpeciesWidth|TideHigh/, 'no table written as run-together cell text');
  });

  it('keeps links absolute and drops menus and footers in an article', () => {
    const r = htmlToMarkdown(page('<p>See <a href="/crabs/edible">the edible crab</a>.</p>'), 'https://crabs.example/north-sea');
    assert.equal(r.readable, true);
    assert.match(r.markdown, /\[the edible crab\]\(https:\/\/crabs\.example\/crabs\/edible\)/);
    assert.doesNotMatch(r.markdown, /Home|Copyright the crab people/);
  });

  it('keeps the table of a page that holds nothing else', () => {
    const r = htmlToMarkdown('<html><head><title>Tides</title></head><body><table><tr><th>Tide</th><th>Time</th></tr><tr><td>High</td><td>09:14</td></tr></table></body></html>', 'https://tides.example/');
    assert.equal(r.title, 'Tides');
    assert.match(r.markdown, /\| Tide \| Time \|\n\| --- \| --- \|\n\| High \| 09:14 \|/);
  });
});
