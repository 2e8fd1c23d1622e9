// Text clean-up before a command is parsed: what the parser sees must be what a person reads in the
// approval prompt. Look-alikes (fullwidth `ｒｍ`) are folded by NFKC and invisible characters that split
// a word for the eye but not for a regex (`r\u200bm`) are removed, so the judge sees `rm` either way.
// The exec tool must run the normalised text, never the original, or parse and execution would differ.
import { CommandRejected } from './command-types';
import { indexOf } from './command-strings';

/**
 * Invisible characters: every Unicode format character (Cf: soft hyphen, zero-width space/joiners,
 * LRM/RLM, bidi embeddings and isolates, word joiner, invisible operators, BOM, tag characters …)
 * plus invisible non-Cf characters used for spoofing: combining grapheme joiner, Hangul fillers,
 * variation selectors.
 */
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]/gu;

/** Pure ASCII is NFKC-stable and holds no invisible characters: the common case costs one test. */
const ASCII_ONLY = /^[\x00-\x7F]*$/;

/** Throws CommandRejected when the text holds a NUL byte: no shell argument can carry one. */
export function rejectNul(command: string): void {
  const at = indexOf(command, '\0');
  if (at >= 0) {
    throw new CommandRejected(
      `The command contains a NUL byte (at character ${at}); a shell cannot pass one, so the command is refused. Remove it and try again.`,
    );
  }
}

/** NFKC-normalises and strips invisible format characters (before and after, as NFKC may expose some). */
export function normalizeCommand(command: string): string {
  if (ASCII_ONLY.test(command)) return command;
  return command.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
}
