// The small pieces: getopt-style option parsing, the sed script walker, environment sanitising.
import assert from 'node:assert/strict';
import { sanitizeEnv } from '../../../src/core/exec/command-env';
import { hasFlag, hasLong, hasLongSurely, parseOptions, valuesOf } from '../../../src/core/exec/command-options';
import { analyzeSed } from '../../../src/core/exec/command-sed';
import { globMatch } from '../../../src/core/exec/command-allowlist';

describe('exec judge helpers', () => {
  it('parseOptions: clusters, long names, prefixes, values and --', () => {
    const rm = { longFlag: ['recursive', 'force'] } as const;
    for (const args of [['-Rf', 'x'], ['-rfv', 'x'], ['-v', '-rf', 'x'], ['--recursive', 'x'], ['--rec', 'x'], ['--r', 'x']]) {
      const o = parseOptions(args, rm);
      assert.ok(hasFlag(o, 'rR', ['recursive']), args.join(' '));
      assert.deepEqual(o.operands, ['x']);
    }
    const s = parseOptions(['-o/etc/x', '-k', '2', '--output=y', 'in'], { shortValue: 'ok', longValue: ['output'] });
    assert.deepEqual(valuesOf(s, ['output'], 'o'), ['/etc/x', 'y']);
    assert.deepEqual(s.operands, ['in']);
    assert.deepEqual(parseOptions(['--', '-rf'], rm).operands, ['-rf']);
    assert.ok(!hasFlag(parseOptions(['--', '-r'], rm), 'r'));
  });

  it('parseOptions: every beginning of a long option is stored under its full name', () => {
    const spec = { longValue: ['repo', 'receive-pack', 'exec'], longFlag: ['force', 'force-with-lease', 'dry-run'], negatable: true } as const;
    // One known option's alone: that option, its value under the full name, `=` or the next word.
    assert.deepEqual(valuesOf(parseOptions(['--e=sh'], spec), ['exec']), ['sh']);
    assert.deepEqual(valuesOf(parseOptions(['--rep', 'u', 'x'], spec), ['repo']), ['u']);
    assert.deepEqual(parseOptions(['--rep', 'u', 'x'], spec).operands, ['x']);
    assert.ok(hasLongSurely(parseOptions(['--d'], spec), 'dry-run'));
    // Shared by several known options: every one of them, none surely.
    const shared = parseOptions(['--re=u'], spec);
    assert.deepEqual(valuesOf(shared, ['repo']), ['u']);
    assert.deepEqual(valuesOf(shared, ['receive-pack']), ['u']);
    assert.ok(!hasLongSurely(shared, 'repo'));
    const f = parseOptions(['--f'], spec);
    assert.ok(hasLong(f, 'force') && hasLong(f, 'force-with-lease') && !hasLongSurely(f, 'force'));
    // An exact name wins over the longer names it begins.
    assert.ok(hasLongSurely(parseOptions(['--force'], spec), 'force'));
    // git's negations: `--no-<beginning>` is the option turned off, never the option; no value taken.
    const off = parseOptions(['--no-fo', 'x'], spec);
    assert.ok(!hasLong(off, 'force') && off.long.includes('no-force') && off.long.includes('no-force-with-lease'));
    assert.deepEqual(parseOptions(['--no-rep', 'x'], spec).operands, ['x']);
    // Without negation (getopt), `--no` is a beginning like any other.
    assert.ok(hasLong(parseOptions(['--no'], { longFlag: ['no-preserve-root', 'force'] }), 'no-preserve-root'));
    // A name no known option begins with is kept as typed, and a short value never mixes with a one-letter long name.
    const u = parseOptions(['--x=1', '-x', '2'], { shortValue: 'x', longValue: ['output'] });
    assert.deepEqual(u.long, ['x']);
    assert.deepEqual(valuesOf(u, [], 'x'), ['2']);
  });

  it('analyzeSed: e command and flag, w files, in-place targets, mentions of e', () => {
    assert.equal(analyzeSed(["s/x/y/e"]).exec, true);
    assert.equal(analyzeSed(['-e', '1e id']).exec, true);
    assert.equal(analyzeSed(['-n', '$!{h};e date']).exec, true);
    assert.equal(analyzeSed(['s/e/E/g']).exec, false);
    assert.equal(analyzeSed(['s|e|f|']).exec, false);
    assert.equal(analyzeSed(['/e/d']).exec, false);
    assert.deepEqual(analyzeSed(['s/a/b/w out.txt', 'f']).writes, ['out.txt']);
    assert.deepEqual(analyzeSed(['-i', 's/a/b/', 'f1', 'f2']).inPlace, ['f1', 'f2']);
    assert.deepEqual(analyzeSed(['-n', '1,5p', 'f']).inPlace, []);
    assert.equal(analyzeSed(['-f', 'script.sed', 'f']).scriptFile, true);
  });

  it('sanitizeEnv removes loader, shell hook, git and proxy variables and keeps the rest', () => {
    const { env, removed } = sanitizeEnv({ PATH: '/usr/bin', HOME: '/h', LD_PRELOAD: 'x', DYLD_INSERT_LIBRARIES: 'x', BASH_ENV: 'x', GIT_SSH_COMMAND: 'x', https_proxy: 'x', NODE_OPTIONS: 'x', 'BASH_FUNC_ls%%': '() { id; }', LANG: 'C', CI: '1' });
    assert.deepEqual(removed, ['BASH_ENV', 'BASH_FUNC_ls%%', 'DYLD_INSERT_LIBRARIES', 'GIT_SSH_COMMAND', 'LD_PRELOAD', 'NODE_OPTIONS', 'https_proxy']);
    assert.deepEqual(Object.keys(env).sort(), ['CI', 'HOME', 'LANG', 'PATH']);
  });

  it('globMatch: * and ? over the whole argument string, regex characters literal', () => {
    assert.ok(globMatch('status*', 'status --short'));
    assert.ok(!globMatch('status', 'status --short'));
    assert.ok(globMatch('run ?', 'run a'));
    assert.ok(!globMatch('a.b', 'axb'));
  });
});
