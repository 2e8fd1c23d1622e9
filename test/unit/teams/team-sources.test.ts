// Where a window's teams come from (the workspace's `.pincer/teams/*.md` and the `pincer.teams`
// setting, every problem named) and which team a chat session leads: TEAM.md goes to a lead's
// prompt only, in the session the person started for that team (Pincer: Pick Team…).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { systemClock } from '../../../src/core/clock';
import type { MemberRuns } from '../../../src/core/teams/member-runs';
import { TeamService } from '../../../src/core/teams/team-service';
import { readTeams } from '../../../src/core/teams/team-sources';
import { removeTempDirs, tempDir } from '../../support/storage-fixtures';
import { TEAM_FILE } from './team-rig';

/** No member ever runs in these tests: only who leads what is asked. */
const noRuns: MemberRuns = {
  start: () => Promise.reject(new Error('no member runs here')), live: () => new Set(), cancel: () => undefined, onEnded: () => ({ dispose: () => undefined }),
};

describe('teams: definitions in a workspace, and who leads', () => {
  after(removeTempDirs);

  it('reads .pincer/teams/*.md and pincer.teams together: a file wins over a setting of the same id; each problem is named', () => {
    const ws = tempDir('teams-ws');
    const dir = path.join(ws, '.pincer', 'teams');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'web.md'), TEAM_FILE);
    fs.writeFileSync(path.join(dir, 'broken.md'), '---\nlead: default\n---\nNo members.');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a team');
    const r = readTeams(ws, {
      web: { lead: 'other', members: ['x'] },
      ops: { name: 'Operations', lead: 'default', members: [{ agent: 'sre', description: 'on call' }] },
      bad: { lead: 'Not An Id', members: ['a'] },
    });
    assert.deepEqual(r.teams.map((t) => [t.id, t.name, t.lead, t.source]), [['ops', 'Operations', 'default', 'settings'], ['web', 'Web', 'default', 'workspace']]);
    assert.equal(r.problems.length, 2);
    assert.match(r.problems[0]!, /^pincer\.teams\.bad: field lead: an agent id/);
    assert.match(r.problems[1]!, /broken\.md: field members: /);
  });

  it('no folder, no teams folder, no setting: no teams and no problems', () => {
    assert.deepEqual(readTeams(undefined, undefined), { teams: [], problems: [] });
    assert.deepEqual(readTeams(tempDir('empty-ws'), {}), { teams: [], problems: [] });
    assert.deepEqual(readTeams(undefined, ['web']).problems, ['pincer.teams must be an object of team id → { lead, members, … }']);
  });

  it('a lead leads only in the session started for its team (even one leading a single team); every other session of it, and a member\'s, leads none', () => {
    const { teams } = readTeams(undefined, {
      web: { lead: 'default', members: ['ann'] }, docs: { lead: 'default', members: ['bob'] }, ops: { lead: 'sre', members: ['ann'] },
    });
    const svc = new TeamService({ board: async () => undefined, teams: () => teams, agents: () => [], runs: noRuns, clock: systemClock, sweepEveryMs: 0 });
    try {
      const as = (sessionKey: string, agentId = 'default') => ({ sessionKey, agentId, subagentDepth: 0 }) as Parameters<TeamService['identify']>[0];
      assert.equal(svc.leadTeam('s1', 'default'), undefined, 'no session was started for a team yet');
      assert.equal(svc.leadTeam('s2', 'sre'), undefined, 'an agent that leads exactly one team is an ordinary agent in a session not started for it');
      assert.match(svc.identify(as('s2', 'sre')) as string, /^This chat session was not started for a team, so sre leads none here \(it leads ops\): the person starts a team's session with Pincer: Pick Team…\.$/);
      svc.bindLead('s1', 'docs');
      assert.equal(svc.leadTeam('s1', 'default')?.id, 'docs');
      assert.equal(svc.leadTeam('s1', 'ann'), undefined, 'another agent in that session leads nothing');
      assert.equal(svc.leadTeam('s9', 'default'), undefined, 'a new session of the same agent leads nothing');
      svc.bindLead('s3', 'ops');
      assert.equal(svc.leadTeam('s3', 'default'), undefined, 'a session of a team the agent does not lead');
      assert.equal(svc.leadSession('docs'), 's1');
      assert.equal(svc.leadSession('web'), undefined);
      const caller = svc.identify(as('s1'));
      assert.ok(typeof caller !== 'string' && caller.team.id === 'docs' && caller.role === 'lead', 'the tools see the same team as the prompt');
      assert.equal(typeof svc.identify({ ...as('s1'), subagentDepth: 1 }), 'string', 'a subagent of the lead\'s session is not the lead');
    } finally {
      svc.dispose();
    }
  });
});
