import assert from 'node:assert/strict';
import {
  convertEol, countLines, decodeLossy, decodeText, detectEol, encodeText, lineAt,
} from '../../../src/core/fs/text-encoding';

const BOM8 = [0xef, 0xbb, 0xbf];

describe('text encoding: decode, detect and restore', () => {
  it('round-trips UTF-8 with and without a BOM, byte for byte', () => {
    for (const bytes of [Buffer.from('héllo\nwörld'), Buffer.from([...BOM8, ...Buffer.from('a\r\nb\r\n')]), Buffer.alloc(0), Buffer.from(BOM8)]) {
      const d = decodeText(bytes);
      assert.ok(d.ok);
      assert.equal(d.text.startsWith('\ufeff'), false, 'the BOM is not part of the text');
      assert.deepEqual(Buffer.from(encodeText(d.text, d)), bytes);
    }
  });

  it('round-trips UTF-16 LE and BE with their BOMs', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ab\r\nc😀', 'utf16le')]);
    const be = Buffer.from(le);
    be[0] = 0xfe;
    be[1] = 0xff;
    be.subarray(2).swap16();
    for (const [bytes, encoding] of [[le, 'utf16le'], [be, 'utf16be']] as const) {
      const d = decodeText(bytes);
      assert.ok(d.ok);
      assert.equal(d.encoding, encoding);
      assert.equal(d.text, 'ab\r\nc😀');
      assert.deepEqual(Buffer.from(encodeText(d.text, d)), bytes);
    }
  });

  it('recognises binary and invalid UTF-8 instead of guessing', () => {
    assert.deepEqual(decodeText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])), { ok: false, reason: 'binary' });
    assert.deepEqual(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9])), { ok: false, reason: 'invalid-utf8' });
    assert.deepEqual(decodeText(Buffer.from([0xff, 0xfe, 0x41])), { ok: false, reason: 'binary' });
    assert.equal(decodeLossy(Buffer.from([0x63, 0x61, 0x66, 0xe9])), 'caf\ufffd');
  });

  it('detects the dominant line ending', () => {
    assert.equal(detectEol('a\r\nb\r\nc\n'), '\r\n');
    assert.equal(detectEol('a\r\nb\nc\n'), '\n');
    assert.equal(detectEol('no breaks'), '\n');
    assert.equal(detectEol('\r\n'), '\r\n');
    assert.equal(decodeText(Buffer.from('x\r\ny\r\n')).ok && (decodeText(Buffer.from('x\r\ny\r\n')) as { eol: string }).eol, '\r\n');
  });

  it('converts line endings both ways without doubling carriage returns', () => {
    assert.equal(convertEol('a\nb\r\nc', '\r\n'), 'a\r\nb\r\nc');
    assert.equal(convertEol('a\r\nb\nc', '\n'), 'a\nb\nc');
  });

  it('counts lines as an editor does and numbers offsets', () => {
    assert.equal(countLines(''), 0);
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\n'), 1);
    assert.equal(countLines('a\nb'), 2);
    assert.equal(countLines('\n\n'), 2);
    assert.equal(lineAt('a\nb\nc', 0), 1);
    assert.equal(lineAt('a\nb\nc', 2), 2);
    assert.equal(lineAt('a\nb\nc', 4), 3);
  });
});
