// `pincer team`: a workspace's teams and their board from the command line — the teams defined
// (`.pincer/teams/*.md` and pincer.teams, each problem named), one team's board in the Team Board's
// columns, and one task with its audit trail. It only reads: the board changes through the team tools
// and the Team Board, where the team's lead and members run. The board is the workspace database's
// (the same --state DIR as `pincer run`); a team store on a server is the editor's setting.
import fs from 'node:fs';
import path from 'node:path';
import { settingsLookup } from '../core/config';
import { PincerRuntime } from '../core/runtime';
import { taskDetail, taskLine } from '../core/teams/board-format';
import { BOARD_COLUMNS } from '../core/teams/board-protocol';
import type { BoardTask } from '../core/teams/board-types';
import { SqlBoardStore } from '../core/teams/sql-board-store';
import type { TeamDefinition } from '../core/teams/team-definition';
import { readTeams } from '../core/teams/team-sources';
import { loadCliConfig, readJsonc } from './cli-config';
import { CliStore, defaultStateDir } from './cli-state';
import type { Values } from './main';
import { UsageError } from './usage-error';

const ACTIONS = ['list', 'board', 'task'] as const;

/** The pincer.teams setting: --config's, else the workspace's .vscode/settings.json. */
function teamsSetting(workspace: string, configFile: string | undefined): unknown {
  if (configFile && !fs.existsSync(configFile)) throw new UsageError(`--config ${configFile}: no such file.`);
  const files = [configFile, path.join(workspace, '.vscode', 'settings.json')].filter((f): f is string => !!f && fs.existsSync(f));
  for (const f of files) {
    const v = settingsLookup(readJsonc(f))('teams');
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A team as --json prints it (the shape may grow, never change). */
function teamJson(t: TeamDefinition) {
  return {
    id: t.id, name: t.name, lead: t.lead, members: t.members, source: t.source, ...(t.file ? { file: t.file } : {}),
    gates: t.gates.map((g) => ({ name: g.name, kind: g.kind, ...(g.command !== undefined ? { command: g.command } : {}), ...(g.agent !== undefined ? { agent: g.agent } : {}), blockOnFailure: g.blockOnFailure, maxRetries: g.maxRetries })),
  };
}

export async function team(values: Values, positionals: string[]): Promise<number> {
  const [action, teamId, idText, ...extra] = positionals;
  if (!action || !ACTIONS.includes(action as (typeof ACTIONS)[number])) throw new UsageError(`pincer team needs an action: ${ACTIONS.join(', ')} (pincer --help).`);
  if (action === 'list' && teamId !== undefined) throw new UsageError('pincer team list takes no arguments.');
  if (action === 'board' && (!teamId || idText !== undefined)) throw new UsageError('pincer team board needs one team id: pincer team board <team>.');
  const id = Number(idText);
  if (action === 'task' && (!teamId || !Number.isInteger(id) || id < 1 || extra.length)) throw new UsageError('pincer team task needs a team id and a task number: pincer team task <team> <n>.');
  const workspace = values.workspace ? path.resolve(values.workspace) : undefined;
  if (workspace && !fs.existsSync(workspace)) throw new UsageError(`--workspace ${workspace}: no such directory.`);
  const root = fs.realpathSync(workspace ?? process.cwd());
  const { teams, problems } = readTeams(root, teamsSetting(root, values.config));
  const out = (json: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  const refuse = (message: string) => {
    if (values.json) process.stdout.write(`${JSON.stringify({ error: message }, null, 2)}\n`);
    else process.stderr.write(`${message}\n`);
    return 1;
  };
  if (action === 'list') {
    out({ teams: teams.map(teamJson), problems }, [
      ...(teams.length ? teams.map((t) => `${t.id}\t${t.name}\tlead ${t.lead}\tmembers ${t.members.map((m) => m.agent).join(', ')}${t.gates.length ? `\tgates ${t.gates.map((g) => g.name).join(', ')}` : ''}`) : ['No team is defined (.pincer/teams/<id>.md or the pincer.teams setting).']),
      ...problems.map((p) => `problem: ${p}`),
    ].join('\n'));
    return 0;
  }
  const def = teams.find((t) => t.id === teamId);
  if (!def) return refuse(`There is no team ${teamId}${teams.length ? `: the teams are ${teams.map((t) => t.id).join(', ')}` : ' (no team is defined)'}.`);
  const warn = (m: string) => process.stderr.write(`pincer: warning: ${m}\n`);
  const store = new CliStore(values.state ? path.resolve(values.state) : defaultStateDir(root), new PincerRuntime({ config: loadCliConfig(workspace, values.config, warn), warn }), warn);
  try {
    const db = await store.database();
    if (!db) return refuse(`The workspace database in ${store.dir} could not be opened, so there is no board.`);
    const board = new SqlBoardStore(db);
    if (action === 'board') return showBoard(def, await board.list(def.id, 'all', 'priority'), out);
    const task = await board.get(def.id, id);
    if (!task) return refuse(`There is no task #${id} on team ${def.id}.`);
    const events = await board.events(def.id, { taskId: id, limit: 200 });
    out({ task, events }, taskDetail(task, events));
    return 0;
  } finally {
    await store.close();
  }
}

/** The Team Board's columns, in order, each with its tasks (priority first). */
function showBoard(def: TeamDefinition, tasks: readonly BoardTask[], out: (json: unknown, text: string) => void): number {
  const columns = BOARD_COLUMNS.map((c) => ({ id: c.id, title: c.title, tasks: tasks.filter((t) => c.statuses.includes(t.status)) }));
  out({ team: teamJson(def), columns }, [
    `Team ${def.name} (${def.id}), lead ${def.lead}`,
    ...columns.map((c) => [`\n${c.title} (${c.tasks.length})`, ...c.tasks.map((t) => `  ${taskLine(t)}`)].join('\n')),
  ].join('\n'));
  return 0;
}
