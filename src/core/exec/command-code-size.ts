// Sizes written as arithmetic in inline code (`' ' * (64 * 1024**3)`, `Buffer.alloc(1 << 36)`,
// `bytearray(200 * 2**30)`): what matters is the number of bytes asked for, however it is spelt,
// so the expression after an allocation is evaluated — with a tiny parser of integers, `*`, `**`,
// `<<` and parentheses, never with eval.

/** Calls and operators that allocate as many bytes or items as the expression after them says. */
const ALLOCATES = /(?:\b(?:bytearray|bytes|alloc|allocUnsafe|allocUnsafeSlow|Array|ArrayBuffer|Uint8Array|zeros|ones|empty|full|repeat|urandom|randbytes|malloc|calloc|make|range|list\s*\(\s*range)\s*\(|b?["'][^"'\n]{0,4}["']\s*\*|\.repeat\s*\(|\bx\s*)\s*/g;
/** Past any memory or disk a developer machine has: 16 GiB. */
const HUGE = 2 ** 34;

/** Value of an arithmetic expression at the start of `text`, or undefined when it is not one. */
function evaluate(text: string): number | undefined {
  let i = 0;
  const ws = () => { while (text[i] === ' ') i++; };
  const atom = (): number | undefined => {
    ws();
    if (text[i] === '(') {
      i++;
      const v = shift();
      ws();
      if (text[i] !== ')') return v; // an unclosed call: the value so far
      i++;
      return v;
    }
    const m = /^\d+(?:\.\d+)?(?:e\d+)?/i.exec(text.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  const power = (): number | undefined => {
    const b = atom();
    ws();
    if (b !== undefined && text.startsWith('**', i)) { i += 2; const e = power(); return e === undefined ? b : b ** e; }
    return b;
  };
  const product = (): number | undefined => {
    let v = power();
    for (;;) {
      ws();
      if (v === undefined || text[i] !== '*' || text[i + 1] === '*') return v;
      i++;
      const r = power();
      if (r === undefined) return v;
      v *= r;
    }
  };
  const shift = (): number | undefined => {
    const v = product();
    ws();
    if (v !== undefined && text.startsWith('<<', i)) { i += 2; const r = product(); return r === undefined ? v : v * 2 ** r; }
    return v;
  };
  return shift();
}

/** Whether the code allocates (or repeats a string) to a size no machine has. */
export function hugeAllocation(code: string): boolean {
  if (!/\d/.test(code)) return false;
  for (const m of code.matchAll(ALLOCATES)) {
    const v = evaluate(code.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 80));
    if (v !== undefined && v >= HUGE) return true;
  }
  return false;
}
