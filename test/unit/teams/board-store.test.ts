// The board's contract on the workspace database (sql.js).
import { removeTempDirs } from '../../support/storage-fixtures';
import { boardContract } from './board-contract';
import { openSqlBoard } from './board-fixture';

boardContract('workspace database', openSqlBoard);
after(removeTempDirs);
