// The Team Board panel: a webview (dist/webview/team-board.js) that shows one team's board and follows
// every change (the watched store announces them); a person's actions arrive as messages, are checked
// against the board protocol and become the person's own team_tasks calls through the one pipeline
// (policy, tool log, rate limit: board-person.ts says what the person may do), and the answer is shown.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { BoardSnapshot, ToBoardPage } from '../../core/teams/board-protocol';
import type { TeamsHost } from './teams-host';

/**
 * The board's page protocol (its zod schemas), view and person's calls, required when a board first
 * opens: the runtime's load (and with it a window's first tool call) does not build them. Literal paths,
 * so that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const board = {
  person: () => require('../../core/teams/board-person') as typeof import('../../core/teams/board-person'),
  protocol: () => require('../../core/teams/board-protocol') as typeof import('../../core/teams/board-protocol'),
  view: () => require('../../core/teams/board-view') as typeof import('../../core/teams/board-view'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export class TeamBoardPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: string | undefined;
  /** The refresh in flight, and whether another change came during it. */
  private refreshing: Promise<void> | undefined;
  private again = false;
  /** The last snapshot sent to the page (tests read it). */
  last: BoardSnapshot | undefined;
  /** The answer to the last action from the page (tests read it). */
  lastResult: { ok: boolean; text: string } | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly teams: TeamsHost) {}

  /** Opens (or shows) the board of `teamId`, else of the team picked last (remembered across reloads), else of the first. */
  async open(teamId?: string): Promise<void> {
    if (teamId !== undefined && this.teams.teams().some((t) => t.id === teamId)) await this.teams.remember(teamId);
    this.shown = teamId ?? this.shown ?? this.teams.picked();
    if (this.panel) {
      this.panel.reveal();
      await this.refresh();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel('pincer.teamBoard', 'Team Board', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [dist] });
    this.panel = panel;
    const w = panel.webview;
    w.html = board.view().boardHtml({
      cspSource: w.cspSource, nonce: randomBytes(18).toString('base64'),
      script: w.asWebviewUri(vscode.Uri.joinPath(dist, 'team-board.js')).toString(), style: w.asWebviewUri(vscode.Uri.joinPath(dist, 'team-board.css')).toString(),
    });
    const subs = [
      w.onDidReceiveMessage((m: unknown) => void this.handle(m)),
      this.teams.onBoardChange((team) => (team === (this.last?.team?.id ?? this.shown) ? void this.refresh() : undefined)),
    ];
    panel.onDidDispose(() => {
      subs.forEach((s) => s.dispose());
      this.panel = undefined;
      // Opened again, it shows the team picked last, as after a reload.
      this.shown = undefined;
    });
  }

  /** Handles a message from the page (anything that fails the protocol is dropped). */
  async handle(raw: unknown): Promise<void> {
    const parsed = board.protocol().fromBoardPage.safeParse(raw);
    if (!parsed.success) return;
    const m = parsed.data;
    if (m.type === 'pick-team') {
      this.shown = m.team;
      if (this.teams.teams().some((t) => t.id === m.team)) await this.teams.remember(m.team);
    }
    if (m.type === 'answer') {
      const answered = this.teams.service()?.questions.answer(m.id, m.text) ?? false;
      this.lastResult = answered ? { ok: true, text: 'Answered.' } : { ok: false, text: 'That question is no longer open.' };
      this.post({ type: 'result', ...this.lastResult });
    }
    if (m.type === 'action' || m.type === 'create') {
      const team = this.last?.team?.id;
      const done = team ? this.teams.personTasks(board.person().boardCall(team, m)).then((r) => ({ ok: !r.isError, text: r.forLLM })) : undefined;
      this.lastResult = done ? await done.catch((e: unknown) => ({ ok: false, text: (e as Error).message })) : { ok: false, text: 'No team is defined.' };
      this.post({ type: 'result', ...this.lastResult });
    }
    await this.refresh();
  }

  /** Sends a fresh snapshot; changes that arrive meanwhile give one more, never one per change. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        const store = this.teams.storeProblem();
        this.last = await board.view().boardSnapshot(await this.teams.board(), this.teams.teams(), this.shown, [...this.teams.problems(), ...(store ? [store] : [])],
          store ? 'There is no board until the team store can be opened.' : undefined, (team) => this.teams.service()?.questions.list(team) ?? []);
        this.post({ type: 'snapshot', snapshot: this.last });
      } while (this.again);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private post(m: ToBoardPage): void {
    void this.panel?.webview.postMessage(m);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
