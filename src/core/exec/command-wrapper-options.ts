// Skipping a wrapper's own options to find where the wrapped command starts.
import type { Word } from './command-types';

/**
 * Index of the first word after the options that start at `start`. `withArg`: short options that
 * take a value (the next word, or the rest of the same word); `long`: long options that take one
 * (`--name value`, `--name=value`, or a prefix of the name). `--` ends the options. A dynamic word ends them too: it is
 * treated as the command, so the judge sees a dynamic command rather than a guess.
 */
export function skipOptions(argv: Word[], start: number, withArg: string, long: string[]): number {
  let i = start;
  while (i < argv.length) {
    const w = argv[i];
    const t = w.text;
    if (w.dynamic || !t.startsWith('-') || t === '-') return i;
    if (t === '--') return i + 1;
    if (t.startsWith('--')) {
      // GNU accepts unambiguous prefixes (`--sig KILL` is `--signal KILL`).
      const name = t.slice(2);
      i += !name.includes('=') && long.some((l) => l.startsWith(name)) ? 2 : 1;
      continue;
    }
    let consumesNext = false;
    for (let j = 1; j < t.length; j++) {
      if (withArg.includes(t[j])) {
        consumesNext = j === t.length - 1; // `-n5` carries its value; `-n 5` takes the next word
        break;
      }
    }
    i += consumesNext ? 2 : 1;
  }
  return i;
}
