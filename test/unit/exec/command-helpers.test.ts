// The small pieces: getopt-style option parsing, the sed script walker, environment sanitising.
import assert from 'node:assert/strict';
import { sanitizeEnv } from '../../../src/core/exec/command-env';
import { hasFlag, parseOptions, valuesOf } from '../../../src/core/exec/command-options';
import { analyzeSed } from '../../../src/core/exec/command-sed';
import { globMatch } from '../../../src/core/exec/command-allowlist';

describe('exec judge helpers', () => {
  it('parseOptions: clusters, long names, prefixes, values and --', () => {
    for (const args of [['-Rf', 'x'], ['-rfv', 'x'], ['-v', '-rf', 'x'], ['--recursive', 'x'], ['--rec', 'x']]) {
      const o = parseOptions(args);
      assert.ok(hasFlag(o, 'rR', ['recursive']), args.join(' '));
      assert.deepEqual(o.operands, ['x']);
    }
    const s = parseOptions(['-o/etc/x', '-k', '2', '--output=y', 'in'], { shortValue: 'ok', longValue: ['output'] });
    assert.deepEqual(valuesOf(s, ['output'], 'o'), ['/etc/x', 'y']);
    assert.deepEqual(s.operands, ['in']);
    assert.deepEqual(parseOptions(['--', '-rf']).operands, ['-rf']);
    assert.ok(!hasFlag(parseOptions(['--', '-r']), 'r'));
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
