// read_document on real PDFs made by pdf-lib and Word documents made by `docx` in a temp workspace,
// through the pipeline: text page by page with page numbers, ranges and the next range named, a page
// without text reported, a Word document as markdown in parts paged the same way (converted on its worker
// thread), a file recognised by its bytes (a fake ".pdf" refused, a PDF or a .docx under another name
// read), hostile Office files refused with the reason (a zip bomb, a password-protected document), and
// the path guard refusing what read_file refuses (outside the workspace, a link out of it, a denied file).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import type { DocxRequest } from '../../../src/core/media/docx-convert-worker';
import { runOneShotWorker } from '../../../src/core/media/one-shot-worker';
import { createReadDocumentTool, DOCUMENT_LIMITS } from '../../../src/core/media/read-document-tool';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { longDocx, reportDocx, wordParagraph, wordParts, zip } from '../../support/office-files';
import { runtimeWith } from '../../support/test-tools';

/** A PDF whose pages hold these texts; an empty string is a page with nothing on it (like a scan). */
async function pdf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([400, 300]);
    if (text) page.drawText(text, { x: 20, y: 250, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

after(removeTempDirs);

/** A Word document long enough for several calls: paragraphs of `chars` characters, whole ones to a part. */
const LONG = { paragraphs: 60, chars: 1000 };

describe('read_document', function () {
  // pdf.js loads once per process; on a loaded machine that first load takes seconds.
  this.timeout(60_000);
  const ws = makeWorkspace({}, 'read-document');
  const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [createReadDocumentTool({ guard: makeGuard([fs.realpathSync(ws.root)]), fs: new NodeWorkspaceFs() })]);
  const read = (args: Record<string, unknown>) => rt.registry.execute('read_document', args, rt.context({ channel: 'test', sessionKey: 'doc', workspaceRoot: ws.root }));

  before(async () => {
    fs.writeFileSync(ws.path('report.pdf'), await pdf(Array.from({ length: 13 }, (_, i) => (i === 1 ? '' : `Chapter ${i + 1} text`))));
    fs.writeFileSync(ws.path('notes.bin'), await pdf(['Hidden under another name']));
    fs.writeFileSync(ws.path('fake.pdf'), 'This is plain text wearing a .pdf name.\n');
    fs.writeFileSync(ws.path('report.docx'), await reportDocx());
    fs.writeFileSync(ws.path('report-copy.dat'), await reportDocx());
    fs.writeFileSync(ws.path('long.docx'), await longDocx(LONG.paragraphs, LONG.chars));
    fs.writeFileSync(ws.path('empty.docx'), zip(wordParts('')));
    fs.writeFileSync(ws.path('bomb.docx'), zip(wordParts(wordParagraph('x'.repeat(8 * 1024 * 1024)))));
    // The header of an OLE compound file: what a password-protected .docx (or an old .doc) is.
    fs.writeFileSync(ws.path('locked.docx'), Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]));
    fs.writeFileSync(ws.path('fake.docx'), 'Plain text wearing a .docx name.\n');
  });

  it('reads pages with their numbers, reports a page without text, and names the next range', async () => {
    const r = await read({ path: 'report.pdf' });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^--- Page 1 of 13 ---\nChapter 1 text\n\n--- Page 2 of 13 ---\n\(no text on this page: it may be a scanned image\)\n\n--- Page 3 of 13 ---\nChapter 3 text/);
    assert.match(r.forLLM, new RegExp(`--- Page ${DOCUMENT_LIMITS.pagesPerCall} of 13 ---\\nChapter ${DOCUMENT_LIMITS.pagesPerCall} text\\n\\n\\[Showing pages 1-10 of 13\\. Use pages="11-13" to continue\\.\\]$`));
    assert.deepEqual(r.details!.pagesWithoutText, [2]);
    const rest = await read({ path: 'report.pdf', pages: '11-13' });
    assert.equal(rest.forLLM, '--- Page 11 of 13 ---\nChapter 11 text\n\n--- Page 12 of 13 ---\nChapter 12 text\n\n--- Page 13 of 13 ---\nChapter 13 text');
    assert.equal((await read({ path: 'report.pdf', pages: '7' })).forLLM, '--- Page 7 of 13 ---\nChapter 7 text');
    assert.match((await read({ path: 'report.pdf', pages: '3-99' })).forLLM, /Showing pages 3-12 of 13\. Use pages="13-13"/);
  });

  it('refuses ranges past the end or backwards, and arguments that are not a range', async () => {
    assert.match((await read({ path: 'report.pdf', pages: '20' })).forLLM, /has 13 pages/);
    assert.match((await read({ path: 'report.pdf', pages: '5-2' })).forLLM, /ends before it starts/);
    const bad = await read({ path: 'report.pdf', pages: '1; rm' });
    assert.equal(bad.isError, true);
    assert.match(bad.forLLM, /pages/);
  });

  it('knows a PDF by its bytes, not its name', async () => {
    const fake = await read({ path: 'fake.pdf' });
    assert.equal(fake.isError, true);
    assert.match(fake.forLLM, /fake\.pdf is neither a PDF nor a Word document/);
    assert.equal((await read({ path: 'notes.bin' })).forLLM, '--- Page 1 of 1 ---\nHidden under another name');
    const missing = await read({ path: 'nope.pdf' });
    assert.match(missing.forLLM, /File not found: nope\.pdf/);
  });

  it('reads a Word document as markdown: headings, lists, a table, an image placeholder', async () => {
    const r = await read({ path: 'report.docx' });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^--- Part 1 of 1 ---\n# Quarterly report\n\n\*\*Sales grew\*\* in every region\.\n\n## Findings\n\n- +North doubled\n- +South held\n\n1\. +Hire two people/);
    assert.match(r.forLLM, /\| Region \| Sales \|\n\| --- \| --- \|\n\| North \| 42 +\|/);
    assert.match(r.forLLM, /\[image: Sales chart\]$/);
    assert.deepEqual({ format: r.details!.format, totalPages: r.details!.totalPages }, { format: 'docx', totalPages: 1 });
    assert.equal((await read({ path: 'report-copy.dat' })).forLLM, r.forLLM);
    assert.equal((await read({ path: 'empty.docx' })).forLLM, '--- Part 1 of 1 ---\n(the document has no text)');
  });

  it('pages through a long Word document in parts, naming the next range', async () => {
    const perPart = Math.floor((DOCUMENT_LIMITS.partChars + 2) / (LONG.chars + 2));
    const total = Math.ceil(LONG.paragraphs / perPart);
    const per = DOCUMENT_LIMITS.pagesPerCall;
    const first = await read({ path: 'long.docx' });
    assert.match(first.forLLM, new RegExp(`^--- Part 1 of ${total} ---\\nParagraph 1: lorem`));
    assert.match(first.forLLM, new RegExp(`\\[Showing parts 1-${per} of ${total}\\. Use pages="${per + 1}-${total}" to continue\\.\\]$`));
    const rest = await read({ path: 'long.docx', pages: `${per + 1}-${total}` });
    assert.match(rest.forLLM, new RegExp(`^--- Part ${per + 1} of ${total} ---\\nParagraph ${per * perPart + 1}: `));
    assert.match(rest.forLLM, new RegExp(`Paragraph ${LONG.paragraphs}: [^\\n]*$`));
    assert.match((await read({ path: 'long.docx', pages: `${total + 1}` })).forLLM, new RegExp(`has ${total} parts`));
  });

  it('refuses hostile and foreign Office files with the reason', async () => {
    const bomb = await read({ path: 'bomb.docx' });
    assert.equal(bomb.isError, true);
    assert.match(bomb.forLLM, /^bomb\.docx refused: word\/document\.xml inflates past 100 times its compressed size \(a zip bomb\)/);
    assert.match((await read({ path: 'locked.docx' })).forLLM, /locked\.docx is a password-protected Office document or an old binary one/);
    assert.match((await read({ path: 'fake.docx' })).forLLM, /fake\.docx is neither a PDF nor a Word document/);
  });

  it('a cancelled conversion ends its worker and rejects as cancelled, and a cancelled call starts none', async () => {
    const abort = new AbortController();
    const request: DocxRequest = { bytes: fs.readFileSync(ws.path('long.docx')), partChars: DOCUMENT_LIMITS.partChars };
    const running = runOneShotWorker('docx-convert-worker.js', request, 'Word document converter', { signal: abort.signal });
    abort.abort();
    await assert.rejects(running, /^Error: cancelled$/);
    await assert.rejects(runOneShotWorker('docx-convert-worker.js', request, 'Word document converter', { signal: abort.signal }), /^Error: cancelled$/);
  });

  it('the path guard: outside the workspace, a link out of it, and a denied path (.git) are refused', async () => {
    const outside = tempDir('read-document-outside');
    fs.writeFileSync(path.join(outside, 'secret.pdf'), await pdf(['Outside text']));
    link(path.join(outside, 'secret.pdf'), ws.path('linked.pdf'));
    fs.mkdirSync(ws.path('.git'));
    fs.writeFileSync(ws.path('.git/packed.pdf'), await pdf(['API_KEY text']));
    for (const p of [path.join(outside, 'secret.pdf'), '../' + path.basename(outside) + '/secret.pdf', 'linked.pdf', '.git/packed.pdf']) {
      const r = await read({ path: p });
      assert.equal(r.isError, true, `${p}: ${r.forLLM}`);
      assert.doesNotMatch(r.forLLM, /Outside text|API_KEY/);
    }
  });
});
