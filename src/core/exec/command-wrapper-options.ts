// Skipping a wrapper's own options to find where the wrapped command starts.
import type { Word } from './command-types';
import { startsWith } from './command-strings';

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
    if (w.dynamic || !startsWith(t, '-') || t === '-') return i;
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

/** xargs's options that take a value, for skipOptions. */
export const XARGS_VALUE_LETTERS = 'adEILnPs';
export const XARGS_VALUE_LONG = ['arg-file', 'delimiter', 'eof', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'];

/**
 * The string xargs replaces with each input line (`-I R`, `-IR`, `-i`, `-iR`, `--replace[=R]`),
 * read from xargs's own options; undefined when it appends the input as arguments instead.
 */
export function xargsReplaceToken(options: readonly string[]): string | undefined {
  let token: string | undefined;
  for (let k = 0; k < options.length; k++) {
    const t = options[k];
    if (t === '--replace' || t === '-i') token = '{}';
    else if (t.startsWith('--replace=')) token = t.slice('--replace='.length);
    else if (t.startsWith('-') && !t.startsWith('--')) {
      for (let j = 1; j < t.length; j++) {
        const c = t[j];
        if (c === 'I') { token = j === t.length - 1 ? options[++k] : t.slice(j + 1); break; }
        if (c === 'i') { token = j === t.length - 1 ? '{}' : t.slice(j + 1); break; }
        if (XARGS_VALUE_LETTERS.includes(c)) { if (j === t.length - 1) k++; break; }
      }
    }
  }
  return token || undefined;
}

/**
 * Whether shell text reads `token` where a program name goes: at its start, after `;`, `&`, `|`,
 * `(`, `{`, a newline or `$(`, or as the argument of a word that runs its argument (`eval {}`).
 */
export function inCommandPosition(script: string, token: string): boolean {
  const t = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[;&|({\\n\`]|\\$\\(|\\b(then|do|else|eval|exec|source|command|env|nohup|sudo|xargs|time)\\s)\\s*["']?${t}`).test(script);
}

/** git settings whose value is a command line git runs: a pager, an editor, ssh, a diff, filter or merge driver, a signing program. */
export const GIT_COMMAND_SETTING = /^(core\.(sshcommand|pager|editor|askpass|fsmonitor)|sequence\.editor|pager\.[\w-]+|diff\.external|diff\.[^.]+\.(textconv|command)|filter\.[^.]+\.(clean|smudge|process)|merge\.[^.]+\.driver|gpg\.(program|[^.]+\.program))$/i;
