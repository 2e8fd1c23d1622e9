// A board on a real workspace database in a temp folder, for the teams tests.
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import type { Actor } from '../../../src/core/teams/board-types';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

export interface BoardFixture {
  db: Database;
  /** The database folder (a second window may open it). */
  dir: string;
  board: SqlBoardStore;
  /** An actor at a time that moves forward one millisecond per call. */
  as(name: string): Actor;
}

let t = 1_700_000_000_000;

export async function openBoard(): Promise<BoardFixture> {
  const dir = tempDir('teams');
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
  return { db, dir, board: new SqlBoardStore(db), as: (name) => ({ name, at: ++t }) };
}
