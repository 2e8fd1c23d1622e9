// The first-run probe for local model servers against real loopback servers: an OpenAI-style
// `/models` answer is found with its model ids; a server that answers something else, an error
// status, a redirect, nothing at all (a closed port) or too late is not offered.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeLocalServers, probeServer } from '../../../src/core/agent/local-model-probe';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

describe('local model server probe', () => {
  const servers: http.Server[] = [];
  const serve = async (handler: Handler): Promise<string> => {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  };
  const json = (body: unknown): Handler => (req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  after(() => servers.forEach((s) => { s.closeAllConnections(); s.close(); }));

  it('finds an OpenAI-compatible server and lists its model ids', async () => {
    const url = await serve(json({ object: 'list', data: [{ id: 'llama3.2:3b' }, { id: 'qwen2.5-coder' }, { nope: 1 }] }));
    assert.deepEqual(await probeServer('Ollama', url), { name: 'Ollama', baseUrl: url, models: ['llama3.2:3b', 'qwen2.5-coder'] });
    assert.deepEqual(await probeServer('LM Studio', `${url}/`), { name: 'LM Studio', baseUrl: `${url}/`, models: ['llama3.2:3b', 'qwen2.5-coder'] }, 'a trailing slash is fine');
  });

  it('offers nothing for another kind of answer, an error, a redirect, a closed port or a server that hangs', async () => {
    const other = await serve(json({ status: 'ok' }));
    const failing = await serve((_req, res) => { res.writeHead(500); res.end('{"data":[]}'); });
    const html = await serve((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>router login</html>'); });
    const redirect = await serve((_req, res) => { res.writeHead(302, { location: 'http://example.com/models' }); res.end(); });
    let hung!: () => void;
    const answered = new Promise<void>((r) => (hung = r));
    const hanging = await serve(() => hung()); // never answers
    const closed = await serve(json({ data: [] }));
    await new Promise<void>((r) => servers[servers.length - 1].close(() => r()));
    for (const url of [other, failing, html, redirect, closed]) assert.equal(await probeServer('x', url), undefined, url);
    assert.equal(await probeServer('x', hanging, 100), undefined, 'a server that never answers is given up on');
    await answered;
  });

  it('probes several addresses at once and keeps the order given', async () => {
    const a = await serve(json({ data: [{ id: 'a' }] }));
    const b = await serve(json({ data: [] }));
    const found = await probeLocalServers([{ name: 'B', baseUrl: b }, { name: 'none', baseUrl: 'http://127.0.0.1:9/v1' }, { name: 'A', baseUrl: a }]);
    assert.deepEqual(found.map((s) => [s.name, s.models.length]), [['B', 0], ['A', 1]]);
  });
});
