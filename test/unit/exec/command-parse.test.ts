import assert from 'node:assert/strict';
import { parseCommand } from '../../../src/core/exec/command-parse';
import { CommandRejected } from '../../../src/core/exec/command-types';
import { argv, argvs, kinds, parse, seg } from './parse-helpers';

describe('exec: shell parser — words and quoting', () => {
  it('resolves every GoClaw bypass spelling of rm to argv rm', async () => {
    for (const [cmd, expected] of [
      ['rm -Rf x', ['rm', '-Rf', 'x']],
      ['rm -rfv x', ['rm', '-rfv', 'x']],
      ['rm -v -rf x', ['rm', '-v', '-rf', 'x']],
      ["r''m -Rf x", ['rm', '-Rf', 'x']],
      ['"r"m -Rf x', ['rm', '-Rf', 'x']],
      ['r"m" -Rf x', ['rm', '-Rf', 'x']],
      ['\\rm -Rf x', ['rm', '-Rf', 'x']],
      ['r\\m -Rf x', ['rm', '-Rf', 'x']],
      ["$'\\x72\\x6d' -Rf x", ['rm', '-Rf', 'x']],
      ["$'\\162m' -Rf x", ['rm', '-Rf', 'x']],
      ['/bin/rm -Rf x', ['/bin/rm', '-Rf', 'x']],
    ] as const) {
      const p = await parse(cmd);
      assert.deepEqual(argvs(p), [expected], cmd);
      assert.deepEqual(p.problems, [], cmd);
      assert.equal(p.segments[0].argv[0].dynamic, false, cmd);
    }
  });

  it('follows the quoting table', async () => {
    const table: [string, string, boolean][] = [
      ["'a b'", 'a b', false],
      ['"a \\" \\\\ \\$ \\x"', 'a " \\ $ \\x', false],
      ["'a\\nb'", 'a\\nb', false],
      ['a\\ b', 'a b', false],
      ['"$HOME/x"', '$HOME/x', true],
      ['${A:-b}', '${A:-b}', true],
      ['$(id)', '$(id)', true],
      ['`id`', '`id`', true],
      ['$((1+2))', '$((1+2))', true],
      ['*.ts', '*.ts', true],
      ['\\*.ts', '*.ts', false],
      ['"*.ts"', '*.ts', false],
      ['{a,b}', '{a,b}', true],
      ['"{a,b}"', '{a,b}', false],
      ['~/x', '~/x', true],
      ['"~/x"', '~/x', false],
      ['{}', '{}', false],
      ['$"hi"', 'hi', false],
      ['--author=su', '--author=su', false],
    ];
    for (const [word, text, dynamic] of table) {
      const p = await parse(`echo ${word}`);
      const w = p.segments[0].argv[1];
      assert.equal(w.text, text, word);
      assert.equal(w.dynamic, dynamic, word);
      assert.equal(p.segments[0].argv.length, 2, word);
    }
  });

  it('decodes ANSI-C strings like bash, cutting at NUL', async () => {
    const p = await parse("echo $'a\\tb' $'\\u00e9' $'\\xc3\\xa9' $'\\101' $'\\cA' $'it\\'s' $'rm\\x00junk'");
    assert.deepEqual(argv(p.segments[0]).slice(1), ['a\tb', 'é', 'é', 'A', '\x01', "it's", 'rm']);
  });

  it('folds zero-width splits and fullwidth look-alikes to rm', async () => {
    for (const cmd of ['r\u200bm -rf /', 'r\u00adm -rf /', '\u202erm -rf /', 'ｒｍ -rf /', 'r\ufeffm\u2060 -rf /']) {
      const p = await parse(cmd);
      assert.deepEqual(argvs(p), [['rm', '-rf', '/']], JSON.stringify(cmd));
      assert.equal(p.normalized, 'rm -rf /');
    }
  });

  it('rejects a NUL byte by throwing CommandRejected', async () => {
    await assert.rejects(parseCommand('ls\0; rm -rf /'), (e: unknown) => e instanceof CommandRejected && /NUL/.test((e as Error).message));
  });

  it('flags a dynamic command name, a syntax error and too-long input', async () => {
    assert.deepEqual(kinds(await parse('$CMD -rf /')), ['dynamic-command']);
    assert.deepEqual(kinds(await parse('$(echo rm) -rf /')), ['dynamic-command']);
    assert.deepEqual(kinds(await parse('/???/r? -rf /')), ['dynamic-command']);
    const broken = await parse('echo "unterminated; rm -rf /');
    assert.ok(kinds(broken).includes('syntax'));
    assert.deepEqual(argv(broken.segments[0]), ['echo']);
    assert.ok(kinds(await parse('ls )')).includes('syntax'));
    const long = await parseCommand(`echo ${'a'.repeat(20_000)}`);
    assert.deepEqual(kinds(long), ['too-long']);
    assert.deepEqual(long.segments, []);
    assert.deepEqual(kinds(await parseCommand('echo hello', { maxLength: 5 })), ['too-long']);
  });
});

describe('exec: shell parser — structure', () => {
  it('lists segments of lists and pipelines in order with their joiners', async () => {
    const p = await parse('a && b | c || d; e & f |& g\nh');
    assert.deepEqual(argvs(p), [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g'], ['h']]);
    assert.deepEqual(p.segments.map((s) => s.joinedBy), ['', '&&', '|', '||', ';', '&', '|&', '\n']);
    assert.ok(p.segments.every((s) => s.context === 'top' && s.via.length === 0));
  });

  it('reads redirects with descriptors', async () => {
    const p = await parse('FOO=bar make -j4 2>/dev/null >> log 3<&0 2>&- &> all >| clobber < in 2>&1');
    const s = p.segments[0];
    assert.deepEqual(argv(s), ['make', '-j4']);
    assert.deepEqual(s.assignments.map((a) => [a.name, a.value.text]), [['FOO', 'bar']]);
    assert.deepEqual(s.redirects.map((r) => [r.fd, r.op, r.target.text]), [
      [2, '>', '/dev/null'], [undefined, '>>', 'log'], [3, '<&', '0'], [2, '>&', '-'],
      [undefined, '&>', 'all'], [undefined, '>|', 'clobber'], [undefined, '<', 'in'], [2, '>&', '1'],
    ]);
  });

  it('keeps heredoc bodies and the redirects after the delimiter', async () => {
    const p = await parse("cat <<'EOF' > out.txt\nhello $x\nEOF\necho done");
    const cat = seg(p, 'cat');
    assert.deepEqual(cat.heredocs, ['hello $x\n']);
    assert.deepEqual(cat.redirects.map((r) => [r.op, r.target.text]), [['<<', 'EOF'], ['>', 'out.txt']]);
    assert.deepEqual(argvs(p), [['cat'], ['echo', 'done']]);
    assert.deepEqual(p.problems, []);
  });

  it('runs substitutions in an unquoted heredoc, not in a quoted one', async () => {
    assert.deepEqual(argvs(await parse('cat <<EOF\n$(rm -rf /) hi\nEOF')), [['cat'], ['rm', '-rf', '/']]);
    assert.deepEqual(argvs(await parse("cat <<'EOF'\n$(rm -rf /) hi\nEOF")), [['cat']]);
  });

  it('follows subshells, groups, control flow, functions, negation and tests', async () => {
    const p = await parse('(cd x && make); { a; b; } > f; if t; then u; else v; fi; while w; do y; done; ' +
      'case $x in a) rm a;; esac; f() { rm -rf /; }; ! grep q; [[ -f x && $(rm y) ]]; for i in $(ls); do z; done');
    assert.deepEqual(argvs(p), [['cd', 'x'], ['make'], ['a'], ['b'], ['t'], ['u'], ['v'], ['w'], ['y'], ['rm', 'a'],
      ['rm', '-rf', '/'], ['grep', 'q'], ['[[', '-f', 'x', '&&', '$(rm y)', ']]'], ['rm', 'y'], ['ls'], ['z']]);
    assert.equal(seg(p, 'make').context, 'subshell');
    assert.deepEqual(seg(p, 'b').redirects.map((r) => r.target.text), ['f']);
    assert.equal(p.segments[10].context, 'function');
    assert.equal(p.segments[13].context, 'command-substitution');
  });

  it('lists command and process substitutions as their own segments', async () => {
    const p = await parse('echo "$(whoami)" `id` > >(tee log) <(cat a)');
    assert.deepEqual(argvs(p).slice(1), [['whoami'], ['id'], ['tee', 'log'], ['cat', 'a']]);
    assert.deepEqual(p.segments.slice(1).map((s) => s.context), ['command-substitution', 'command-substitution', 'process-substitution', 'process-substitution']);
    assert.deepEqual(argvs(await parse('a=$(curl x)')), [[], ['curl', 'x']]);
    assert.deepEqual(argvs(await parse('echo `echo \\`id\\``')).slice(-1), [['id']]);
  });

  it('keeps assignments and declarations visible', async () => {
    const p = await parse('PATH=/tmp/evil; export LD_PRELOAD=/tmp/x.so; unset HOME');
    assert.deepEqual(p.segments[0].assignments.map((a) => a.name), ['PATH']);
    assert.deepEqual(argv(p.segments[1]), ['export', 'LD_PRELOAD=/tmp/x.so']);
    assert.deepEqual(p.segments[1].assignments.map((a) => [a.name, a.value.text]), [['LD_PRELOAD', '/tmp/x.so']]);
    assert.deepEqual(argv(p.segments[2]), ['unset', 'HOME']);
  });

  it('parses benign commands without problems', async () => {
    for (const [cmd, first] of [
      ['git log --author=su', ['git', 'log', '--author=su']],
      ['npm run test -- --grep "x"', ['npm', 'run', 'test', '--', '--grep', 'x']],
      ["echo 'ask the host'", ['echo', 'ask the host']],
      ['ls | grep dig', ['ls']],
      ['for f in *.ts; do wc -l "$f"; done', ['wc', '-l', '$f']],
      ["git commit -m 'fix docker.sock handling'", ['git', 'commit', '-m', 'fix docker.sock handling']],
      ['command -v node', ['command', '-v', 'node']],
    ] as const) {
      const p = await parse(cmd);
      assert.deepEqual(p.problems, [], cmd);
      assert.deepEqual(argv(p.segments[0]), first, cmd);
    }
  });
});
