// Whether children really run in parallel: 8 background children against a loopback model that takes
// 200 ms to stream each answer, from the first spawn until all eight have settled, against one child
// the same way. maxChildrenPerParent is raised to 8 so one parent can start all of them.
//   subagent-fanout-8  ms, median of 7 rounds; goal: ratio (8 children / 1 child) <= 1.3
// On a machine other work keeps busy, run it as `chrt -f 10 node bench/subagent-fanout-8.mjs`: the
// ratio is about this process's children, and the record says how it was scheduled.
import os from 'node:os';
import { median, record } from './lib/record.mjs';
import { schedulingPolicy, setup } from './lib/subagent-setup.mjs';

const ROUNDS = 7;
// Five chunks (role, text, finish, usage, [DONE]) 50 ms apart: the answer takes 200 ms.
const rig = await setup({ script: () => ({ parts: [{ kind: 'text', text: 'done' }], delayMs: 50 }), settings: { 'subagents.maxChildrenPerParent': 8 } });
const loadBefore = os.loadavg();

async function fan(parent, n, round) {
  const t0 = performance.now();
  const children = [];
  for (let i = 0; i < n; i++) children.push(await rig.manager.spawn({ parentSessionKey: parent, callerAgentId: 'default', callerDepth: 0, task: `part ${i} of round ${round}`, mode: 'spawn' }));
  const settled = await Promise.all(children.map((c) => rig.manager.settled(c.id)));
  const ms = performance.now() - t0;
  if (settled.some((r) => r.status !== 'done')) throw new Error(`a child did not finish: ${settled.map((r) => r.status).join(', ')}`);
  rig.manager.inbox(parent);
  return ms;
}

try {
  const parent = (await rig.sessions.create('default')).key;
  await fan(parent, 8, -1);
  const one = [];
  const eight = [];
  for (let r = 0; r < ROUNDS; r++) {
    one.push(await fan(parent, 1, r));
    eight.push(await fan(parent, 8, r));
  }
  const value = median(eight);
  const ref = median(one);
  record({
    name: 'subagent-fanout-8', unit: 'ms', value, reference: 'one child, same model', referenceValue: ref,
    goal: 'ratio <= 1.3', pass: value / ref <= 1.3, runs: ROUNDS, statistic: 'median', loadBefore,
    corpus: '8 background children, loopback Chat Completions server streaming each answer over 200 ms, workspace database',
    extra: { scheduling: schedulingPolicy() },
  });
} finally {
  await rig.close();
}
