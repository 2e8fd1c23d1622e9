// Team definitions: a workspace file `.pincer/teams/<id>.md` (YAML front matter: name, lead,
// members with optional descriptions, optional quality gates; the markdown under it is the team's
// instructions for its lead) or the `pincer.teams` setting (id → the same fields). Every problem names
// the file or setting and the field, so the person can fix it without the docs.
//
// Decisions:
// - The id is the file name (as for agents); members and the lead are agent ids. Whether those agents
//   exist is checked when the team is used (agents may be defined after the team).
// - A member listed twice, or the lead listed as a member, is an error: the board names people by
//   these ids, so each must stand for one role.
import { z } from 'zod';
import { AGENT_ID_PATTERN, idProblem } from '../agents/agent-fields';
import { agentIdFromFile, readFrontMatter } from '../agents/agent-file';
import type { GateDefinition } from './board-types';

export type { GateDefinition };

export interface TeamMember {
  agent: string;
  description?: string;
}

export interface TeamDefinition {
  id: string;
  name: string;
  lead: string;
  members: TeamMember[];
  gates: GateDefinition[];
  instructions?: string;
  source: 'workspace' | 'settings';
  file?: string;
}

export interface TeamParseResult {
  team?: TeamDefinition;
  errors: string[];
}

const agentId = z.string().regex(AGENT_ID_PATTERN, 'an agent id (lower-case letters, digits, - and _)');
/** One gate as written (a team file, the setting, or a task's `gates`): snake_case, defaults filled. */
export const gateInput = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  command: z.string().trim().min(1).max(4000).optional(),
  agent: agentId.optional(),
  block_on_failure: z.boolean().default(true),
  max_retries: z.number().int().min(0).max(10).default(2),
}).strict().refine((g) => (g.command === undefined) !== (g.agent === undefined), 'a gate has either `command` or `agent`, not both or neither');

const fields = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  lead: agentId,
  members: z.array(z.union([agentId, z.object({ agent: agentId, description: z.string().trim().min(1).max(2000).optional() }).strict()])).min(1).max(32),
  gates: z.array(gateInput).max(10).default([]),
  instructions: z.string().max(64_000).optional(),
}).strict();

export function gateFromInput(g: z.infer<typeof gateInput>): GateDefinition {
  return {
    name: g.name ?? (g.command ?? `reviewer ${g.agent}`), kind: g.command !== undefined ? 'command' : 'agent',
    ...(g.command !== undefined ? { command: g.command } : { agent: g.agent! }), blockOnFailure: g.block_on_failure, maxRetries: g.max_retries,
  };
}

function build(id: string, raw: unknown, where: string, extra: Pick<TeamDefinition, 'source' | 'file' | 'instructions'>): TeamParseResult {
  const bad = idProblem(id);
  if (bad) return { errors: [`${where}: ${bad.replace('agent id', 'team id')}`] };
  const parsed = fields.safeParse(raw);
  if (!parsed.success) {
    return { errors: parsed.error.issues.map((i) => `${where}: ${i.path.length ? `field ${i.path.join('.')}` : 'the definition'}: ${i.message}`) };
  }
  const f = parsed.data;
  const members = f.members.map((m) => (typeof m === 'string' ? { agent: m } : m));
  const seen = new Set<string>();
  for (const m of members) {
    if (m.agent === f.lead) return { errors: [`${where}: ${m.agent} is the lead; list only the other agents under members`] };
    if (seen.has(m.agent)) return { errors: [`${where}: member ${m.agent} is listed twice`] };
    seen.add(m.agent);
  }
  const gates = f.gates.map(gateFromInput);
  const instructions = extra.instructions ?? f.instructions;
  return {
    team: { id, name: f.name ?? id, lead: f.lead, members, gates, ...(instructions?.trim() ? { instructions: instructions.trim() } : {}), source: extra.source, ...(extra.file ? { file: extra.file } : {}) },
    errors: [],
  };
}

/** One `.pincer/teams/<id>.md` file. */
export function parseTeamFile(file: string, text: string): TeamParseResult {
  const front = readFrontMatter(text);
  if (typeof front === 'string') return { errors: [`${file}: ${front}`] };
  if (!front.raw) return { errors: [`${file}: a team file needs front matter with lead and members (between "---" lines)`] };
  return build(agentIdFromFile(file), front.raw, file, { source: 'workspace', file, instructions: front.body });
}

/** The `pincer.teams` setting: an object of team id → fields (instructions as a field). */
export function parseSettingsTeams(value: unknown): { teams: TeamDefinition[]; errors: string[] } {
  if (value === undefined || value === null) return { teams: [], errors: [] };
  if (typeof value !== 'object' || Array.isArray(value)) return { teams: [], errors: ['pincer.teams must be an object of team id → { lead, members, … }'] };
  const out = { teams: [] as TeamDefinition[], errors: [] as string[] };
  for (const [id, raw] of Object.entries(value as Record<string, unknown>)) {
    const r = build(id, raw, `pincer.teams.${id}`, { source: 'settings' });
    if (r.team) out.teams.push(r.team);
    out.errors.push(...r.errors);
  }
  return out;
}

/** Workspace files win over settings of the same id. */
export function mergeTeams(files: readonly TeamDefinition[], settings: readonly TeamDefinition[]): TeamDefinition[] {
  const byId = new Map<string, TeamDefinition>();
  for (const t of [...settings, ...files]) byId.set(t.id, t);
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}
