// GNU sed can run programs (`e` command, `s///e` flag) and write files (`w`, `W`, `s///w file`).
// A regex over the command line cannot tell `s/x/y/e` from `s/e/x/`; this walks the script.
import { SED } from './command-option-tables';
import { hasLong, parseOptions, valuesOf } from './command-options';

export interface SedAnalysis {
  /** The script runs a program. */
  exec: boolean;
  /** Files the script writes (`w FILE`). */
  writes: string[];
  /** Files edited in place (-i). */
  inPlace: string[];
  /** The script comes from a file the judge cannot read. */
  scriptFile: boolean;
}

export function analyzeSed(args: readonly string[]): SedAnalysis {
  const o = parseOptions(args, SED);
  const scripts = valuesOf(o, ['expression'], 'e');
  const operands = [...o.operands];
  const scriptFile = valuesOf(o, ['file'], 'f').length > 0;
  if (!scripts.length && !scriptFile && operands.length) scripts.push(operands.shift() as string);
  const inPlace = o.short.has('i') || hasLong(o, 'in-place') ? operands : [];
  const out: SedAnalysis = { exec: false, writes: [], inPlace, scriptFile };
  for (const s of scripts) walk(s, out);
  return out;
}

function walk(script: string, out: SedAnalysis): void {
  let i = 0;
  const n = script.length;
  const skipBlank = () => { while (i < n && /[\s;]/.test(script[i])) i++; };
  while (i < n) {
    skipBlank();
    // Address: line numbers, $, /re/, \cREc, ranges, step, and negation.
    for (let k = 0; k < 2; k++) {
      if (script[i] === '/' || script[i] === '\\') i = skipDelimited(script, script[i] === '\\' ? i + 1 : i);
      else while (i < n && /[\d$~+]/.test(script[i])) i++;
      while (i < n && /[IM]/.test(script[i]) && k === 0 && /[/\d$]/.test(script[i - 1] ?? '')) i++;
      if (script[i] === ',') { i++; continue; }
      break;
    }
    while (i < n && /[\s!]/.test(script[i])) i++;
    const c = script[i++];
    if (c === undefined) break;
    if (c === 'e') { out.exec = true; i = lineEnd(script, i); continue; }
    if (c === 'w' || c === 'W') { out.writes.push(script.slice(i, lineEnd(script, i)).trim()); i = lineEnd(script, i); continue; }
    if (c === 'r' || c === 'R' || c === 'a' || c === 'i' || c === 'c' || c === 'b' || c === 't' || c === 'T' || c === ':' || c === 'q' || c === 'Q' || c === 'l' || c === 'L' || c === 'v' || c === '#') { i = lineEnd(script, i, c === 'b' || c === 't' || c === 'T' || c === 'q' || c === 'Q' || c === 'l' || c === 'L'); continue; }
    if (c === 's' || c === 'y') {
      const d = script[i];
      if (d === undefined || d === '\n' || d === '\\') break;
      i = skipDelimited(script, i);
      i = skipDelimited(script, i - 1);
      if (c === 'y') continue;
      const start = i;
      while (i < n && /[gpiImMe0-9w]/.test(script[i])) {
        if (script[i] === 'w') { out.writes.push(script.slice(i + 1, lineEnd(script, i + 1)).trim()); i = lineEnd(script, i + 1); break; }
        if (script[i] === 'e') out.exec = true;
        i++;
      }
      if (i === start && i < n && !/[\s;}]/.test(script[i])) i++;
      continue;
    }
    // {, }, =, d, D, g, G, h, H, n, N, p, P, x, z, F: no arguments.
  }
}

/** From the opening delimiter at `i`, returns the index after the closing one (backslash escapes honoured). */
function skipDelimited(s: string, i: number): number {
  const d = s[i];
  let j = i + 1;
  while (j < s.length && s[j] !== d) j += s[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** A command's end: a newline, or for label-like commands also `;` and `}`. */
function lineEnd(s: string, i: number, semicolonEnds = false): number {
  let j = i;
  while (j < s.length && s[j] !== '\n' && !(semicolonEnds && (s[j] === ';' || s[j] === '}'))) j++;
  return j;
}
