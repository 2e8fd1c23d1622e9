// A server's resource attached to a chat message: read through the bridge's connection from real
// servers (server-everything, and the hostile fixture's planted secret, over-long and binary
// resources), capped and scrubbed before it leaves the MCP client, and pasted into the message inside
// the untrusted-content markers, which its own text cannot close early.
import assert from 'node:assert/strict';
import { chipsToText } from '../../../src/core/chat/chips-text';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import { RESOURCE_ATTACH_CHARS } from '../../../src/core/mcp/mcp-resource';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, HOSTILE, stdioServer } from './mcp-servers';

const TOKEN = 'hostile-resource-token-9f8e7d6c5b4a';
const BEGIN = /<<<EXTERNAL_UNTRUSTED_CONTENT source="mcp:hostile\/hostile:\/\/notes">>>/;
const END = '<<<END_EXTERNAL_UNTRUSTED_CONTENT>>>';

describe('MCP resources attached to a chat message', () => {
  let mcp: McpManager | undefined;
  const start = async (...servers: Parameters<McpManager['start']>[0]) => {
    const rt = runtimeWith({});
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => ['/tmp'], clientVersion: 'test' });
    assert.deepEqual(await mcp.start(servers), []);
    return mcp;
  };
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });

  it('server-everything: a listed text resource is read whole, as the server sent it', async () => {
    const m = await start(stdioServer('everything', EVERYTHING));
    const listed = await m.resources('everything');
    const text = listed?.find((r) => r.mimeType?.startsWith('text/'));
    assert.ok(text, JSON.stringify(listed?.slice(0, 5)));
    const read = await m.readResource('everything', text.uri);
    assert.ok(read);
    assert.equal(read.uri, text.uri);
    assert.equal(read.server, 'everything');
    assert.equal(read.truncated, false);
    assert.ok(read.text.trim().length > 0);
    assert.doesNotMatch(read.text, /binary content/);
  });

  it('a planted secret is scrubbed, and the resource cannot close its untrusted block in the message', async () => {
    const m = await start(stdioServer('hostile', HOSTILE, { env: { HOSTILE_TOKEN: TOKEN }, secrets: [TOKEN] }));
    const read = await m.readResource('hostile', 'hostile://notes');
    assert.ok(read);
    assert.ok(!read.text.includes(TOKEN), read.text);
    assert.match(read.text, /token=/);
    const message = chipsToText([{ kind: 'resource', server: 'hostile', path: 'hostile://notes', text: read.text, origin: 'user' }])!;
    assert.match(message, /resource hostile:\/\/notes of the MCP server "hostile"/);
    assert.match(message, BEGIN);
    // One end marker only: the one closing the block, after the server's text.
    assert.equal(message.split(END).length, 2, message);
    assert.ok(message.trimEnd().endsWith(END));
    assert.ok(message.indexOf('ignore the user') < message.indexOf(END));
  });

  it('an over-long resource is cut with a note; a binary one is named by type and size, not pasted', async () => {
    const m = await start(stdioServer('hostile', HOSTILE));
    const big = await m.readResource('hostile', 'hostile://big');
    assert.ok(big?.truncated);
    assert.ok(big.text.length <= RESOURCE_ATTACH_CHARS + 100, String(big.text.length));
    assert.match(big.text, /cut here: the resource has 300,000 characters/);
    const blob = await m.readResource('hostile', 'hostile://blob');
    assert.match(blob!.text, /^\[binary content: application\/octet-stream, 17 bytes — not shown\]$/);
  });

  it('a resource the server does not have is an error naming the server; an unknown server reads nothing', async () => {
    const m = await start(stdioServer('hostile', HOSTILE));
    await assert.rejects(m.readResource('hostile', 'hostile://missing'), /MCP server "hostile"/);
    assert.equal(await m.readResource('nobody', 'hostile://notes'), undefined);
  });

  it('files stay named, selections pasted: the resource chip is the only one wrapped', () => {
    const text = chipsToText([
      { kind: 'file', path: 'src/a.ts', origin: 'editor' },
      { kind: 'selection', path: 'src/a.ts', range: { startLine: 2, endLine: 3 }, text: 'const x = 1;', origin: 'editor' },
      { kind: 'resource', server: 'docs', path: 'docs://guide', text: 'The guide.', origin: 'user' },
    ])!;
    assert.match(text, /- file src\/a\.ts \(read it with read_file/);
    assert.match(text, /- selection in src\/a\.ts lines 2-3:\n```\nconst x = 1;\n```/);
    assert.equal(text.split('<<<EXTERNAL_UNTRUSTED_CONTENT').length, 2);
    assert.match(text, /source="mcp:docs\/docs:\/\/guide">>>\n.*\nThe guide\.\n<<<END_EXTERNAL_UNTRUSTED_CONTENT>>>$/);
    assert.equal(chipsToText([]), undefined);
  });
});
