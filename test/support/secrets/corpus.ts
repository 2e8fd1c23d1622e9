// The seeded secrets corpus: every token format in every syntax (and bare where it has a prefix),
// the structural secrets, PEM keys and the look-alikes, planted at random lines of realistic clean
// tool output. Deterministic for a seed. Used by the unit tests (a small clean part) and by
// bench/scrub-accuracy.mjs (>= 10 MB).
import { cleanLines } from './clean-output';
import { KEYED_FORMATS } from './formats-keyed';
import { PREFIXED_FORMATS, type SecretFormat } from './formats-prefixed';
import { lookalikeLines } from './lookalikes';
import { makeRand } from './random';
import { pemSecrets, structuralSecrets } from './structural';
import { BARE, SYNTAXES } from './syntaxes';

export const FORMATS: readonly SecretFormat[] = [...PREFIXED_FORMATS, ...KEYED_FORMATS];

export interface PlantedSecret {
  /** Format or structural id, and the syntax it was written in. */
  readonly id: string;
  readonly syntax: string;
  readonly secret: string;
}

export interface SecretsCorpus {
  /** One document per entry; PEM keys are documents of their own (their redaction joins lines). */
  readonly lines: readonly string[];
  /** Secrets planted at a line index. */
  readonly planted: ReadonlyMap<number, PlantedSecret>;
  /** Line indexes of look-alikes (clean lines that look like secrets). */
  readonly lookalikes: ReadonlySet<number>;
  readonly pems: readonly { id: string; text: string; secrets: string[] }[];
  readonly formatCount: number;
  readonly syntaxCount: number;
}

/** The planted lines, each with its secret. */
function secretLines(seed: number): { line: string; planted: PlantedSecret }[] {
  const r = makeRand(seed);
  const out: { line: string; planted: PlantedSecret }[] = [];
  for (const f of FORMATS) {
    for (const s of SYNTAXES) {
      const secret = f.make(r);
      out.push({ line: s.line(f.key, secret, r), planted: { id: f.id, syntax: s.id, secret } });
    }
    if (f.bare) {
      for (const [i, write] of BARE.entries()) {
        const secret = f.make(r);
        out.push({ line: write(secret), planted: { id: f.id, syntax: `bare-${i}`, secret } });
      }
    }
  }
  for (let k = 0; k < 3; k++) {
    for (const s of structuralSecrets(r)) out.push({ line: s.text, planted: { id: s.id, syntax: 'own', secret: s.secret } });
  }
  return out;
}

export function buildCorpus(opts: { seed: number; cleanBytes: number }): SecretsCorpus {
  const r = makeRand(opts.seed);
  const clean = cleanLines(r, opts.cleanBytes);
  const secrets = secretLines(opts.seed + 1);
  const looks = lookalikeLines(makeRand(opts.seed + 2));
  // Insert each planted or look-alike line after a random clean line, keeping the clean order.
  const slots = new Map<number, { line: string; planted?: PlantedSecret }[]>();
  const add = (item: { line: string; planted?: PlantedSecret }): void => {
    const at = r.int(clean.length + 1);
    slots.set(at, [...(slots.get(at) ?? []), item]);
  };
  for (const s of secrets) add(s);
  for (const line of looks) add({ line });
  const lines: string[] = [];
  const planted = new Map<number, PlantedSecret>();
  const lookalikes = new Set<number>();
  for (let i = 0; i <= clean.length; i++) {
    for (const item of slots.get(i) ?? []) {
      if (item.planted) planted.set(lines.length, item.planted);
      else lookalikes.add(lines.length);
      lines.push(item.line);
    }
    if (i < clean.length) lines.push(clean[i]);
  }
  return {
    lines, planted, lookalikes, pems: pemSecrets(r),
    formatCount: FORMATS.length + structuralSecrets(r).length + pemSecrets(r).length, syntaxCount: SYNTAXES.length,
  };
}

/** A secret leaked when it, or its last 12 characters (a cut-off tail), is still in the scrubbed line. */
export function leaked(secret: string, scrubbed: string): boolean {
  return scrubbed.includes(secret) || (secret.length > 16 && scrubbed.includes(secret.slice(-12)));
}

/** Scrubs the corpus in documents of about 64 KB (as tool results come) and counts leaks and changed clean lines. */
export function evaluate(corpus: SecretsCorpus, scrub: (text: string) => string): {
  leaks: PlantedSecret[]; changedClean: string[]; changedLookalikes: string[]; cleanLineCount: number; secretCount: number;
} {
  const leaks: PlantedSecret[] = [];
  const changedClean: string[] = [];
  const changedLookalikes: string[] = [];
  const { lines } = corpus;
  for (let start = 0; start < lines.length;) {
    let end = start;
    let size = 0;
    while (end < lines.length && size < 65536) size += lines[end++].length + 1;
    const out = scrub(lines.slice(start, end).join('\n')).split('\n');
    if (out.length !== end - start) throw new Error(`line count changed in document at line ${start}`);
    for (let i = start; i < end; i++) {
      const p = corpus.planted.get(i);
      const o = out[i - start];
      if (p) {
        if (leaked(p.secret, o)) leaks.push(p);
      } else if (o !== lines[i]) {
        (corpus.lookalikes.has(i) ? changedLookalikes : changedClean).push(`${lines[i]}\n  -> ${o}`);
      }
    }
    start = end;
  }
  for (const pem of corpus.pems) {
    const out = scrub(pem.text);
    for (const s of pem.secrets) if (leaked(s, out)) leaks.push({ id: pem.id, syntax: 'pem', secret: s });
  }
  const secretCount = corpus.planted.size + corpus.pems.length;
  return { leaks, changedClean, changedLookalikes, cleanLineCount: lines.length - corpus.planted.size, secretCount };
}
