// The HTML → markdown converter on its worker thread (the real worker script, compiled beside the
// converter): the same result as converting on the calling thread, cancellation that stops the page
// being converted, a worker that dies failing only its page (with the reason) and the next page
// working, and shutdown.
import assert from 'node:assert/strict';
import { HtmlConverter } from '../../../src/core/web/html-converter';
import { htmlToMarkdown } from '../../../src/core/web/html-to-markdown';

const ARTICLE = `<!doctype html><html><head><title>Crabs of the North Sea</title><script>window.track = 1;</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Crabs of the North Sea</h1>
${'<p>The shore crab is the most common crab on the coasts of the North Sea, living in rock pools and estuaries and eating almost anything.</p>'.repeat(6)}
<h2>Sizes</h2><table><thead><tr><th>Species</th><th>Width (cm)</th></tr></thead><tbody><tr><td>Shore crab</td><td>9</td></tr></tbody></table>
<p>See <a href="/crabs/edible">the edible crab</a>.</p></article><footer>Copyright the crab people</footer></body></html>`;

/** Too short to stand out as main content: converted whole. */
const SHORT = '<!doctype html><html><head><title>Tide table</title></head><body><p>High water at <a href="/tides/today">09:14</a>.</p></body></html>';

/** A page whose DOM does not fit in a few megabytes of heap. */
const HUGE = `<html><body>${'<div><p>crab <b>shell</b> claw</p></div>'.repeat(150_000)}</body></html>`;

describe('web: HTML converter worker', () => {
  const converters: HtmlConverter[] = [];
  const make = (opts?: ConstructorParameters<typeof HtmlConverter>[0]) => {
    const c = new HtmlConverter(opts);
    converters.push(c);
    return c;
  };
  afterEach(() => converters.splice(0).forEach((c) => c.dispose()));

  it('converts on the worker exactly as on the calling thread, one worker for every page', async () => {
    const c = make();
    const url = 'https://crabs.example/north-sea';
    assert.deepEqual(await c.convert(ARTICLE, url), htmlToMarkdown(ARTICLE, url));
    assert.equal(c.workerRunning, true, 'the worker stays for the next page');
    const short = await c.convert(SHORT, 'https://tides.example/');
    assert.deepEqual(short, htmlToMarkdown(SHORT, 'https://tides.example/'));
    assert.equal(short.title, 'Tide table');
    // A page with no main content is converted whole, its links still made absolute.
    assert.match(short.markdown, /High water at \[09:14\]\(https:\/\/tides\.example\/tides\/today\)/);
  });

  it('an article keeps its table and absolute links, and loses scripts, menus and footers', async () => {
    const page = await make().convert(ARTICLE, 'https://crabs.example/north-sea');
    assert.equal(page.readable, true);
    assert.match(page.markdown, /\| Shore crab \| 9 +\|/);
    assert.match(page.markdown, /\[the edible crab\]\(https:\/\/crabs\.example\/crabs\/edible\)/);
    assert.doesNotMatch(page.markdown, /window\.track|Copyright the crab people/);
  });

  it('cancelling the page being converted stops the worker; the next page starts a new one', async () => {
    const c = make();
    const ac = new AbortController();
    const pending = c.convert(HUGE, 'https://crabs.example/', ac.signal);
    assert.equal(c.workerRunning, true);
    ac.abort();
    await assert.rejects(pending, /cancelled/);
    assert.equal(c.workerRunning, false, 'the busy worker was stopped, not left converting');
    assert.equal((await c.convert(SHORT, 'https://tides.example/')).title, 'Tide table');
  });

  it('a page cancelled while it waits is dropped; the page before it still converts', async () => {
    const c = make();
    const ac = new AbortController();
    const first = c.convert(ARTICLE, 'https://crabs.example/');
    const second = c.convert(SHORT, 'https://tides.example/', ac.signal);
    ac.abort();
    await assert.rejects(second, /cancelled/);
    assert.equal((await first).title, 'Crabs of the North Sea');
    await assert.rejects(c.convert(SHORT, 'https://tides.example/', ac.signal), /cancelled/, 'an aborted signal converts nothing');
  });

  it('a worker that dies fails its page with the reason, and the next page works', async () => {
    const c = make({ resourceLimits: { maxOldGenerationSizeMb: 24 } });
    await assert.rejects(c.convert(HUGE, 'https://crabs.example/'), (e: Error) => {
      assert.match(e.message, /HTML converter failed \(.*memory.*\); the next page starts a new converter/);
      return true;
    });
    assert.equal(c.workerRunning, false);
    assert.deepEqual(await c.convert(SHORT, 'https://tides.example/'), htmlToMarkdown(SHORT, 'https://tides.example/'));
  });

  it('a worker that cannot start fails the page with the reason', async () => {
    const c = make({ workerPath: '/nonexistent/pincer-web-convert-worker.js' });
    await assert.rejects(c.convert(SHORT, 'https://tides.example/'), /HTML converter (failed|stopped)/);
  });

  it('shutting down fails the pages still waiting and refuses new ones', async () => {
    const c = make();
    const pending = c.convert(HUGE, 'https://crabs.example/');
    c.dispose();
    await assert.rejects(pending, /shut down/);
    assert.equal(c.workerRunning, false);
    await assert.rejects(c.convert(SHORT, 'https://tides.example/'), /shut down/);
  });
});
