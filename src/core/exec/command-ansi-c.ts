// Decoding of bash's ANSI-C quoting `$'…'`, so `$'\x72\x6d'` is judged as `rm`.

const SIMPLE: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

const HEX2 = /^[0-9a-fA-F]{1,2}/;
const HEX4 = /^[0-9a-fA-F]{1,4}/;
const HEX8 = /^[0-9a-fA-F]{1,8}/;

/** `$'…'` source text → the value bash passes. Bash cuts the value at a NUL (`$'rm\x00x'` → `rm`). */
export function decodeAnsiC(source: string): string {
  const body = source.startsWith("$'") ? source.slice(2, source.endsWith("'") && source.length > 2 ? -1 : undefined) : source;
  let out = '';
  // \xHH and octal escapes are bytes (`$'\xc3\xa9'` is `é`): runs of them are decoded as UTF-8.
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length) out += Buffer.from(bytes).toString('utf8');
    bytes = [];
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i + 1 >= body.length) { flush(); out += c; continue; }
    const e = body[++i];
    let code: number | undefined;
    if (e in SIMPLE) { flush(); out += SIMPLE[e]; continue; }
    if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      i += m.length - 1;
      const byte = parseInt(m, 8) & 0xff;
      if (byte === 0) break;
      bytes.push(byte);
      continue;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const m = (e === 'x' ? HEX2 : e === 'u' ? HEX4 : HEX8).exec(body.slice(i + 1));
      if (!m) { flush(); out += '\\' + e; continue; }
      i += m[0].length;
      const value = parseInt(m[0], 16);
      if (value === 0) break;
      if (e === 'x') { bytes.push(value); continue; }
      code = value;
    } else if (e === 'c' && i + 1 < body.length) {
      code = body.charCodeAt(++i) & 0x1f;
    } else {
      flush();
      out += '\\' + e; // unknown escapes stay as written, as in bash
      continue;
    }
    flush();
    if (code === 0) break;
    out += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  }
  flush();
  return out;
}
