// The parser's fast path (command-plain-tree.ts) against tree-sitter: for every line it takes, the
// tree it builds must be tree-sitter's own, node for node (type, named, span, error flag) — over
// every corpus line and thousands of generated lines made of the pieces the fast path reads and of
// the pieces it must refuse. The walker then cannot see which path a line took.
import assert from 'node:assert/strict';
import { bashParser } from '../../../src/core/exec/command-grammar';
import { normalizeCommand } from '../../../src/core/exec/command-parse';
import { plainTree } from '../../../src/core/exec/command-plain-tree';
import { copyTree, type SyntaxNode } from '../../../src/core/exec/command-syntax-node';
import { rng } from '../../support/rng';
import { corpus, heldOut } from './judge-support';

const shape = (n: SyntaxNode): unknown => [n.type, n.isNamed, n.startIndex, n.endIndex, n.hasError, n.children.map(shape)];

async function sitter(text: string): Promise<SyntaxNode> {
  const tree = (await bashParser()).parse(text)!;
  try { return copyTree(tree, text); } finally { tree.delete(); }
}

/** How many of `lines` the fast path took; each one it took is checked against tree-sitter. */
async function differential(lines: string[]): Promise<number> {
  let taken = 0;
  for (const line of lines) {
    const text = normalizeCommand(line);
    const fast = plainTree(text);
    if (!fast) continue;
    taken++;
    const slow = await sitter(text);
    assert.equal(slow.hasError, false, `the fast path took a line tree-sitter finds broken: ${text}`);
    assert.deepEqual(shape(fast), shape(slow), text);
  }
  return taken;
}

describe('exec: the parser fast path builds tree-sitter\'s tree', () => {
  it('on every corpus line it takes', async function () {
    this.timeout(120_000);
    const lines = [...corpus('hostile'), ...corpus('hostile-classes'), ...corpus('benign'), ...corpus('benign-docs'),
      ...heldOut('holdout', 'hostile'), ...heldOut('holdout', 'benign'), ...heldOut('holdout-2', 'hostile'), ...heldOut('holdout-2', 'benign')];
    const taken = await differential(lines);
    assert.ok(taken > lines.length / 5, `the fast path took only ${taken} of ${lines.length} lines`);
  });

  it('on generated lines of plain words, quotes, assignments, operators and redirections', async function () {
    this.timeout(120_000);
    const random = rng(20261126);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    // Mostly pieces the fast path reads; now and then one it must refuse (or that the grammar reads otherwise).
    const mix = <T>(plain: readonly T[], refused: readonly T[]) => (): T => (random() < 0.93 ? pick(plain) : pick(refused));
    const word = mix(['a', 'ls', 'git', 'npx', 'x-y', './run', '/bin/rm', 'a.b', 'a:b', 'a,b', 'a+b', '-n', '--opt=v', '20', '-1', '0', '007', '1.5', '0x1f', '12ab', 'x=y',
      '@s/p', 'p@1.0', '%x', '+y', ',z', '=v', '-', '--', '.', "'q r'", "'a|b;c'", "''", "'*'", 'X=1', 'Y=', 'Z=a=b', 'W=-2', 'V=+1', '_A1=x'],
    ['a%b', 'a@b', '==', 'done', 'in', 'export', 'x.y=1', "it'", "'a'b", '$x', '"q"', '*.ts', '~', 'a\\ b', '!', '{', '#c', 'é']);
    const name = mix(['a', 'ls', 'git', 'npx', 'x-y', './run', '/bin/rm', 'a.b', '.', 'X=1 ls', 'Y= git', 'Z=a=b W=-2 npx', '_A1=x V=+1 a'], ['a:b', 'X=1 a:b', '20', '-n', 'a@b', "'ls'", 'X=1']);
    const op = mix(['|', '&&', '||', ';', ' | ', ' && ', ' || ', ' ; '], [';;', '&', '|&', '\n']);
    const redirect = mix(['2>&1', '>&2', '1>&2', '> f', '>f', '2>/dev/null', '>> log', '2>>err', '< in', '2> err', '> 1', '> out.txt', '0<in'],
      ['>&-', '&> f', '>|f', '<<< x', '>&f', "> 'f g'", '2>&1 x', '<&0', '<>f']);
    const lines: string[] = [];
    for (let k = 0; k < 6000; k++) {
      const parts: string[] = [];
      const commands = 1 + Math.floor(random() * 4);
      for (let c = 0; c < commands; c++) {
        if (c) parts.push(op());
        const n = Math.floor(random() * 4);
        const cmd: string[] = [name()];
        for (let w = 0; w < n; w++) cmd.push(word());
        if (random() < 0.4) cmd.push(redirect());
        if (random() < 0.15) cmd.push(redirect());
        parts.push(cmd.join(random() < 0.9 ? ' ' : '\t'));
      }
      if (random() < 0.1) parts.push(';');
      lines.push((random() < 0.1 ? '  ' : '') + parts.join(' ') + (random() < 0.1 ? ' ' : ''));
    }
    const taken = await differential(lines);
    assert.ok(taken > 1500, `the fast path took only ${taken} of ${lines.length} generated lines`);
  });

  it('takes the everyday compound line of the judge benchmark, refuses what it does not model', () => {
    assert.ok(plainTree("cd packages/core && NODE_ENV=test timeout 120 npx mocha --reporter dot 'out/test/unit/**/*.test.js' 2>&1 | tee test-output.log | grep -E 'passing|failing|pending' ; git status --short | head -n 20"));
    for (const line of ['echo $HOME', 'ls *.ts', 'echo "a b"', 'a & b', 'a\nb', 'cat <<EOF', 'if true; then a; fi', 'ls > out -l', 'a>f', "it's", 'echo é']) assert.equal(plainTree(line), undefined, line);
  });
});
