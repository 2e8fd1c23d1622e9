// The Team Board's protocol: the messages the page may send (checked with zod before the host acts
// on them: the page is a webview, its messages are data) and what the host sends it (a snapshot of
// the team's board, an action's answer). The page and the host share these types; nothing here needs
// Node, so the page's type check can follow it.
import { z } from 'zod';
import type { BoardEvent, BoardTask, TaskStatus, TeamMessage } from './board-types';
import type { OpenQuestion } from './open-questions';

export const BOARD_COLUMNS: readonly { id: string; title: string; statuses: readonly TaskStatus[] }[] = [
  { id: 'pending', title: 'Pending', statuses: ['pending'] },
  { id: 'in_progress', title: 'In progress', statuses: ['in_progress'] },
  { id: 'in_review', title: 'In review', statuses: ['in_review'] },
  { id: 'done', title: 'Done', statuses: ['completed'] },
  { id: 'failed', title: 'Failed', statuses: ['failed', 'cancelled'] },
];

export const PERSON_ACTIONS = ['cancel', 'retry', 'approve', 'reject', 'assign'] as const;
export type PersonActionName = (typeof PERSON_ACTIONS)[number];

export const fromBoardPage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('pick-team'), team: z.string().min(1).max(64) }).strict(),
  z.object({ type: z.literal('create'), subject: z.string().trim().min(1).max(200), description: z.string().max(20_000).optional() }).strict(),
  z.object({
    type: z.literal('action'), action: z.enum(PERSON_ACTIONS), id: z.number().int().min(1),
    assignee: z.string().min(1).max(64).optional(), text: z.string().max(20_000).optional(),
  }).strict(),
  z.object({ type: z.literal('answer'), id: z.number().int().min(1), text: z.string().trim().min(1).max(20_000) }).strict(),
]);
export type FromBoardPage = z.infer<typeof fromBoardPage>;
export type PersonAction = Extract<FromBoardPage, { type: 'action' }>;
export type PersonTask = Extract<FromBoardPage, { type: 'create' }>;

export interface BoardSnapshot {
  /** The columns, in order, with the statuses each shows (the page draws what it is sent). */
  columns: typeof BOARD_COLUMNS;
  teams: { id: string; name: string }[];
  /** The team shown; undefined when no team is defined. */
  team?: { id: string; name: string; lead: string; members: string[] };
  tasks: BoardTask[];
  /** Newest first. */
  events: BoardEvent[];
  /** Messages waiting unread for the lead. */
  leadUnread: number;
  /** The mailbox: the team's latest messages between the lead, members and the person, oldest first (unread ones say so). */
  messages: TeamMessage[];
  /** ask_user questions waiting for the person, oldest first (answered on the board or in the editor's prompt). */
  questions: OpenQuestion[];
  /** Definitions that could not be read, with file and field. */
  problems: string[];
}

export type ToBoardPage =
  | { type: 'snapshot'; snapshot: BoardSnapshot }
  | { type: 'result'; ok: boolean; text: string };
