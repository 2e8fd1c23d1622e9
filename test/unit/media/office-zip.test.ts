// office-zip's caps and checks on real zips written by fflate (and Word documents written by `docx`),
// some altered byte by byte the way a hostile file would be: a bomb by ratio, sizes that lie both ways,
// too many entries, names that climb out or are absolute, encryption, an unknown compression method,
// bytes that are no zip. Benign: a real Word document's parts come out whole, and a huge image inside
// one is never inflated. Then the parts as markdown (docxToMarkdown) and cut into parts (splitIntoParts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { docxToMarkdown, splitIntoParts } from '../../../src/core/media/docx-markdown';
import { OFFICE_ZIP_LIMITS, OfficeZipError, readOfficeXmlParts } from '../../../src/core/media/office-zip';
import { declareSize, markEncrypted, reportDocx, setMethod, wordParagraph, wordParts, zip } from '../../support/office-files';

const MB = 1024 * 1024;
/** Text that barely compresses (base64 of random bytes), so only the size caps can stop it. */
const noise = (bytes: number) => randomBytes(Math.ceil(bytes * 0.75)).toString('base64').slice(0, bytes);

async function refused(bytes: Buffer, pattern: RegExp, limits = OFFICE_ZIP_LIMITS): Promise<void> {
  await assert.rejects(readOfficeXmlParts(bytes, limits), (e: Error) => {
    assert.ok(e instanceof OfficeZipError, `${e.name}: ${e.message}`);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('office-zip: the XML parts of an Office file under caps', function () {
  this.timeout(60_000);

  it('takes out the XML parts of a real Word document whole, and leaves its image packed', async () => {
    const parts = await readOfficeXmlParts(await reportDocx());
    assert.ok(parts.has('word/document.xml'));
    assert.ok(parts.has('[Content_Types].xml') && parts.has('_rels/.rels'));
    assert.ok([...parts.keys()].every((n) => /\.(xml|rels)$/.test(n)), [...parts.keys()].join(', '));
    assert.match(parts.get('word/document.xml')!.toString('utf8'), /Quarterly report/);
  });

  it('never inflates what a converter does not need: a 48 MB bomb in word/media is left packed', async () => {
    const bytes = zip({ ...wordParts(wordParagraph('Still readable')), 'word/media/bomb.bin': [new Uint8Array(48 * MB), { level: 9 }] });
    const parts = await readOfficeXmlParts(bytes);
    assert.equal(parts.has('word/media/bomb.bin'), false);
    assert.match(parts.get('word/document.xml')!.toString('utf8'), /Still readable/);
  });

  it('refuses a bomb by ratio: a part inflating past 100 times its compressed size once over 1 MB', async () => {
    const bomb = zip({ ...wordParts(wordParagraph('x'.repeat(8 * MB))) });
    await refused(bomb, /word\/document\.xml inflates past 100 times its compressed size \(a zip bomb\)/);
    // Under the grace size a well-compressed part is fine.
    await readOfficeXmlParts(zip(wordParts(wordParagraph('x'.repeat(MB / 2)))));
  });

  it('holds the caps on the bytes inflated, whatever sizes the zip declares', async () => {
    const limits = { ...OFFICE_ZIP_LIMITS, maxPartBytes: 256 * 1024, maxTotalBytes: 400 * 1024 };
    // Declares 1,000 bytes, holds 600 KB of text that barely compresses (so no ratio check helps).
    const liar = declareSize(zip({ ...wordParts(wordParagraph(noise(600 * 1024))) }), 'word/document.xml', 1000);
    await refused(liar, /word\/document\.xml inflates past the 256 KB a part may have/, limits);
    // Declares a little less than it holds, under every cap: still refused.
    const small = wordParts(wordParagraph(noise(10_000)));
    const understated = declareSize(zip(small), 'word/document.xml', Buffer.byteLength(small['word/document.xml']) - 1);
    await refused(understated, /word\/document\.xml declares \d+ bytes but holds \d+/);
    // Declares more than a part may have: refused before inflating anything.
    await refused(declareSize(zip(small), 'word/document.xml', 500 * MB), /declares 500 MB, over the 20 MB a part may have/);
    // Parts each under the part cap, together over the total.
    const many = zip({ ...wordParts(wordParagraph('ok')), 'word/a.xml': noise(200 * 1024), 'word/b.xml': noise(200 * 1024), 'word/c.xml': noise(200 * 1024) });
    await refused(many, /inflates past the 400 KB all parts may have together/, limits);
  });

  it('caps stored (uncompressed) parts too', async () => {
    const limits = { ...OFFICE_ZIP_LIMITS, maxPartBytes: 256 * 1024, maxTotalBytes: 150 * 1024 };
    const stored = (text: string) => [new TextEncoder().encode(text), { level: 0 }] as [Uint8Array, { level: 0 }];
    await refused(zip({ ...wordParts('x'), 'word/a.xml': stored(noise(100 * 1024)), 'word/b.xml': stored(noise(100 * 1024)) }), /word\/b\.xml is over the 150 KB all parts may have together/, limits);
    await refused(zip({ ...wordParts('x'), 'word/big.xml': stored(noise(300 * 1024)) }), /word\/big\.xml declares 300 KB, over the 256 KB a part may have/, limits);
  });

  it('refuses more entries than an Office file has', async () => {
    const files: Record<string, string> = wordParts(wordParagraph('ok'));
    for (let i = 0; i < OFFICE_ZIP_LIMITS.maxEntries; i++) files[`word/media/${i}.png`] = '';
    await refused(zip(files), /5,003 entries, over the 5,000 an Office file may have/);
  });

  it('refuses names that climb out of the archive or are absolute', async () => {
    for (const name of ['../../evil.xml', 'word/../../evil.xml', '/etc/evil.xml', 'C:/evil.xml', 'word\\..\\..\\evil.xml']) {
      await refused(zip({ ...wordParts(wordParagraph('ok')), [name]: '<x/>' }), /invalid relative path|absolute path|invalid characters/);
    }
  });

  it('refuses an encrypted part and a compression method Office files do not use', async () => {
    const plain = zip(wordParts(wordParagraph('secret')));
    await refused(markEncrypted(plain, 'word/document.xml'), /word\/document\.xml is encrypted/);
    await refused(setMethod(plain, 'word/document.xml', 12), /compression method 12/);
  });

  it('refuses bytes that are not a zip, and a zip cut short', async () => {
    await refused(Buffer.from('Just some text, no zip here.'), /not a readable zip/);
    const whole = zip(wordParts(wordParagraph('cut')));
    await refused(whole.subarray(0, whole.length - 30), /not a readable zip/);
  });
});

describe('docxToMarkdown and splitIntoParts', function () {
  this.timeout(60_000);

  it('writes headings, emphasis, lists, a table and an image placeholder', async () => {
    const md = await docxToMarkdown(await reportDocx());
    assert.match(md, /^# Quarterly report\n\n\*\*Sales grew\*\* in every region\.\n\n## Findings\n\n- +North doubled\n- +South held\n\n1\. +Hire two people/);
    assert.match(md, /\| Region \| Sales \|\n\| --- \| --- \|\n\| North \| 42 +\|/);
    assert.match(md, /\[image: Sales chart\]/);
  });

  it('refuses a zip that is not a Word document, and reports a broken one', async () => {
    const sheet = zip({ '[Content_Types].xml': '<Types><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>', 'xl/workbook.xml': '<workbook/>' });
    await assert.rejects(docxToMarkdown(sheet), /is a zip but not a Word document/);
    const parts = wordParts('');
    delete (parts as Record<string, string>)['word/document.xml'];
    await assert.rejects(docxToMarkdown(zip(parts)), /could not be read as a Word document/);
    await assert.rejects(docxToMarkdown(Buffer.from('PK\x03\x04 and nothing else')), /^Error: refused: not a readable zip/);
  });

  it('cuts between paragraphs, else lines, else anywhere, and keeps every character', () => {
    const paras = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)].join('\n\n');
    assert.deepEqual(splitIntoParts(paras, 90), [`${'a'.repeat(40)}\n\n${'b'.repeat(40)}`, 'c'.repeat(40)]);
    const table = ['| h |', '| - |', ...Array.from({ length: 6 }, (_, i) => `| row ${i} |`)].join('\n');
    const parts = splitIntoParts(`intro\n\n${table}`, 30);
    assert.ok(parts.every((p) => p.length <= 30), JSON.stringify(parts));
    assert.equal(parts.join('\n'), `intro\n\n${table}`);
    assert.deepEqual(splitIntoParts('z'.repeat(25), 10), ['z'.repeat(10), 'z'.repeat(10), 'z'.repeat(5)]);
    assert.deepEqual(splitIntoParts('', 10), ['']);
  });
});
