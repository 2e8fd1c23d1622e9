// Where a window's teams come from (the workspace's `.pincer/teams/*.md` and the `pincer.teams`
// setting, every problem named) and which team a chat session leads: TEAM.md goes to a lead's
// prompt only, in the session the person started for that team (Pincer: Pick Team…).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { SessionStore } from '../../../src/core/sessions/session-store';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlLeadBindings } from '../../../src/core/teams/lead-bindings';
import type { MemberRuns } from '../../../src/core/teams/member-runs';
import { TeamService } from '../../../src/core/teams/team-service';
import { readTeams } from '../../../src/core/teams/team-sources';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
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

  it('a lead leads only in the session started for its team (even one leading a single team); every other session of it, and a member\'s, leads none', async () => {
    const { teams } = readTeams(undefined, {
      web: { lead: 'default', members: ['ann'] }, docs: { lead: 'default', members: ['bob'] }, ops: { lead: 'sre', members: ['ann'] },
    });
    const svc = new TeamService({ board: async () => undefined, teams: () => teams, agents: () => [], runs: noRuns, clock: systemClock, sweepEveryMs: 0 });
    try {
      const as = (sessionKey: string, agentId = 'default') => ({ sessionKey, agentId, subagentDepth: 0 }) as Parameters<TeamService['identify']>[0];
      assert.equal(svc.leadTeam('s1', 'default'), undefined, 'no session was started for a team yet');
      assert.equal(svc.leadTeam('s2', 'sre'), undefined, 'an agent that leads exactly one team is an ordinary agent in a session not started for it');
      assert.match(await svc.identify(as('s2', 'sre')) as string, /^This chat session was not started for a team, so sre leads none here \(it leads ops\): the person starts a team's session with Pincer: Pick Team…\.$/);
      await svc.bindLead('s1', 'docs');
      assert.equal(svc.leadTeam('s1', 'default')?.id, 'docs');
      assert.equal(svc.leadTeam('s1', 'ann'), undefined, 'another agent in that session leads nothing');
      assert.equal(svc.leadTeam('s9', 'default'), undefined, 'a new session of the same agent leads nothing');
      await svc.bindLead('s3', 'ops');
      assert.equal(svc.leadTeam('s3', 'default'), undefined, 'a session of a team the agent does not lead');
      assert.equal(svc.leadSession('docs'), 's1');
      assert.equal(svc.leadSession('web'), undefined);
      const caller = await svc.identify(as('s1'));
      assert.ok(typeof caller !== 'string' && caller.team.id === 'docs' && caller.role === 'lead', 'the tools see the same team as the prompt');
      assert.equal(typeof await svc.identify({ ...as('s1'), subagentDepth: 1 }), 'string', 'a subagent of the lead\'s session is not the lead');
    } finally {
      svc.dispose();
    }
  });

  it('a session started for a team still leads it after the window reloads; deleting the chat deletes the binding', async () => {
    const { teams } = readTeams(undefined, { web: { lead: 'default', members: ['ann'] }, docs: { lead: 'default', members: ['bob'] } });
    const dir = tempDir('team-bindings');
    const open = () => Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
    const service = (db: Database) => new TeamService({
      board: async () => undefined, teams: () => teams, agents: () => [], runs: noRuns, clock: systemClock, sweepEveryMs: 0, bindings: new SqlLeadBindings(db),
    });
    const as = (sessionKey: string) => ({ sessionKey, agentId: 'default', subagentDepth: 0 }) as Parameters<TeamService['identify']>[0];

    // The first window: two sessions started for two teams, a third for web later (the last one leads it now).
    let db = await open();
    const sessions = new SessionStore(db);
    const [a, b, c, plain] = [await sessions.create('default'), await sessions.create('default'), await sessions.create('default'), await sessions.create('default')];
    let svc = service(db);
    await svc.bindLead(a.key, 'web');
    await svc.bindLead(b.key, 'docs');
    await svc.bindLead(c.key, 'web');
    svc.dispose();
    await db.close();

    // The window reloads: a new service over the reopened database knows every binding, asked at once.
    db = await open();
    svc = service(db);
    try {
      const caller = await svc.identify(as(a.key));
      assert.ok(typeof caller !== 'string' && caller.team.id === 'web' && caller.role === 'lead', 'the tools see the team straight after the reload');
      assert.equal(svc.leadTeam(b.key, 'default')?.id, 'docs', 'TEAM.md still goes to the lead of that session');
      assert.equal(svc.leadTeam(plain.key, 'default'), undefined, 'a session never started for a team still leads none');
      assert.match(await svc.identify(as(plain.key)) as string, /^This chat session was not started for a team/);
      assert.equal(svc.leadSession('web'), c.key, 'members start under the session that last led the team, as before the reload');

      // A session bound again moves to the end; a deleted chat takes its binding with it.
      await svc.bindLead(a.key, 'web');
      assert.equal(svc.leadSession('web'), a.key);
      await new SessionStore(db).delete(b.key);
      assert.deepEqual((await new SqlLeadBindings(db).all()).map((x) => [x.sessionKey, x.teamId]), [[c.key, 'web'], [a.key, 'web']]);
      await assert.rejects(new SqlLeadBindings(db).bind('agent:default:never-created', 'web', 1), /FOREIGN KEY/, 'a binding never names a session that does not exist');
    } finally {
      svc.dispose();
      await db.close();
    }
  });
});
