// What the shell parser makes of a command line, and what the judge decides about it. The parser
// (command-parse.ts) turns text into segments — every simple command that would run, wherever it
// sits (pipelines, lists, subshells, command and process substitutions, the inner command of
// sh -c / env / timeout / xargs / find -exec …) — with its argv as the shell would pass it. The
// judge (command-judge.ts) evaluates policy per segment on the resolved executable and arguments.

/** One shell word after quote removal and concatenation (`r''m` → `rm`). */
export interface Word {
  /** The value the program would receive, as far as it is known statically. */
  text: string;
  /**
   * True when part of the value is only known at run time: `$VAR`, `${…}`, `$(…)`, backticks,
   * arithmetic, or an unquoted glob. `text` then holds the static parts with the dynamic parts
   * kept verbatim (`$HOME/x`), never guessed.
   */
  dynamic: boolean;
  /** The source text of the word, for messages. */
  raw: string;
}

export type RedirectOp = '>' | '>>' | '>|' | '&>' | '&>>' | '<' | '<<' | '<<-' | '<<<' | '<>' | '>&' | '<&';

export interface Redirect {
  op: RedirectOp;
  /** The file descriptor written before the operator (`2>`), if any. */
  fd?: number;
  /** Target file, or for `>&` / `<&` the descriptor (`1`), or for heredocs the delimiter. */
  target: Word;
}

/** Where a segment sits. */
export type SegmentContext =
  | 'top'
  | 'subshell' // ( … ) and { …; }
  | 'command-substitution' // $( … ) and ` … `
  | 'process-substitution' // <( … ) >( … )
  | 'wrapped' // the inner command of a wrapper: sh -c '…', env X=1 cmd, timeout 5 cmd, xargs cmd, find -exec cmd …
  | 'function'; // the body of a function defined in the command line

export interface Segment {
  /** Command name and arguments as the program would receive them (wrappers already unwrapped into their own segment). */
  argv: Word[];
  /** `NAME=value` words before the command (and those given to `env`). */
  assignments: { name: string; value: Word }[];
  redirects: Redirect[];
  context: SegmentContext;
  /** The wrappers that led here, outermost first: ['sudo', 'env', 'sh -c']. Empty at the top. */
  via: string[];
  /** The operator that joins this segment to the previous one at its level ('' for the first). */
  joinedBy: '' | '|' | '|&' | '&&' | '||' | ';' | '&' | '\n';
  /** Source span in the normalised text, for messages and the approval prompt. */
  text: string;
  /** Heredoc bodies fed to this command (its stdin), verbatim. */
  heredocs: string[];
}

/** Something the parser could not resolve statically; the judge sends such commands to approval (or denies). */
export interface ParseProblem {
  kind:
    | 'syntax' // the parser found an error node: the shell may read it differently
    | 'dynamic-command' // the command name itself is only known at run time ($CMD, $(…) as a command)
    | 'eval' // eval, source/. of a dynamic path, bash/sh reading a script from stdin or a substitution
    | 'too-deep' // wrapper or nesting depth past the limit
    | 'too-long' // input past the size limit
    | 'unsupported'; // a construct the parser does not model (say which)
  detail: string;
}

export interface ParsedCommand {
  /** After NFKC normalisation and removal of zero-width and other invisible format characters. */
  normalized: string;
  segments: Segment[];
  problems: ParseProblem[];
}

/** Raised (not returned) for input that must never reach a shell: a NUL byte. */
export class CommandRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRejected';
  }
}

export type Decision = 'allow' | 'ask' | 'deny';

export interface SegmentVerdict {
  segment: Segment;
  decision: Decision;
  /** Named deny group (destructive_ops, data_exfiltration, …) or another named rule; never a regex. */
  group?: string;
  reason: string;
}

export interface Verdict {
  decision: Decision;
  /** The group of the decisive segment, if one decided. */
  group?: string;
  /** One sentence for the model and the person: which group and why — never the matching pattern. */
  reason: string;
  segments: SegmentVerdict[];
  problems: ParseProblem[];
}
