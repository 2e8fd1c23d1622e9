// The exec tool's shell parser: a command line → every simple command that would run (segments),
// with argv as the program would receive it, and what could not be resolved statically (problems).
// Regexes over the whole string were bypassed by `rm -Rf`, `r''m -rf`, `bash <(curl …)` and
// `sh -c "$(curl …)"`; a real parser (tree-sitter's bash grammar, as VS Code ships it) is not.
import { bashParser, loadedBashParser } from './command-grammar';
import { normalizeCommand, rejectNul } from './command-normalize';
import type { ParsedCommand } from './command-types';
import { SegmentWalker, topContext } from './command-walk';

export { normalizeCommand } from './command-normalize';

export interface ParseOptions {
  /** Longest accepted input, in UTF-16 code units of the normalised text (default 16384). */
  maxLength?: number;
  /** Deepest nesting of wrappers, subshells and substitutions followed (default 8). */
  maxDepth?: number;
}

export const DEFAULT_MAX_LENGTH = 16 * 1024;
export const DEFAULT_MAX_DEPTH = 8;

/**
 * Parses a command line. Throws CommandRejected for a NUL byte; everything else comes back as
 * segments and problems (syntax errors included), never as an exception.
 */
export async function parseCommand(command: string, opts: ParseOptions = {}): Promise<ParsedCommand> {
  rejectNul(command);
  const maxLength = opts.maxLength ?? DEFAULT_MAX_LENGTH;
  if (command.length > maxLength * 4) {
    // Far past the limit: do not even spend the normalisation on it.
    return { normalized: command, segments: [], problems: [tooLong(command.length, maxLength)] };
  }
  const normalized = normalizeCommand(command);
  if (normalized.length > maxLength) {
    return { normalized, segments: [], problems: [tooLong(normalized.length, maxLength)] };
  }
  const walker = new SegmentWalker(loadedBashParser() ?? (await bashParser()), opts.maxDepth ?? DEFAULT_MAX_DEPTH);
  walker.walkScript(normalized, topContext());
  return { normalized, segments: walker.segments, problems: walker.problems };
}

function tooLong(length: number, max: number): { kind: 'too-long'; detail: string } {
  return { kind: 'too-long', detail: `the command is ${length} characters long, over the ${max}-character limit` };
}
