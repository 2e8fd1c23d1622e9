// How a write hands text to SQLite: plain documents go in as UTF-8 bytes cast back to text, and
// hashes come from the one-shot digest. Neither may change what is stored or which hash a chunk
// has (stored hashes decide which chunks a rewrite keeps).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chunkMarkdown } from '../../../src/core/memory/chunker';
import { chunkHashes, contentHash, isPlainText } from '../../../src/core/memory/memory-store-write';
import { removeTempDirs } from '../../support/storage-fixtures';
import { closeMemoryDbs, GLOBAL, openStore } from './memory-store-fixture';

const TEXTS: Record<string, string> = {
  ascii: '# Plain\n\nplain ascii words\n\n## More\n\nmore words\n',
  multibyte: '# Café 東京\n\nnaïve — ✓ 会議\n\n## Zweite\n\nüber straße\n',
  astral: '# Emoji \u{1F600}\n\nsmile \u{1F600}\n',
  lone: '# Broken \ud800 surrogate\n\ntext \udc00 here\n',
  nul: '# Nul\n\nbefore\u0000after\n',
  crlf: '# Title\r\n\r\nwindows\r\n\r\n## Part\r\n\r\nlines\r\n',
};

/** The digests as earlier versions computed them, with a Hash object fed piece by piece. */
const oldChunkHash = (heading: string, text: string): string =>
  createHash('sha256').update(heading).update('\u0000').update(text).digest('base64url').slice(0, 24);

describe('memory writes: text encoding and hashes', () => {
  afterEach(closeMemoryDbs);
  after(removeTempDirs);

  it('chunk and content hashes are the ones earlier versions stored, for every kind of text', () => {
    for (const [kind, text] of Object.entries(TEXTS)) {
      const chunks = chunkMarkdown(text);
      assert.ok(chunks.length > 0, kind);
      assert.deepEqual(chunkHashes(chunks), chunks.map((c) => oldChunkHash(c.heading, c.text)), kind);
      assert.equal(contentHash(text), createHash('sha256').update(text).digest('base64url').slice(0, 32), kind);
    }
  });

  it('only text without surrogates or NULs is sent as bytes', () => {
    assert.equal(isPlainText(TEXTS.ascii), true);
    assert.equal(isPlainText(TEXTS.multibyte), true);
    assert.equal(isPlainText(TEXTS.crlf), true);
    assert.equal(isPlainText(TEXTS.astral), false);
    assert.equal(isPlainText(TEXTS.lone), false);
    assert.equal(isPlainText(TEXTS.nul), false);
  });

  it('every document reads back exactly as written, stored as text, and a rewrite keeps its chunks', async () => {
    const { store, db } = await openStore();
    for (const [kind, content] of Object.entries(TEXTS)) {
      const path = `memory/${kind}.md`;
      await store.write(GLOBAL, path, content);
      // A lone surrogate has no UTF-8 form: it goes in as a string, as before, and sql.js stores
      // replacement characters for it; every other text reads back exactly.
      if (kind !== 'lone') assert.equal((await store.read(GLOBAL, path))?.content, content, kind);
      const [row] = await db.query<{ type: string; bytes: number }>(
        "SELECT typeof(content) AS type, length(CAST(content AS BLOB)) AS bytes FROM memory_documents WHERE path = ? AND user_id = ''", [path]);
      assert.equal(row.type, 'text', kind);
      if (isPlainText(content)) assert.equal(row.bytes, Buffer.byteLength(content), kind);
      const again = await store.write(GLOBAL, path, `${content}\n## Added\n\nnew part\n`);
      assert.equal(again.changedChunks.length, 1, `${kind}: only the added chunk is new`);
    }
    assert.equal((await store.search(GLOBAL, 'über')).hits[0]?.path, 'memory/multibyte.md');
  });
});
