// What a `git config` command does, in both syntaxes (`git config key value`, `git config --add key
// value`, `git config set key value`, `git config --unset key`, `git config unset key`): the rules
// that care about the setting written (a program run later, a remote re-pointed) read it from here,
// so options with a value (`--file F`, `-f F`, `--type T`, `-t T`, and git's shorter spellings such as
// `--ty T`) are never taken for the key.
import { hasFlag, parseOptions } from './command-options';

export interface GitConfigCall {
  /** It writes a setting: `key value`, `--add`, `--replace-all`, `set`, or `--edit` (no key then). */
  sets: boolean;
  /** It takes a setting away (`--unset`, `--unset-all`, `unset`). */
  unsets: boolean;
  key: string | undefined;
  value: string;
  /** Options seen, for the scope (`--global`, `--system`). */
  long: readonly string[];
}

/** The subcommands of the newer syntax (git 2.46). A key always has a dot, so none of them is a key. */
const VERB = /^(set|unset|get|list|edit|rename-section|remove-section)$/;
const READS = ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'list', 'rename-section', 'remove-section'];

/**
 * git takes any unambiguous beginning of a long option, however short; these beginnings of the value
 * options are each one's alone among git config's options (`--f`, `--fi` and `--b` are not: `--fixed-value`,
 * `--bool`), and `parseOptions` reads only beginnings of three or more characters.
 */
const SHORT_SPELLING = /^--(t|ty|typ|d|de|def|c|co|com|v|va|val|bl|blo)$/;
const SPELLED_OUT: Readonly<Record<string, string>> = { t: 'type', d: 'default', c: 'comment', v: 'value', b: 'blob' };

/** `rest`: the words after `config`. */
export function gitConfigCall(rest: readonly string[]): GitConfigCall {
  const words = rest.map((w) => (SHORT_SPELLING.test(w) ? `--${SPELLED_OUT[w[2]]}` : w));
  const o = parseOptions(words, { shortValue: 'ft', longValue: ['file', 'blob', 'type', 'default', 'comment', 'value'] });
  const ops = o.operands;
  const verb = VERB.test(ops[0] ?? '') ? ops[0] : undefined;
  const key = verb ? ops[1] : ops[0];
  const value = (verb ? ops[2] : ops[1]) ?? '';
  const unsets = verb === 'unset' || hasFlag(o, '', ['unset', 'unset-all']);
  const edits = verb === 'edit' || hasFlag(o, 'e', ['edit']);
  const reads = verb !== undefined && verb !== 'set' || hasFlag(o, 'l', READS);
  const sets = !unsets && (edits || verb === 'set' || !reads && (ops.length >= 2 || hasFlag(o, '', ['add', 'replace-all'])));
  return { sets, unsets, key, value, long: o.long };
}
