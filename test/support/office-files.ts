// Office files for the document tests: real Word documents written by the `docx` library, zips written
// by fflate, and zips altered byte by byte after writing (a size that lies, an encryption flag, a
// compression method no Office file uses) the way a hostile file would be.
import * as d from 'docx';
import { zipSync, type Zippable } from 'fflate';

/** A 1×1 PNG, for a document with a picture in it. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A Word document with a heading, bold text, bullets, a numbered list, a table with a header row and a picture with alt text. */
export async function reportDocx(): Promise<Buffer> {
  const cell = (text: string) => new d.TableCell({ children: [new d.Paragraph(text)] });
  const doc = new d.Document({
    numbering: { config: [{ reference: 'steps', levels: [{ level: 0, format: d.LevelFormat.DECIMAL, text: '%1.' }] }] },
    sections: [{
      children: [
        new d.Paragraph({ text: 'Quarterly report', heading: d.HeadingLevel.HEADING_1 }),
        new d.Paragraph({ children: [new d.TextRun({ text: 'Sales grew', bold: true }), new d.TextRun(' in every region.')] }),
        new d.Paragraph({ text: 'Findings', heading: d.HeadingLevel.HEADING_2 }),
        new d.Paragraph({ text: 'North doubled', bullet: { level: 0 } }),
        new d.Paragraph({ text: 'South held', bullet: { level: 0 } }),
        new d.Paragraph({ text: 'Hire two people', numbering: { reference: 'steps', level: 0 } }),
        new d.Table({
          rows: [
            new d.TableRow({ tableHeader: true, children: [cell('Region'), cell('Sales')] }),
            new d.TableRow({ children: [cell('North'), cell('42')] }),
          ],
        }),
        new d.Paragraph({ children: [new d.ImageRun({ type: 'png', data: PIXEL, transformation: { width: 10, height: 10 }, altText: { name: 'chart', title: 'chart', description: 'Sales chart' } })] }),
      ],
    }],
  });
  return d.Packer.toBuffer(doc);
}

/** A Word document of `count` paragraphs "Paragraph <n>: <filler>", each about `chars` long. */
export async function longDocx(count: number, chars: number): Promise<Buffer> {
  const children = Array.from({ length: count }, (_, i) => new d.Paragraph(`Paragraph ${i + 1}: ${'lorem ipsum '.repeat(Math.ceil(chars / 12))}`.slice(0, chars)));
  return d.Packer.toBuffer(new d.Document({ sections: [{ children }] }));
}

/** The parts every Word document has, around a body of `bodyXml` (WordprocessingML inside <w:body>). */
export function wordParts(bodyXml: string): Record<string, string> {
  return {
    '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
      + '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels': '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
      + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
      + `<w:body>${bodyXml}</w:body></w:document>`,
  };
}

/** A paragraph of WordprocessingML. */
export const wordParagraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A zip of `files` (text or bytes; a [data, {level}] pair picks the compression), written by fflate. */
export function zip(files: Record<string, string | Uint8Array | [Uint8Array, { level: 0 | 9 }]>): Buffer {
  const input: Zippable = {};
  for (const [name, v] of Object.entries(files)) input[name] = typeof v === 'string' ? new TextEncoder().encode(v) : v;
  return Buffer.from(zipSync(input));
}

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Edits the headers of entry `name` in `zipBytes` (a copy is returned): `central` gets the offset of its
 * central directory header, `local` that of its local header (fields at the offsets of the zip format).
 */
export function patchEntry(zipBytes: Buffer, name: string, edit: { central?: (b: Buffer, at: number) => void; local?: (b: Buffer, at: number) => void }): Buffer {
  const b = Buffer.from(zipBytes);
  let found = false;
  for (let at = 0; at + 46 <= b.length; at++) {
    const sig = b.readUInt32LE(at);
    if (sig === CENTRAL && b.toString('latin1', at + 46, at + 46 + b.readUInt16LE(at + 28)) === name) {
      edit.central?.(b, at);
      found = true;
    } else if (sig === LOCAL && b.toString('latin1', at + 30, at + 30 + b.readUInt16LE(at + 26)) === name) {
      edit.local?.(b, at);
    }
  }
  if (!found) throw new Error(`no entry ${name} in the zip`);
  return b;
}

/** Sets the declared uncompressed size of `name` (central directory and local header alike). */
export const declareSize = (zipBytes: Buffer, name: string, size: number) =>
  patchEntry(zipBytes, name, { central: (b, at) => b.writeUInt32LE(size, at + 24), local: (b, at) => b.writeUInt32LE(size, at + 22) });

/** Sets the "encrypted" flag (bit 0 of the general purpose flags) on `name`. */
export const markEncrypted = (zipBytes: Buffer, name: string) =>
  patchEntry(zipBytes, name, { central: (b, at) => b.writeUInt16LE(b.readUInt16LE(at + 8) | 1, at + 8), local: (b, at) => b.writeUInt16LE(b.readUInt16LE(at + 6) | 1, at + 6) });

/** Sets the compression method of `name`. */
export const setMethod = (zipBytes: Buffer, name: string, method: number) =>
  patchEntry(zipBytes, name, { central: (b, at) => b.writeUInt16LE(method, at + 10), local: (b, at) => b.writeUInt16LE(method, at + 8) });
