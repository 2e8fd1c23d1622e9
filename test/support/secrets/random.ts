// Seeded character helpers for the secrets corpus (test/support/secrets/corpus.ts).
import { rng } from '../rng';

export interface Rand {
  readonly next: () => number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chars(alphabet: string, n: number): string;
  an(n: number): string;
  hex(n: number): string;
  HEX(n: number): string;
  lower(n: number): string;
  upper(n: number): string;
  b64(n: number): string;
  b64u(n: number): string;
  digits(n: number): string;
  uuid(): string;
}

const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function makeRand(seed: number): Rand {
  const next = rng(seed);
  const int = (n: number): number => Math.floor(next() * n);
  const chars = (alphabet: string, n: number): string => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const hex = (n: number): string => chars('0123456789abcdef', n);
  return {
    next, int, chars, hex,
    pick: <T>(xs: readonly T[]): T => xs[int(xs.length)],
    an: (n) => chars(AN, n),
    HEX: (n) => chars('0123456789ABCDEF', n),
    lower: (n) => chars('abcdefghijklmnopqrstuvwxyz0123456789', n),
    upper: (n) => chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', n),
    b64: (n) => chars(`${AN}+/`, n),
    b64u: (n) => chars(`${AN}_-`, n),
    digits: (n) => chars('0123456789', n),
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
  };
}
