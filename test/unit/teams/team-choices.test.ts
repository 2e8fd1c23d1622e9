// The chat's agent picker offers the teams beside the agents: a team's entry names its lead and
// members, a team whose lead is not an agent is left out, and an entry is a team's only by its prefix.
import assert from 'node:assert/strict';
import { parseSettingsTeams } from '../../../src/core/teams/team-definition';
import { pickerChoices, teamChoiceId, teamOfChoice } from '../../../src/core/teams/team-choices';

describe('teams: the chat agent picker', () => {
  const agents = [{ id: 'default', name: 'Pincer' }, { id: 'ann', name: 'Ann', description: 'writes the API' }, { id: 'bob', name: 'bob' }];

  it('lists the agents first, then each team whose lead is an agent, with lead and members', () => {
    const { teams, errors } = parseSettingsTeams({
      web: { name: 'Web team', lead: 'default', members: ['ann', { agent: 'bob', description: 'UI' }] },
      ops: { lead: 'ghost', members: ['ann'] },
      solo: { lead: 'ann', members: ['bob'] },
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(pickerChoices(agents, teams), [
      ...agents,
      { id: 'team:web', name: 'Team: Web team', description: 'lead default; members ann, bob' },
      { id: 'team:solo', name: 'Team: solo', description: 'lead ann; members bob' },
    ]);
  });

  it('without teams the list is the agents alone', () => {
    assert.deepEqual(pickerChoices(agents, []), agents);
  });

  it('a team entry is told from an agent id by its prefix, which no agent id can carry', () => {
    assert.equal(teamChoiceId('web'), 'team:web');
    assert.equal(teamOfChoice('team:web'), 'web');
    assert.equal(teamOfChoice('web'), undefined);
    assert.equal(teamOfChoice('team:'), undefined, 'a prefix alone names no team');
    assert.equal(teamOfChoice('default'), undefined);
    assert.equal(teamOfChoice('teamweb'), undefined);
  });
});
