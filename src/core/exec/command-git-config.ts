// What a `git config` command does, in both syntaxes (`git config key value`, `git config --add key
// value`, `git config set key value`, `git config --unset key`, `git config unset key`): the rules
// that care about the setting written (a program run later, a remote re-pointed) read it from here,
// so options with a value (`--file F`, `-f F`, `--type T`, `-t T`, and git's shorter spellings such as
// `--t T`, resolved by the option table) are never taken for the key.
import { GIT_CONFIG } from './command-option-tables';
import { hasFlag, hasLongSurely, parseOptions } from './command-options';

export interface GitConfigCall {
  /** It writes a setting: `key value`, `--add`, `--replace-all`, `set`, or `--edit` (no key then). */
  sets: boolean;
  /** It takes a setting away (`--unset`, `--unset-all`, `unset`). */
  unsets: boolean;
  key: string | undefined;
  value: string;
  /** Options seen by full name, for the scope (`--global`, `--system`). */
  long: readonly string[];
}

/** The subcommands of the newer syntax (git 2.46). A key always has a dot, so none of them is a key. */
const VERB = /^(set|unset|get|list|edit|rename-section|remove-section)$/;
const READS = ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'list', 'rename-section', 'remove-section'] as const;

/** `rest`: the words after `config`. */
export function gitConfigCall(rest: readonly string[]): GitConfigCall {
  const o = parseOptions(rest, GIT_CONFIG);
  const ops = o.operands;
  const verb = VERB.test(ops[0] ?? '') ? ops[0] : undefined;
  const key = verb ? ops[1] : ops[0];
  const value = (verb ? ops[2] : ops[1]) ?? '';
  // Taking a setting away and reading are milder than writing: only an option surely given (not a
  // beginning it shares with another, which git refuses) makes the call one of them.
  const unsets = verb === 'unset' || hasLongSurely(o, 'unset') || hasLongSurely(o, 'unset-all');
  const edits = verb === 'edit' || hasFlag(o, 'e', ['edit']);
  const reads = verb !== undefined && verb !== 'set' || o.short.has('l') || READS.some((r) => hasLongSurely(o, r));
  const sets = !unsets && (edits || verb === 'set' || !reads && (ops.length >= 2 || hasFlag(o, '', ['add', 'replace-all'])));
  return { sets, unsets, key, value, long: o.long };
}
