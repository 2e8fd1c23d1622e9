import * as assert from 'node:assert/strict';
import { createOpenAiCompatibleEmbeddings, type OpenAiCompatibleEmbeddingsOptions } from '../../../src/core/memory/embeddings';
import { MemoryError } from '../../../src/core/memory/types';
import { VectorIndex } from '../../../src/core/memory/vector-index';
import { embedText, startEmbeddingsServer, type EmbeddingsServer } from '../../support/embeddings-server';

const KEY = 'sk-test-0123456789abcdef';

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof Error);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('memory embeddings: OpenAI-compatible provider against a loopback server', () => {
  let server: EmbeddingsServer;
  const make = (extra: Partial<OpenAiCompatibleEmbeddingsOptions> = {}) =>
    createOpenAiCompatibleEmbeddings({ baseUrl: server.url, model: 'test-embed', maxRetries: 0, ...extra });

  afterEach(async () => {
    await server?.stop();
  });

  it('embeds in order, one Float32Array per text, sending base64 and decoding it', async () => {
    server = await startEmbeddingsServer({ dims: 32 });
    const texts = ['the car is red', 'a dog barks', 'the car is red'];
    const vectors = await make().embed(texts);
    assert.equal(vectors.length, 3);
    vectors.forEach((v, i) => {
      assert.ok(v instanceof Float32Array);
      assert.deepEqual(Array.from(v), Array.from(embedText(texts[i], 32)));
    });
    assert.equal(server.stats.lastBody?.encoding_format, 'base64');
    assert.equal(server.stats.lastBody?.model, 'test-embed');
    assert.equal(server.stats.requests, 1);
    assert.deepEqual(await make().embed([]), []);
    assert.equal(server.stats.requests, 1, 'no request for no texts');
  });

  it('never adds headers from OPENAI_CUSTOM_HEADERS (they would go to whatever server is configured)', async () => {
    server = await startEmbeddingsServer({ dims: 8, token: KEY });
    const saved = process.env.OPENAI_CUSTOM_HEADERS;
    process.env.OPENAI_CUSTOM_HEADERS = 'X-Leak: from-env';
    try {
      await make({ apiKey: KEY }).embed(['a']);
      assert.equal(server.stats.lastHeaders?.['x-leak'], undefined);
      assert.equal(server.stats.lastAuthorization, `Bearer ${KEY}`);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_CUSTOM_HEADERS;
      else process.env.OPENAI_CUSTOM_HEADERS = saved;
    }
  });

  it('takes float answers from servers that ignore encoding_format, and the /embeddings route', async () => {
    server = await startEmbeddingsServer({ dims: 16, forceEncoding: 'float' });
    const [v] = await make().embed(['automobile']);
    assert.deepEqual(Array.from(v), Array.from(embedText('car', 16)), 'automobile ~ car in the test space');
    const [w] = await createOpenAiCompatibleEmbeddings({ baseUrl: `${server.rootUrl}/`, model: 'm', maxRetries: 0 }).embed(['dog']);
    assert.deepEqual(Array.from(w), Array.from(embedText('dog', 16)));
  });

  it('batches by batchSize and keeps input order across batches', async () => {
    server = await startEmbeddingsServer({ dims: 64 });
    const texts = Array.from({ length: 23 }, (_, i) => `note number ${i} about topic${i % 5}`);
    const vectors = await make({ batchSize: 5 }).embed(texts);
    assert.equal(server.stats.requests, 5);
    assert.equal(server.stats.maxBatch, 5);
    assert.equal(server.stats.inputs, 23);
    assert.deepEqual(server.stats.batches.flat(), texts);
    vectors.forEach((v, i) => assert.deepEqual(Array.from(v), Array.from(embedText(texts[i], 64)), `text ${i}`));
  });

  it('orders by the response index, not by position', async () => {
    server = await startEmbeddingsServer({ dims: 16 });
    server.misbehave('reverse-order');
    const vectors = await make().embed(['alpha', 'beta', 'gamma']);
    assert.deepEqual(Array.from(vectors[0]), Array.from(embedText('alpha', 16)));
    assert.deepEqual(Array.from(vectors[2]), Array.from(embedText('gamma', 16)));
  });

  it('asks for `dimensions` when set and names it in id; checks the answer has that many', async () => {
    server = await startEmbeddingsServer({ dims: 64 });
    const p = make({ dimensions: 8 });
    const [v] = await p.embed(['hello']);
    assert.equal(v.length, 8);
    assert.equal(server.stats.lastBody?.dimensions, 8);
    assert.equal(p.id, `openai-compatible ${server.url} test-embed 8`);
    assert.equal(make().id, `openai-compatible ${server.url} test-embed `);
    await server.stop();
    server = await startEmbeddingsServer({ dims: 64, ignoreDimensions: true });
    const err = await rejection(make({ dimensions: 8 }).embed(['hello']));
    assert.match(err.message, /64 dimensions, expected 8.*dimensions 8 was asked for/);
  });

  it('sends the key as a bearer token; with no key sends no Authorization header at all', async () => {
    server = await startEmbeddingsServer({ token: KEY });
    await make({ apiKey: KEY }).embed(['x y']);
    assert.equal(server.stats.lastAuthorization, `Bearer ${KEY}`);
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-the-environment-must-not-leak';
    try {
      const err = await rejection(make().embed(['x']));
      assert.equal(server.stats.lastAuthorization, undefined);
      assert.ok(err instanceof MemoryError && err.code === 'unavailable');
      assert.match(err.message, /requires an API key \(HTTP 401/);
      assert.match(err.message, new RegExp(`${server.url.replace(/[./]/g, '\\$&')} \\(model test-embed\\)`));
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('a refused key gives a clear message that never contains the key, though the server echoed it', async () => {
    server = await startEmbeddingsServer({ token: 'the-right-key' });
    const err = await rejection(make({ apiKey: KEY }).embed(['x']));
    assert.match(err.message, /API key was refused \(HTTP 401: Incorrect API key provided: \[redacted\]/);
    assert.ok(!err.message.includes(KEY), err.message);
    assert.ok(!JSON.stringify(err, Object.getOwnPropertyNames(err)).includes(KEY), 'nor any own property');
    assert.match(err.message, /test-embed/);
  });

  it('retries 429 and 500 and then succeeds', async () => {
    server = await startEmbeddingsServer({ dims: 8 });
    server.fail(429, 2);
    const [v] = await make({ maxRetries: 2 }).embed(['retry me']);
    assert.equal(v.length, 8);
    assert.equal(server.stats.requests, 3);
    server.fail(500, 1);
    await make({ maxRetries: 1 }).embed(['again']);
    assert.equal(server.stats.requests, 5);
  });

  it('500 past the retries gives a clear error naming the server, model and retries', async () => {
    server = await startEmbeddingsServer();
    server.fail(500, 10);
    const err = await rejection(make({ maxRetries: 2 }).embed(['x']));
    assert.equal(server.stats.requests, 3);
    assert.ok(err instanceof MemoryError);
    assert.match(err.message, /^Embeddings from http:\/\/127\.0\.0\.1:\d+\/v1 \(model test-embed\): server error \(HTTP 500\) after 2 retries: Injected failure 500/);
    server.fail(429, 10);
    assert.match((await rejection(make({ maxRetries: 0 }).embed(['x']))).message, /rate-limited \(HTTP 429\)/);
  });

  it('aborts mid-request with an AbortError, and does not start when already aborted', async () => {
    // The server answers after 10 minutes: only the abort (sent once it has the request) ends the call.
    server = await startEmbeddingsServer({ delayMs: 600_000 });
    const ctl = new AbortController();
    const received = server;
    void (async () => {
      while (!received.stats.batches.length) await new Promise((r) => setTimeout(r, 10));
      ctl.abort();
    })();
    const err = await rejection(make().embed(['slow'], ctl.signal));
    assert.equal(err.name, 'AbortError');
    const before = server.stats.requests;
    const again = await rejection(make().embed(['x'], AbortSignal.abort()));
    assert.equal(again.name, 'AbortError');
    assert.equal(server.stats.requests, before);
  });

  it('times out a stalled server with a clear message', async () => {
    server = await startEmbeddingsServer({ delayMs: 1000 });
    const err = await rejection(make({ timeoutMs: 100 }).embed(['x']));
    assert.match(err.message, /no answer within 100 ms/);
  });

  it('rejects malformed answers: wrong count, short vector, no data', async () => {
    server = await startEmbeddingsServer({ dims: 8 });
    server.misbehave('drop-one');
    assert.match((await rejection(make().embed(['a', 'b', 'c']))).message, /unusable response: the response has 2 embeddings for 3 inputs/);
    server.misbehave('short-vector');
    assert.match((await rejection(make().embed(['a', 'b']))).message, /dimensions/);
    server.misbehave('no-data');
    assert.match((await rejection(make().embed(['a']))).message, /no "data" list/);
  });

  it('refuses a later answer whose dimensions differ from the first (a changed model)', async () => {
    server = await startEmbeddingsServer({ dims: 8 });
    const p = make();
    await p.embed(['a']);
    server.misbehave('short-vector');
    assert.match((await rejection(p.embed(['b']))).message, /embedding 0 has 7 dimensions, expected 8/);
  });

  it('says what to do when nothing listens or the path is wrong', async () => {
    server = await startEmbeddingsServer();
    const dead = server.rootUrl;
    await server.stop();
    const err = await rejection(createOpenAiCompatibleEmbeddings({ baseUrl: dead, model: 'm', maxRetries: 0 }).embed(['x']));
    assert.match(err.message, /cannot connect \(.*\)\. Is the server running/);
    server = await startEmbeddingsServer();
    const notFound = await rejection(make({ baseUrl: `${server.rootUrl}/api` }).embed(['x']));
    assert.match(notFound.message, /not found \(HTTP 404.*Check the base URL/);
  });

  it('validates its settings', () => {
    const bad: Partial<OpenAiCompatibleEmbeddingsOptions>[] = [
      { baseUrl: 'not a url' }, { baseUrl: 'ftp://x/v1' }, { baseUrl: 'http://u:p@127.0.0.1/v1' }, { model: ' ' },
      { dimensions: 0 }, { batchSize: 5000 }, { batchSize: 1.5 }, { timeoutMs: -1 }, { maxRetries: -1 },
    ];
    for (const b of bad) {
      assert.throws(
        () => createOpenAiCompatibleEmbeddings({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', ...b }),
        (e: unknown) => e instanceof MemoryError && e.code === 'invalid' && /^Embeddings settings: /.test(e.message),
        JSON.stringify(b),
      );
    }
  });

  it('end to end: finds by meaning what the words alone do not share', async () => {
    server = await startEmbeddingsServer({ dims: 256 });
    const docs = ['I parked my automobile in the garage', 'The kitten sleeps on the sofa', 'Quarterly tax report due'];
    const p = make();
    const index = new VectorIndex(256);
    (await p.embed(docs)).forEach((v, i) => index.upsert(i + 1, v));
    const [q] = await p.embed(['where is my car']);
    assert.equal(index.search(q, 1)[0].id, 1);
    const [q2] = await p.embed(['cat']);
    assert.equal(index.search(q2, 1)[0].id, 2);
  });
});
