// Load that does not stop by itself, started through a platform (containers restarting for ever,
// hundreds of replicas, flood pings), and programs handed to a supervisor that keeps them running —
// beside the bounded, everyday uses of the same commands.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

describe('exec judge: load without end, supervised programs', () => {
  // The workspace is made when this suite starts: another file's after(removeTempDirs) must not take it first.
  let judge: ReturnType<typeof judgeIn>['judge'];
  before(() => { ({ judge } = judgeIn()); });
  after(removeTempDirs);
  const expect = async (decision: 'allow' | 'ask' | 'deny', lines: string[]) => {
    for (const c of lines) assert.equal((await judge(c)).decision, decision, c);
  };

  it('a load generator restarting for ever, hundreds of busy replicas and flood pings to another host are denied', async () => {
    await expect('deny', [
      'docker run -d --restart always --cpus 0 progrium/stress --cpu 64', "docker run --restart=unless-stopped -d alpine sh -c 'while :; do :; done'",
      "kubectl run load --image=busybox --replicas=1000 -- sh -c 'while :; do :; done'", 'ping -f -s 65500 203.0.113.50', 'hping3 --flood -S -p 80 10.0.0.5', 'ping -i 0 example.org',
    ]);
  });

  it('hundreds of replicas, a one-off load container and a supervised program ask', async () => {
    await expect('ask', ['kubectl scale deploy/web --replicas=500', 'docker service scale web=400', 'docker compose up -d --scale worker=300', 'docker run --rm progrium/stress --cpu 2 --timeout 10s', 'supervisorctl add beacon', 'ping -f localhost']);
  });

  it('services restarting for ever, a few replicas, counted pings and supervisor status run', async () => {
    await expect('allow', [
      'docker run -d --restart always -p 5432:5432 postgres:16', 'kubectl scale deploy/web --replicas=3', 'docker compose up -d --scale worker=3', 'docker compose run -e BATCH=500 worker',
      'ping -c 4 example.org', 'ping -i 0.2 -c 10 10.0.0.1', 'supervisorctl status', 'supervisorctl restart web',
    ]);
  });
});
