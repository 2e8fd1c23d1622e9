// Shared helpers for the shell-parser tests: argv as plain strings, problems by kind.
import type { ParsedCommand, Segment } from '../../../src/core/exec/command-types';
import { parseCommand } from '../../../src/core/exec/command-parse';

export const argv = (s: Segment): string[] => s.argv.map((w) => w.text);
export const argvs = (p: ParsedCommand): string[][] => p.segments.map(argv);
export const kinds = (p: ParsedCommand): string[] => p.problems.map((x) => x.kind);

export async function parse(command: string): Promise<ParsedCommand> {
  return parseCommand(command);
}

/** The segment whose argv starts with `name` (the first one). */
export function seg(p: ParsedCommand, name: string): Segment {
  const s = p.segments.find((x) => x.argv[0]?.text === name);
  if (!s) throw new Error(`no segment runs ${name}: ${JSON.stringify(argvs(p))}`);
  return s;
}
