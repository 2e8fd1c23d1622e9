// The XML parts of an Office file (a zip: .docx and its kin), taken out under hard caps before any
// converter sees them. A converter unzips everything it is given in memory, so a zip bomb (a few
// kilobytes that inflate to gigabytes) would take the extension host down with it. yauzl reads the
// central directory (and refuses absolute names, ".." segments and strong encryption); each wanted part
// is inflated by Node's zlib with maxOutputLength, which stops inflating as soon as the output passes the
// cap: sizes declared in the zip can lie, and the caps hold on the bytes actually produced.
import { inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

export const OFFICE_ZIP_LIMITS = {
  /** Entries in the central directory; a Word file has tens, with its images a few hundred. */
  maxEntries: 5_000,
  /** Inflated bytes of one part. */
  maxPartBytes: 20 * 1024 * 1024,
  /** Inflated bytes of all the parts taken out. */
  maxTotalBytes: 40 * 1024 * 1024,
  /** Inflated bytes per compressed byte, checked on parts over `ratioGraceBytes` (XML compresses well, a bomb far better). */
  maxRatio: 100,
  ratioGraceBytes: 1024 * 1024,
};

export type OfficeZipLimits = typeof OFFICE_ZIP_LIMITS;

/** A file that is not a zip, or one refused by a cap or a check: the message says which. */
export class OfficeZipError extends Error {}

/** The parts a converter needs: XML and relationships. Images, fonts and embedded files are left packed. */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

function localDataStart(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.readLocalFileHeader(entry, { minimal: true }, (err, header) => (err ? reject(err) : resolve(header.fileDataStart)));
  });
}

/** One part's bytes, never more than `cap`; the error names the cap that was reached. */
function inflatePart(entry: yauzl.Entry, packed: Buffer, cap: number, capName: string): Buffer {
  if (entry.compressionMethod === 0) {
    if (packed.length > cap) throw new OfficeZipError(`${entry.fileName} is over ${capName}`);
    return packed;
  }
  if (entry.compressionMethod !== 8) throw new OfficeZipError(`${entry.fileName} uses compression method ${entry.compressionMethod}, which Office files do not use`);
  try {
    return inflateRawSync(packed, { maxOutputLength: cap });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new OfficeZipError(`${entry.fileName} inflates past ${capName}`);
    throw new OfficeZipError(`${entry.fileName} is corrupt (${(e as Error).message})`);
  }
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.round(n / 1024)} KB`);

/**
 * The XML parts of the zip in `bytes`, by name. Refuses (OfficeZipError) a file that is not a zip, more
 * than `maxEntries` entries, unsafe names, an encrypted part, a part or a total over the caps, a ratio
 * past `maxRatio`, and a part whose inflated size differs from the size the zip declares.
 */
export async function readOfficeXmlParts(bytes: Buffer, limits: OfficeZipLimits = OFFICE_ZIP_LIMITS, signal?: AbortSignal): Promise<Map<string, Buffer>> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(bytes);
  } catch (e) {
    throw new OfficeZipError(`not a readable zip (${(e as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new OfficeZipError(`${zip.entryCount.toLocaleString('en-US')} entries, over the ${limits.maxEntries.toLocaleString('en-US')} an Office file may have`);
  }
  const parts = new Map<string, Buffer>();
  let total = 0;
  const take = async (entry: yauzl.Entry) => {
    if (entry.isEncrypted()) throw new OfficeZipError(`${entry.fileName} is encrypted`);
    // Declared sizes are checked first (a part that admits being too big is not inflated at all) and the
    // inflated bytes again after, since the declaration may lie.
    if (entry.uncompressedSize > limits.maxPartBytes) throw new OfficeZipError(`${entry.fileName} declares ${mb(entry.uncompressedSize)}, over the ${mb(limits.maxPartBytes)} a part may have`);
    const start = await localDataStart(zip, entry);
    const packed = bytes.subarray(start, start + entry.compressedSize);
    const byRatio = Math.max(limits.ratioGraceBytes, entry.compressedSize * limits.maxRatio);
    const caps: Array<[number, string]> = [
      [limits.maxPartBytes, `the ${mb(limits.maxPartBytes)} a part may have`],
      [limits.maxTotalBytes - total, `the ${mb(limits.maxTotalBytes)} all parts may have together`],
      [byRatio, `${limits.maxRatio} times its compressed size (a zip bomb)`],
    ];
    const [cap, capName] = caps.reduce((a, b) => (b[0] < a[0] ? b : a));
    const data = inflatePart(entry, packed, cap, capName);
    if (data.length !== entry.uncompressedSize) throw new OfficeZipError(`${entry.fileName} declares ${entry.uncompressedSize} bytes but holds ${data.length}`);
    total += data.length;
    parts.set(entry.fileName, data);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: Error) => reject(e instanceof OfficeZipError ? e : new OfficeZipError(e.message));
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (signal?.aborted) return reject(new Error('cancelled'));
        if (!isXmlPart(entry.fileName)) return zip.readEntry();
        take(entry).then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return parts;
}
