import * as http from 'http';
import { NoteStore } from './notes';

const port = Number(process.env.PORT ?? 3000);
const store = new NoteStore(process.env.NOTES_FILE ?? 'data/notes.json');
store.load();

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

export const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  const [, resource, slug] = url.pathname.split('/');
  if (resource !== 'notes') return send(res, 404, { error: 'not found' });

  if (req.method === 'GET' && !slug) return send(res, 200, store.list(url.searchParams.get('tag') ?? undefined));
  if (req.method === 'GET') {
    const note = store.get(slug);
    return note ? send(res, 200, note) : send(res, 404, { error: `no note ${slug}` });
  }
  if (req.method === 'POST' && !slug) {
    // No validation yet: a body without a title crashes slugify().
    const { title, body, tags } = JSON.parse(await readBody(req));
    try {
      const note = store.add(title, body, tags);
      store.save();
      return send(res, 201, note);
    } catch (e) {
      return send(res, 409, { error: (e as Error).message });
    }
  }
  send(res, 405, { error: 'method not allowed' });
});

if (require.main === module) {
  server.listen(port, () => console.log(`acme-notes listening on http://localhost:${port}/notes`));
}
