// What starting a subagent costs before its model hears from it: from the spawn call to the child's
// first model request arriving at the loopback server, against a person starting a new chat (a new
// session, then the turn) to its first request — the same chat turn underneath, so the difference is
// admission, the child's record and its session link.
//   subagent-spawn-overhead  ms, median of 30 alternating pairs after warm-up; goal: ratio <= 1.2
import os from 'node:os';
import { median, record } from './lib/record.mjs';
import { schedulingPolicy, setup } from './lib/subagent-setup.mjs';

const RUNS = Number(process.env.PINCER_BENCH_RUNS ?? 30);
const WARM = Math.min(5, RUNS);
let arrived = () => undefined;
const rig = await setup({
  script: () => ({ parts: [{ kind: 'text', text: 'ok' }] }),
  onRequest: () => arrived(performance.now()),
});
const firstRequest = () => new Promise((resolve) => (arrived = (t) => { arrived = () => undefined; resolve(t); }));
const loadBefore = os.loadavg();
try {
  const parent = (await rig.sessions.create('default')).key;
  const spawnMs = [];
  const chatMs = [];
  for (let i = 0; i < RUNS + WARM; i++) {
    // A person's new chat.
    let seen = firstRequest();
    let t0 = performance.now();
    const s = await rig.sessions.create('default');
    const turn = rig.chat.turn({ sessionKey: s.key, agentId: 'default', text: `question ${i}`, signal: new AbortController().signal });
    const chat = (await seen) - t0;
    await turn;
    // A subagent with the same question.
    seen = firstRequest();
    t0 = performance.now();
    const child = await rig.manager.spawn({ parentSessionKey: parent, callerAgentId: 'default', callerDepth: 0, task: `question ${i}`, mode: 'spawn' });
    const spawn = (await seen) - t0;
    await rig.manager.settled(child.id);
    rig.manager.inbox(parent);
    if (i >= WARM) {
      chatMs.push(chat);
      spawnMs.push(spawn);
    }
  }
  const value = median(spawnMs);
  const ref = median(chatMs);
  record({
    name: 'subagent-spawn-overhead', unit: 'ms', value, reference: 'new chat (session + turn) to its first model request', referenceValue: ref,
    goal: 'ratio <= 1.2', pass: value / ref <= 1.2, runs: RUNS, statistic: 'median', loadBefore,
    corpus: 'in-process ChatService + SubagentManager, workspace database (sql.js worker, journal), loopback Chat Completions server, real openai SDK',
    extra: { scheduling: schedulingPolicy() },
  });
} finally {
  await rig.close();
}
