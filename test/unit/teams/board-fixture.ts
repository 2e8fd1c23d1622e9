// A fresh board for the teams tests, on either backend: the workspace database (sql.js) in a temp
// folder, or a schema of its own on a real PostgreSQL server.
import { randomBytes } from 'node:crypto';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import type { Actor, BoardStore } from '../../../src/core/teams/board-types';
import { PgBoardStore, type PgBoardOptions } from '../../../src/core/teams/postgres/pg-board-store';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import type { PgServer } from '../../support/postgres-server';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

export interface BoardFixture {
  board: BoardStore;
  /** A second window (editor) on the same board, closed with the fixture. */
  second(): Promise<BoardStore>;
  /** An actor at a time that moves forward one millisecond per call. */
  as(name: string): Actor;
  close(): Promise<void>;
}

let t = 1_700_000_000_000;
const as = (name: string): Actor => ({ name, at: ++t });

/** The board in a new workspace database, with the database itself (the sql.js-only tests use it). */
export async function openSqlBoard(): Promise<BoardFixture & { db: Database; board: SqlBoardStore }> {
  const dir = tempDir('teams');
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
  const others: Database[] = [];
  return {
    db, board: new SqlBoardStore(db), as,
    second: async () => {
      const other = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
      others.push(other);
      return new SqlBoardStore(other);
    },
    close: async () => {
      for (const d of [...others, db]) await d.close();
    },
  };
}

/** Store options for `server`, in a schema of its own (a fresh board) unless one is named. */
export function pgOptions(server: PgServer, schema = `t_${randomBytes(6).toString('hex')}`, extra: Partial<PgBoardOptions> = {}): PgBoardOptions {
  return { connection: teamStoreConnection({ url: server.url, schema, tls: { mode: 'disable' } }, server.password), ...extra };
}

/** A board in a new schema on `server`; each window is a store of its own (its own sessions). */
export async function openPgBoard(server: PgServer): Promise<BoardFixture & { board: PgBoardStore; options: PgBoardOptions }> {
  const options = pgOptions(server);
  const board = await PgBoardStore.open(options);
  const stores = [board];
  return {
    board, options, as,
    second: async () => {
      const other = await PgBoardStore.open(options);
      stores.push(other);
      return other;
    },
    close: async () => {
      for (const s of stores) await s.close();
    },
  };
}
