// Team definitions from files and settings, each problem named; TEAM.md generated deterministically
// for the lead (members with their descriptions, the board's rules, the gates, the instructions).
import assert from 'node:assert/strict';
import { mergeTeams, parseSettingsTeams, parseTeamFile } from '../../../src/core/teams/team-definition';
import { memberActivation, teamMd } from '../../../src/core/teams/team-prompt';

const FILE = '/ws/.pincer/teams/web.md';

describe('teams: definitions and TEAM.md', () => {
  it('reads a team file: members with or without descriptions, gates with defaults, the body as instructions', () => {
    const r = parseTeamFile(FILE, '---\nname: Web team\nlead: lead\nmembers:\n  - agent: ann\n    description: API\n  - bob\ngates:\n  - command: npm test\n  - agent: rev\n    block_on_failure: false\n---\nKeep PRs small.\n');
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.team, {
      id: 'web', name: 'Web team', lead: 'lead', members: [{ agent: 'ann', description: 'API' }, { agent: 'bob' }],
      gates: [
        { name: 'npm test', kind: 'command', command: 'npm test', blockOnFailure: true, maxRetries: 2 },
        { name: 'reviewer rev', kind: 'agent', agent: 'rev', blockOnFailure: false, maxRetries: 2 },
      ],
      instructions: 'Keep PRs small.', source: 'workspace', file: FILE,
    });
  });

  it('names each problem: the lead as a member, a member twice, a gate with both kinds, no front matter, broken YAML, a bad id', () => {
    const err = (text: string, file = FILE) => parseTeamFile(file, text).errors.join(' | ');
    assert.match(err('---\nlead: a\nmembers: [a, b]\n---\n'), /a is the lead; list only the other agents under members/);
    assert.match(err('---\nlead: a\nmembers: [b, b]\n---\n'), /member b is listed twice/);
    assert.match(err('---\nlead: a\nmembers: [b]\ngates:\n  - command: x\n    agent: c\n---\n'), /field gates\.0: a gate has either `command` or `agent`/);
    assert.match(err('just text'), /needs front matter with lead and members/);
    assert.match(err('---\nlead: [a\n---\n'), /not valid YAML at line \d/);
    assert.match(err('---\nlead: A!\nmembers: [b]\n---\n'), /field lead: an agent id/);
    assert.match(err('---\nlead: a\nmembers: []\n---\n'), /field members/);
    assert.match(err('---\nlead: a\nmembers: [b]\nextra: 1\n---\n'), /Unrecognized key/);
    assert.match(err('---\nlead: a\nmembers: [b]\n---\n', '/ws/.pincer/teams/Bad Name.md'), /not a valid team id/);
  });

  it('pincer.teams: each entry checked on its own; a workspace file wins over a setting of the same id', () => {
    const s = parseSettingsTeams({ web: { lead: 'x', members: ['y'], instructions: 'from settings' }, ops: { lead: 'x' } });
    assert.deepEqual(s.teams.map((t) => [t.id, t.source, t.instructions]), [['web', 'settings', 'from settings']]);
    assert.match(s.errors.join(), /pincer\.teams\.ops: field members/);
    assert.match(parseSettingsTeams([1]).errors[0]!, /must be an object/);
    const file = parseTeamFile(FILE, '---\nlead: a\nmembers: [b]\n---\n').team!;
    assert.deepEqual(mergeTeams([file], s.teams).map((t) => [t.id, t.source]), [['web', 'workspace']]);
  });

  it('TEAM.md is the same text for the same team, lists members (own description, else the agent\'s) and gates', () => {
    const team = parseTeamFile(FILE, '---\nname: Web\nlead: lead\nmembers:\n  - agent: ann\n    description: builds the API\n  - bob\n  - cy\ngates:\n  - command: npm test\n    max_retries: 1\n---\nShip it.').team!;
    const describe = (a: string) => (a === 'bob' ? 'Frontend developer' : undefined);
    const md = teamMd(team, describe);
    assert.equal(md, teamMd(team, describe));
    assert.match(md, /^# TEAM\.md — team Web \(web\)\n\nYou are lead, the lead of this team\./);
    assert.match(md, /## Members\n- \*\*ann\*\* — builds the API\n- \*\*bob\*\* — Frontend developer\n- \*\*cy\*\* — no description\n/);
    assert.match(md, /## Quality gates .*\n- npm test \(command `npm test`, exit 0 passes; a failure sends the task back, at most 1 times\)/);
    assert.match(md, /## Team instructions\nShip it\.\n$/);
    assert.match(memberActivation(team, 'ann', 'Task #4 is yours.'), /^You are ann, a member of team Web \(web\); lead leads it\.\n\nTask #4 is yours\.\n\nWork through the board/);
  });
});
