// A team on the real subagent machinery: the subagent rig (loopback model server, real chat service,
// sessions and exec), a board in its own real workspace database, the team service with members run
// as children of the lead's session, and the team tools registered in the runtime. The model script
// tells members apart by their activation text ("You are ann, …") and reviewers by their prompt.
import { Database } from '../../../src/core/storage/database';
import { boardCall } from '../../../src/core/teams/board-person';
import type { PersonAction, PersonTask } from '../../../src/core/teams/board-protocol';
import { TEAM_MIGRATIONS } from '../../../src/core/teams/board-schema';
import { subagentMemberRuns } from '../../../src/core/teams/member-runs';
import { gatePorts } from '../../../src/core/teams/quality-gates';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { parseTeamFile, type TeamDefinition } from '../../../src/core/teams/team-definition';
import { createTeamMessageTool } from '../../../src/core/teams/team-message-tool';
import { TeamService, type AskUser } from '../../../src/core/teams/team-service';
import { createTeamTasksTool } from '../../../src/core/teams/team-tasks-tool';
import type { ToolResult } from '../../../src/core/tools/types';
import type { Tool } from '../../../src/core/tools/types';
import type { ScriptRequest, ScriptStep } from '../../support/model-script';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { rigPerTest, type Rig } from '../subagents/subagent-rig';

export const AGENT_FILES: Record<string, string> = {
  'ann.md': '---\ndescription: Backend developer\n---\nYou write server code.',
  'bob.md': '---\ndescription: Frontend developer\n---\nYou write UI code.',
  'rev.md': '---\ndescription: Code reviewer\n---\nYou review results.',
};

export const TEAM_FILE = '---\nname: Web\nlead: default\nmembers:\n  - agent: ann\n    description: builds the API\n  - bob\n---\nShip small tasks.';

export interface TeamRigOptions {
  /** The team file's text (default TEAM_FILE). */
  team?: string;
  /** A member's steps by its name (from "You are <name>,"), its activation text and its request count. */
  member?: (name: string, task: string, req: ScriptRequest, n: number) => ScriptStep;
  /** A reviewer's steps by its request count. */
  reviewer?: (req: ScriptRequest, n: number) => ScriptStep;
  lead?: (req: ScriptRequest, n: number) => ScriptStep;
  askUser?: AskUser;
  extraTools?: Tool[];
  /** false: no chat session was started for the team yet (default: the lead's session was). */
  leadSession?: boolean;
}

export interface TeamRig {
  r: Rig;
  svc: TeamService;
  board: SqlBoardStore;
  team: TeamDefinition;
  lead: string;
  /** Calls a team tool as the lead of session `lead`, through the runtime's pipeline. */
  asLead(tool: 'team_tasks' | 'team_message', args: Record<string, unknown>): Promise<ToolResult>;
  /** A Team Board button on team `teamId` (default web): the person's team_tasks call on the palette channel, through the pipeline. */
  asPerson(m: PersonAction | PersonTask, teamId?: string): Promise<ToolResult>;
}

export function teamRigs(): { start: (opts: TeamRigOptions) => Promise<TeamRig> } {
  const rigs = rigPerTest();
  const open: { db: Database; svc: TeamService }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      o.svc.dispose();
      await o.db.close();
    }
  });
  return {
    async start(opts) {
      const box: { svc?: TeamService } = {};
      let reviews = 0;
      const r = await rigs.start({
        agentFiles: AGENT_FILES,
        extraTools: [createTeamTasksTool(() => box.svc, () => gates) as Tool, createTeamMessageTool(() => box.svc) as Tool, ...(opts.extraTools ?? [])],
        roles: {
          ...(opts.lead ? { parent: opts.lead } : {}),
          child: (task, req, n) => {
            if (task.startsWith('Review the result')) return opts.reviewer ? opts.reviewer(req, reviews++) : { parts: [{ kind: 'text', text: 'APPROVED' }] };
            const name = /^You are ([a-z0-9_-]+),/.exec(task)?.[1] ?? '?';
            return opts.member ? opts.member(name, task, req, n) : { parts: [{ kind: 'text', text: `${name} idle` }] };
          },
        },
      });
      const gates = gatePorts(() => r.x.rt.registry, () => r.manager);
      const db = await Database.open({ dir: tempDir('team-board'), workerPath: STORAGE_WORKER, migrations: TEAM_MIGRATIONS });
      const board = new SqlBoardStore(db);
      const team = parseTeamFile('/ws/.pincer/teams/web.md', opts.team ?? TEAM_FILE).team!;
      const svc = new TeamService({
        board: async () => board, teams: () => [team], agents: () => r.agents.all(), runs: subagentMemberRuns(r.manager), clock: r.clock,
        sweepEveryMs: 0, ...(opts.askUser ? { askUser: opts.askUser } : {}),
      });
      box.svc = svc;
      open.push({ db, svc });
      const lead = await r.session();
      // The lead's session was started for the team (as Pincer: Pick Team… does).
      if (opts.leadSession !== false) await svc.bindLead(lead, team.id);
      const ctx = r.x.rt.context({ channel: 'chat', sessionKey: lead, agentId: 'default' });
      const person = r.x.rt.context({ channel: 'palette', sessionKey: 'palette:board', agentId: 'default' });
      return {
        r, svc, board, team, lead, asLead: (tool, args) => r.x.rt.registry.execute(tool, args, ctx),
        asPerson: (m, teamId = team.id) => r.x.rt.registry.execute('team_tasks', boardCall(teamId, m), person),
      };
    },
  };
}

/** The task id a member's activation text names ("Task #3 …"). */
export function taskIdIn(task: string): number {
  return Number(/Task #(\d+)/.exec(task)?.[1] ?? NaN);
}

/** Resolves once the async `cond` holds (checked every 20 ms; the test's timeout bounds it). */
export async function eventually(cond: () => Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
}
