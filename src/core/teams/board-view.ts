// What the Team Board shows: the snapshot the host sends (the team's tasks, the audit trail, the
// mailbox and the lead's unread mail count) and the page's HTML with a strict Content-Security-Policy.
import { chatCsp } from '../chat/chat-html';
import { BOARD_COLUMNS, type BoardSnapshot } from './board-protocol';
import type { BoardStore } from './board-types';
import type { OpenQuestion } from './open-questions';
import type { TeamDefinition } from './team-definition';

/**
 * The board of `team` as the page shows it (every task, the latest 100 events and messages). Without a board, or
 * when reading it fails (a shared server gone offline), the page shows why instead of the tasks.
 */
export async function boardSnapshot(board: BoardStore | undefined, teams: readonly TeamDefinition[], shown: string | undefined, problems: readonly string[],
  noBoard = 'The workspace database could not be opened, so there is no board.', questions: (teamId: string) => readonly OpenQuestion[] = () => []): Promise<BoardSnapshot> {
  const team = teams.find((t) => t.id === shown) ?? teams[0];
  const base = { columns: BOARD_COLUMNS, teams: teams.map((t) => ({ id: t.id, name: t.name })), tasks: [], events: [], leadUnread: 0, messages: [], questions: [], problems: [...problems] };
  if (!team) return base;
  const info = { id: team.id, name: team.name, lead: team.lead, members: team.members.map((m) => m.agent) };
  if (!board) return { ...base, team: info, problems: [...problems, noBoard] };
  try {
    const [tasks, events, leadUnread, messages] = await Promise.all([
      board.list(team.id, 'all', 'priority'), board.events(team.id, { limit: 100 }), board.unreadCount(team.id, team.lead), board.messages(team.id, 100),
    ]);
    return { ...base, team: info, tasks, events: [...events].sort((a, b) => b.id - a.id), leadUnread, messages, questions: [...questions(team.id)] };
  } catch (e) {
    return { ...base, team: info, problems: [...problems, (e as Error).message] };
  }
}

export interface BoardPageUris {
  cspSource: string;
  nonce: string;
  script: string;
  style: string;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The board page: the chat page's policy (nonce scripts, styles from the extension only, nothing else). */
export function boardHtml(u: BoardPageUris): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(u.cspSource, u.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(u.style)}">
<title>Team Board</title></head>
<body><main id="app" aria-live="polite"></main>
<script nonce="${attr(u.nonce)}" src="${attr(u.script)}"></script>
</body></html>`;
}
