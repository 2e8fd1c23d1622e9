// Which board this window uses: the workspace database (the default), or a shared PostgreSQL server
// when the person's own settings name one (`pincer.teamStore.url`, read from user settings only: a
// workspace that could point the board elsewhere would also receive the stored password). The
// password comes from SecretStorage (Pincer: Set Team Store Password…), else the person's
// `pincer.teamStore.passwordCommand`, else PGPASSWORD / ~/.pgpass. A server that cannot be reached or
// refuses the login is told once, with the action that fixes it; while it is offline the board says so.
// Pincer: Move Team to Server… copies a team's workspace board to the server (move-team.ts), and
// Move Team Back to This Workspace the server's board here (move-team-back.ts).
import * as vscode from 'vscode';
import type { EmbeddingProvider } from '../../core/memory/embeddings';
import type { TeamMemory } from '../../core/memory/team-memory-router';
import type { BoardStore } from '../../core/teams/board-types';
import { watchBoard } from '../../core/teams/board-watch';
import type { PgConnection } from '../../core/teams/postgres/pg-connection';
import type { TeamStoreConnection } from '../../core/teams/postgres/team-store-settings';
import type { TeamDefinition } from '../../core/teams/team-definition';
import type { StorageHost } from '../storage-host';

/**
 * The boards' stores and the moves between them, each required when a board first opens or a team
 * first moves: a window's first tool call does not evaluate them (in the bundle a module reached only
 * through require() runs then). Literal paths, so that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const stores = {
  sql: () => require('../../core/teams/sql-board-store') as typeof import('../../core/teams/sql-board-store'),
  pgBoard: () => require('../../core/teams/postgres/pg-board-store') as typeof import('../../core/teams/postgres/pg-board-store'),
  pgConnection: () => require('../../core/teams/postgres/pg-connection') as typeof import('../../core/teams/postgres/pg-connection'),
  pgMemory: () => require('../../core/teams/postgres/pg-memory-store') as typeof import('../../core/teams/postgres/pg-memory-store'),
  pgContext: () => require('../../core/teams/postgres/pg-context-store') as typeof import('../../core/teams/postgres/pg-context-store'),
  moveToServer: () => require('../../core/teams/postgres/move-team') as typeof import('../../core/teams/postgres/move-team'),
  moveBack: () => require('../../core/teams/postgres/move-team-back') as typeof import('../../core/teams/postgres/move-team-back'),
  // The server settings' and password's readers (their zod schemas) too: only a store on a server needs them.
  settings: () => require('../../core/teams/postgres/team-store-settings') as typeof import('../../core/teams/postgres/team-store-settings'),
  password: () => require('../../core/teams/postgres/team-store-password') as typeof import('../../core/teams/postgres/team-store-password'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** An open board: its store, and its changes by team (undefined: any team may have changed). */
export interface OpenBoard {
  store: BoardStore;
  /** Where it lives, for messages: "this workspace" or host:port/database. */
  where: string;
  onChange(listener: (teamId: string | undefined) => void): { dispose(): void };
  /** On a server: a team's shared memory and context files there (opened once per team, on a connection of their own). */
  teamMemory?(teamId: string, embeddings: () => EmbeddingProvider | undefined): Promise<TeamMemory>;
  close(): Promise<void>;
}

export interface TeamStoreHost extends vscode.Disposable {
  /** The chosen board, opened once (again after a setting, the password or Retry changes it). */
  open(): Promise<OpenBoard | undefined>;
  /** Why there is no board, or that the server is offline; undefined when all is well. */
  problem(): string | undefined;
  /** The person's settings name a server (the board, and teams' shared memory, live there). */
  onServer(): boolean;
  /** true: the choice changed (settings, password, retry), open() opens anew; false: the server went offline or came back. */
  onDidChange: vscode.Event<boolean>;
  commands: Record<string, (...args: never[]) => unknown>;
}

const SECTION = 'pincer.teamStore';

/** The person's own (user) value of a team store setting: a workspace's value is never used. */
function userSetting<T>(key: string): T | undefined {
  return vscode.workspace.getConfiguration(SECTION).inspect<T>(key)?.globalValue;
}

/** The server the settings name (without the password), or undefined for the workspace board. */
function serverSettings(): { url: string; schema?: string; tls?: unknown } | undefined {
  const url = userSetting<string>('url');
  if (!url) return undefined;
  const schema = userSetting<string>('schema');
  const tls = userSetting<unknown>('tls');
  return { url, ...(schema ? { schema } : {}), ...(tls ? { tls } : {}) };
}

export function createTeamStoreHost(secrets: vscode.SecretStorage, storage: StorageHost, teams: () => readonly TeamDefinition[]): TeamStoreHost {
  const changed = new vscode.EventEmitter<boolean>();
  let opening: Promise<OpenBoard | undefined> | undefined;
  let failure: string | undefined;
  let offline: string | undefined;

  const connection = async (): Promise<TeamStoreConnection> => {
    const raw = serverSettings()!;
    const { teamStoreConnection } = stores.settings();
    const bare = teamStoreConnection(raw);
    const command = userSetting<unknown>('passwordCommand');
    const password = await stores.password().teamStorePassword(bare, {
      secret: async (k) => (await secrets.get(k)) || undefined,
      ...(Array.isArray(command) && command.length === 0 ? {} : { command }),
    });
    return teamStoreConnection(raw, password);
  };

  const tell = async (message: string) => {
    const login = /refused the login|password command/.test(message);
    const actions = login ? ['Set Password…', 'Open Settings'] : /unreachable/.test(message) ? ['Retry', 'Open Settings'] : ['Open Settings'];
    const pick = await vscode.window.showErrorMessage(`Pincer: ${message}`, ...actions);
    if (pick === 'Set Password…') await vscode.commands.executeCommand('pincer.teamStore.setPassword');
    else if (pick === 'Retry') reopen();
    else if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
  };

  const openServer = async (): Promise<OpenBoard> => {
    const conn = await connection();
    const store = await stores.pgBoard().PgBoardStore.open({ connection: conn });
    store.onStatus((online) => {
      offline = online ? undefined : `The team store at ${conn.where} is offline: reconnecting. Changes made meanwhile fail (nothing is queued); the board catches up once it is back.`;
      changed.fire(false);
    });
    // The team's memory uses its own pool: a long search never waits behind the board's claims.
    let memoryDb: PgConnection | undefined;
    const memories = new Map<string, Promise<TeamMemory>>();
    const teamMemory = (teamId: string, embeddings: () => EmbeddingProvider | undefined): Promise<TeamMemory> => {
      let p = memories.get(teamId);
      if (!p) {
        const db = (memoryDb ??= new (stores.pgConnection().PgConnection)(conn));
        const opened = stores.pgMemory().PgMemoryStore.on(db, { teamId, embeddings }).then((memory) => ({ memory, context: new (stores.pgContext().PgContextStore)(db, teamId) }));
        // A failure (the server unreachable) is the caller's; the next call tries again.
        opened.catch(() => memories.get(teamId) === opened && memories.delete(teamId));
        memories.set(teamId, (p = opened));
      }
      return p;
    };
    return {
      store, where: conn.where, teamMemory,
      close: async () => {
        await store.close();
        await memoryDb?.close();
      },
      // Every editor's changes (this one's included) arrive from the server; after a reconnect, any team's.
      onChange: (listener) => store.onChange((c) => listener(c.action === 'resync' ? undefined : c.teamId)),
    };
  };

  const openWorkspace = async (): Promise<OpenBoard | undefined> => {
    const db = await storage.database();
    if (!db) return undefined;
    const w = watchBoard(new (stores.sql().SqlBoardStore)(db));
    return { store: w.store, where: 'this workspace', onChange: (l) => w.onChange(l), close: async () => undefined };
  };

  const open = () => (opening ??= (serverSettings() ? openServer() : openWorkspace()).catch((e: unknown) => {
    failure = (e as Error).message;
    void tell(failure);
    return undefined;
  }));

  function reopen(): void {
    const was = opening;
    opening = undefined;
    failure = undefined;
    offline = undefined;
    void was?.then((b) => b?.close());
    changed.fire(true);
  }

  const sub = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && reopen());

  const setPassword = async () => {
    const raw = serverSettings();
    if (!raw) {
      void vscode.window.showInformationMessage('Pincer: no team store server is set: put its URL (without a password) in the user setting pincer.teamStore.url first.');
      return;
    }
    const key = stores.password().passwordSecretKey(stores.settings().teamStoreConnection(raw));
    const value = await vscode.window.showInputBox({ title: `Pincer: team store password for ${key.slice(key.indexOf(':') + 1)}`, prompt: 'Kept in VS Code\'s secret storage, for this server and user only. Empty removes it.', password: true, ignoreFocusOut: true });
    if (value === undefined) return;
    if (value) await secrets.store(key, value);
    else await secrets.delete(key);
    reopen();
  };

  // Move Team to Server… and its reverse, Move Team Back to This Workspace: the same steps, the copy
  // going one way or the other (move-team.ts, move-team-back.ts).
  const move = async (toServer: boolean, teamId?: string) => {
    if (!serverSettings()) {
      const pick = await vscode.window.showWarningMessage('Pincer: no team store server is set (the user setting pincer.teamStore.url).', 'Open Settings');
      if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.url`);
      return undefined;
    }
    const title = toServer ? 'Pincer: move which team\'s board to the server?' : 'Pincer: move which team\'s board back to this workspace?';
    const id = teamId ?? (await vscode.window.showQuickPick(teams().map((t) => ({ label: t.name, description: t.id, id: t.id })), { title }))?.id;
    const db = await storage.database();
    if (!id || !db) return undefined;
    try {
      const conn = await connection();
      const copy = toServer ? stores.moveToServer().moveTeamToServer : stores.moveBack().moveTeamToWorkspace;
      const def = teams().find((t) => t.id === id);
      const agents = def ? [def.lead, ...def.members.map((m) => m.agent)] : undefined;
      const out = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Moving team ${id} ${toServer ? 'to' : 'back from'} ${conn.where}`, cancellable: true }, async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        let last = 0;
        return copy({
          source: db, sourceId: storage.dir, teamId: id, agents, connection: conn, actor: 'person', at: Date.now(), signal: ac.signal,
          progress: (p) => {
            const pct = p.total ? Math.round((p.done / p.total) * 100) : 100;
            progress.report({ message: `${p.step} ${p.done}/${p.total}`, increment: p.step === 'tasks' ? Math.max(0, pct - last) : 0 });
            if (p.step === 'tasks') last = pct;
          },
        });
      });
      const m = out.memory;
      const memory = m ? `; memory: ${m.documents} documents and ${m.contextFiles} context files (${m.written} written, ${m.same} already there${m.kept.length ? `, ${m.kept.length} kept as the server has them: ${m.kept.slice(0, 5).join(', ')}${m.kept.length > 5 ? ', …' : ''}` : ''})` : '';
      const copied = `${out.tasks} tasks, ${out.deps} dependencies, ${out.events} events and ${out.messages} messages copied and verified${memory}`;
      void vscode.window.showInformationMessage(toServer
        ? (out.copied ? `Pincer: team ${id} is on ${conn.where}: ${copied}. The workspace board is left as it was.` : `Pincer: team ${id}'s board was moved to ${conn.where} before; nothing was copied again.`)
        : (out.copied ? `Pincer: team ${id} is back in this workspace: ${copied}. The server's board is left as it was; empty pincer.teamStore.url to use this one.` : `Pincer: this workspace already holds team ${id}'s board as it is on ${conn.where}; nothing was copied.`));
      reopen();
      return out;
    } catch (e) {
      void tell((e as Error).message);
      return undefined;
    }
  };

  return {
    open,
    problem: () => failure ?? offline,
    onServer: () => serverSettings() !== undefined,
    onDidChange: changed.event,
    commands: {
      'pincer.teamStore.setPassword': setPassword,
      'pincer.teams.moveToServer': (id?: string) => move(true, id),
      'pincer.teams.moveToWorkspace': (id?: string) => move(false, id),
    },
    dispose: () => {
      sub.dispose();
      changed.dispose();
      void opening?.then((b) => b?.close());
    },
  };
}
