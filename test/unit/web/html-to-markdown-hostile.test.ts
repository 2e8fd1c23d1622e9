// Pages built to hurt a converter: nesting a hundred thousand deep, a hundred thousand elements,
// megabyte attributes, tags never closed, links in links, emphasis in emphasis. Each converts, keeps
// its text, and writes markdown whose size follows the page's text, not its nesting.
import assert from 'node:assert/strict';
import { htmlToMarkdown } from '../../../src/core/web/html-to-markdown';

const URL = 'https://crabs.example/hostile';
const PROSE = 'The shore crab is the most common crab on the coasts of the North Sea, living in rock pools and estuaries.';

function longestLine(md: string): number {
  return md.split('\n').reduce((n, l) => Math.max(n, l.length), 0);
}

describe('web: HTML to markdown on hostile pages', () => {
  it('nesting 100,000 divs deep: the text at the bottom comes out', () => {
    const html = `<html><body>${'<div>'.repeat(100_000)}<p>${PROSE}</p>${'</div>'.repeat(100_000)}</body></html>`;
    const r = htmlToMarkdown(html, URL);
    assert.equal(r.markdown, PROSE);
  });

  it('lists and quotes nested 20,000 deep indent only so far: lines stay short', () => {
    const lists = `${'<ul><li>claw '.repeat(20_000)}${'</li></ul>'.repeat(20_000)}`;
    const quotes = `${'<blockquote>shell '.repeat(20_000)}${'</blockquote>'.repeat(20_000)}`;
    const md = htmlToMarkdown(`<html><body>${lists}${quotes}<p>${PROSE}</p></body></html>`, URL).markdown;
    assert.equal(md.match(/claw/g)?.length, 20_000);
    assert.equal(md.match(/shell/g)?.length, 20_000);
    assert.ok(longestLine(md) < 200, `longest line ${longestLine(md)}`);
  });

  it('100,000 unclosed elements: a whole page of paragraphs, each written once', () => {
    const html = `<html><body><article>${Array.from({ length: 100_000 }, (_, i) => `<p>Crab number ${i}, a shore crab`).join('')}`;
    const r = htmlToMarkdown(html, URL);
    assert.equal(r.readable, true);
    const lines = r.markdown.split('\n\n');
    assert.equal(lines.length, 100_000);
    assert.equal(lines[99_999], 'Crab number 99999, a shore crab');
  });

  it('megabyte attributes cost nothing and never reach the markdown', () => {
    const big = 'x'.repeat(2_000_000);
    const html = `<html><body><article class="${big}" data-blob="${big}" style="${big}"><p title="${big}" onclick="${big}">${PROSE}</p><img src="/crab.png" alt="A crab" srcset="${big}"></article></body></html>`;
    const md = htmlToMarkdown(html, URL).markdown;
    assert.equal(md, `${PROSE}\n\n![A crab](https://crabs.example/crab.png)`);
  });

  it('tags never closed: headings, list items, table cells and code still come out in order', () => {
    const html = `<html><head><title>Unclosed</title><body><article><h1>Tides</h1><p>${PROSE}<ul><li>high<li>low</ul><table><tr><td>09:14<td>21:40<tr><td>03:02<td>15:28</table><pre><code>tide()`;
    const r = htmlToMarkdown(html, URL);
    assert.equal(r.title, 'Unclosed');
    assert.match(r.markdown, /^# Tides\n\nThe shore crab/);
    assert.match(r.markdown, /- high\n- low/);
    assert.match(r.markdown, /\| 09:14 \| 21:40 \|\n\| 03:02 \| 15:28 \|/);
    assert.match(r.markdown, /```\ntide\(\)\n```$/);
  });

  it('a thousand links inside links make one link; emphasis nested ten thousand deep adds a few marks', () => {
    const links = `${'<a href="/deeper">'.repeat(1000)}down${'</a>'.repeat(1000)}`;
    const marks = `${'<b><i>'.repeat(5000)}bold${'</i></b>'.repeat(5000)}`;
    const md = htmlToMarkdown(`<html><body><p>${PROSE}</p><p>${links}</p><p>${marks}</p></body></html>`, URL).markdown;
    assert.equal(md.match(/\]\(/g)?.length, 1);
    assert.match(md, /\[down\]\(https:\/\/crabs\.example\/deeper\)/);
    assert.ok(md.length < PROSE.length + 200, `markdown of ${md.length} characters`);
  });

  it('tags named like an object\'s own properties are ordinary elements: their text is written as text', () => {
    const odd = ['constructor', 'hasownproperty', 'tostring', 'valueof'].map((t) => `<${t}>Crab in a ${t} tag.</${t}>`).join('');
    const md = htmlToMarkdown(`<html><body><article><p>${PROSE}</p>${odd}<p>${PROSE}</p></article></body></html>`, URL).markdown;
    assert.equal(md, `${PROSE}\n\nCrab in a constructor tag.Crab in a hasownproperty tag.Crab in a tostring tag.Crab in a valueof tag.\n\n${PROSE}`);
  });

  it('tables inside table cells are written as the outer cell\'s text', () => {
    const inner = '<table><tr><td>left</td><td>right</td></tr></table>';
    const deep = `${'<table><tr><td>'.repeat(500)}deep${'</td></tr></table>'.repeat(500)}`;
    const md = htmlToMarkdown(`<html><body><p>${PROSE}</p><table><tr><td>${inner.repeat(3)}</td><td>${deep}</td></tr></table></body></html>`, URL).markdown;
    assert.match(md, /\| left right left right left right \| deep \|/);
    assert.equal(md.match(/\| --- \| --- \|/g)?.length, 1);
  });
});
