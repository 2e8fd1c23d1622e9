// HTML → markdown on the calling thread (the worker runs the same function): code blocks fenced with
// their text intact, GFM tables with and without a marked header, absolute links, menus dropped.
import assert from 'node:assert/strict';
import { htmlToMarkdown } from '../../../src/core/web/html-to-markdown';

const PARAGRAPHS = '<p>The shore crab is the most common crab on the coasts of the North Sea, living in rock pools and estuaries and eating almost anything.</p>'.repeat(6);

function page(body: string): string {
  return `<!doctype html><html><head><title>Crab notes</title></head><body><nav><a href="/">Home</a></nav><article><h1>Crab notes</h1>${PARAGRAPHS}${body}</article><footer>Copyright the crab people</footer></body></html>`;
}

describe('web: HTML to markdown', () => {
  it('writes a code block fenced, its text as written (entities decoded, lines and blank lines kept, tags dropped)', () => {
    const md = htmlToMarkdown(page('<pre><code>if (a &lt; b &amp;&amp; c) {\n  crab.molt();\n}\n\n\n// <b>molted</b> *twice*</code></pre>'), 'https://crabs.example/').markdown;
    assert.match(md, /```\nif \(a < b && c\) \{\n {2}crab\.molt\(\);\n\}\n\n\n\/\/ molted \*twice\*\n```/);
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

  it('names a code block\'s language from a language-* class on <code> or a lang-* class on <pre>', () => {
    const md = htmlToMarkdown(page('<pre><code class="hljs language-ts">const crab: Crab = molt();</code></pre><pre class="lang-py"><code>crab = molt()</code></pre>'), 'https://crabs.example/').markdown;
    assert.match(md, /```ts\nconst crab: Crab = molt\(\);\n```/);
    assert.match(md, /```py\ncrab = molt\(\)\n```/);
  });

  it('fences a code block that holds a fence with a longer one', () => {
    const md = htmlToMarkdown(page('<pre>```\ninner\n```</pre>'), 'https://crabs.example/').markdown;
    assert.match(md, /````\n```\ninner\n```\n````/);
  });

  it('chooses the content among plain divs by how much prose they hold and what their names say', () => {
    const r = htmlToMarkdown(`<html><head><title>Moulting</title></head><body>
      <div class="top-menu"><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/shop">Shop</a></div>
      <div id="content"><h2>How a crab moults</h2>${PARAGRAPHS}</div>
      <div class="sidebar"><p>Related posts: the hermit crab, the spider crab, the velvet crab and many more to read.</p></div>
      <div class="comments"><p>Great article, thanks, I loved every word of it and shared it with all my friends.</p></div>
    </body></html>`, 'https://crabs.example/moult');
    assert.equal(r.readable, true);
    assert.equal(r.title, 'Moulting');
    assert.match(r.markdown, /^## How a crab moults\n\nThe shore crab is/);
    assert.doesNotMatch(r.markdown, /Home|Related posts|Great article/);
  });

  it('leaves out blocks inside the content that are mostly links, and menus by their class names', () => {
    const md = htmlToMarkdown(page('<ul><li><a href="/a">Hermit crab</a></li><li><a href="/b">Spider crab</a></li></ul><div class="nav"><a href="/c">Velvet crab</a></div>'
      + '<ul><li>A list of words with <a href="/d">one link</a> in it</li></ul>'), 'https://crabs.example/').markdown;
    assert.doesNotMatch(md, /Hermit|Spider|Velvet/);
    assert.match(md, /- A list of words with \[one link\]\(https:\/\/crabs\.example\/d\) in it/);
  });

  it('leaves out what the page hides and what is never text: scripts, styles, hidden and aria-hidden elements, inline SVG', () => {
    const md = htmlToMarkdown(page('<p hidden>Secret one.</p><p style="color: red; display: none">Secret two.</p><div aria-hidden="true">Secret three.</div>'
      + '<script>window.secret = 4;</script><style>.x { color: red }</style><svg><text>Secret five.</text></svg><noscript>Secret six.</noscript><p>Visible.</p>'), 'https://crabs.example/').markdown;
    assert.match(md, /Visible\./);
    assert.doesNotMatch(md, /[Ss]ecret|color: red/);
  });

  it('writes lists (nested, numbered from their start), quotes, emphasis and line breaks', () => {
    const md = htmlToMarkdown(page('<ul><li>Claws<ul><li>left <em>crusher</em></li><li>right <strong>cutter</strong></li></ul></li><li><p>Legs</p></li></ul>'
      + '<ol start="3"><li>Molt</li><li>Harden</li></ol><blockquote><p>A crab walks sideways.</p><p>Mostly.</p></blockquote><p>Low tide<br>High tide</p>'), 'https://crabs.example/').markdown;
    assert.match(md, /- Claws\n {2}- left _crusher_\n {2}- right \*\*cutter\*\*\n- Legs/);
    assert.match(md, /3\. Molt\n4\. Harden/);
    assert.match(md, /\n\n> A crab walks sideways\.\n>\n> Mostly\.\n\n/);
    assert.match(md, /Low tide\nHigh tide/);
  });

  it('escapes page text that markdown would read as markup', () => {
    const md = htmlToMarkdown(page('<p>snake_case and *stars* and [brackets]</p><p># not a heading</p><p>1. not a list</p>'), 'https://crabs.example/').markdown;
    assert.match(md, /snake\\_case and \\\*stars\\\* and \\\[brackets\\\]/);
    assert.match(md, /\n\\# not a heading\n/);
    assert.match(md, /\n1\\\. not a list/);
  });

  it('resolves links and images against the page\'s <base href>, and keeps only the alt text of inline image data', () => {
    const md = htmlToMarkdown(page('<p><a href="edible">The edible crab</a> <img src="img/crab.png" alt="A crab"> <img src="data:image/png;base64,AAAA" alt="Inline crab"> <a href="javascript:alert(1)">no link</a></p>')
      .replace('<head>', '<head><base href="https://cdn.crabs.example/docs/">'), 'https://crabs.example/page').markdown;
    assert.match(md, /\[The edible crab\]\(https:\/\/cdn\.crabs\.example\/docs\/edible\)/);
    assert.match(md, /!\[A crab\]\(https:\/\/cdn\.crabs\.example\/docs\/img\/crab\.png\)/);
    assert.match(md, /\[image: Inline crab\]/);
    assert.match(md, / no link/);
    assert.doesNotMatch(md, /AAAA|javascript/);
  });

  it('resolves every spelling of a path as the URL parser does: plain paths, dot segments, encoded dots, backslashes, queries, other hosts', () => {
    // Plain paths are joined to the origin without the parser; the rest go through it. Both must agree with it.
    const base = 'https://diver:reef@Crabs.Example:8443/dir/page';
    const hrefs = ['/a/b.html', '/a//b', '/a/./b', '/a/../b', '/..', '/a/.', '/%2e%2e/x', '/a\\b', '//other.example/x', '/x?y=1', '/x#tail',
      '/cr\u00e4b', '/a b', '/(shell)', 'c/d', '../e', '/~kelp_pool-1.2'];
    const md = htmlToMarkdown(page(`<p>${hrefs.map((h, i) => `<a href="${h.replace(/"/g, '&quot;')}">link${i}</a>`).join(' ')}</p>`), base).markdown;
    hrefs.forEach((h, i) => {
      const expected = new URL(h, base).href.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\s/g, '%20');
      assert.ok(md.includes(`[link${i}](${expected})`), `${h} → ${expected} in ${md.slice(-900)}`);
    });
  });
});
