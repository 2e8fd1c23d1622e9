// The team board's tables in the workspace database, and the rules the database itself enforces, so
// every writer (a tool call, the watchdog, a person on the board, another window replaying the
// journal) meets the same rules inside the same transaction as its change:
// - a status may only move along the allowed transitions (completed is final);
// - a task is claimed only while pending, by its assignee or anyone when unassigned, and never while
//   a blocker is not completed (checked at the claim itself, so a blocker reopened later blocks again);
// - completed needs a result;
// - a dependency that would close a cycle is refused with the cycle named.
// Refusals are RAISE(ABORT) with a message the model can act on; the whole transaction rolls back.
// Guards a transaction needs beyond these (the task exists, belongs to the team) are inserts into
// team_guard, whose trigger raises the row's reason: the table never holds a row.
import type { Migration } from '../storage/types';

/** Every refusal raised by the board's rules starts with this, so callers can tell it from a storage failure. */
export const BOARD_REFUSAL = 'Refused:';

export const TEAM_MIGRATIONS: Migration[] = [
  {
    version: 801,
    name: 'teams: the board (tasks, dependencies, audit events, mailbox) and its rules',
    sql: `CREATE TABLE team_tasks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            team_id TEXT NOT NULL,
            create_key TEXT NOT NULL UNIQUE,
            subject TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            priority INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'pending'
              CHECK (status IN ('pending', 'in_progress', 'in_review', 'completed', 'failed', 'cancelled')),
            assignee TEXT,
            owner TEXT,
            run_id TEXT,
            require_review INTEGER NOT NULL DEFAULT 0,
            progress INTEGER NOT NULL DEFAULT 0,
            progress_note TEXT,
            result TEXT,
            returns INTEGER NOT NULL DEFAULT 0,
            gate_failures INTEGER NOT NULL DEFAULT 0,
            attachments TEXT NOT NULL DEFAULT '[]',
            created_by TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
          );
          CREATE INDEX team_tasks_team ON team_tasks(team_id, status);
          CREATE INDEX team_tasks_run ON team_tasks(run_id) WHERE run_id IS NOT NULL;
          CREATE TABLE team_task_deps (
            task_id INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
            blocker_id INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
            PRIMARY KEY (task_id, blocker_id)
          );
          CREATE INDEX team_task_deps_blocker ON team_task_deps(blocker_id);
          CREATE TABLE team_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            team_id TEXT NOT NULL,
            task_id INTEGER,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '',
            at INTEGER NOT NULL
          );
          CREATE INDEX team_events_team ON team_events(team_id, id);
          CREATE TABLE team_messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            team_id TEXT NOT NULL,
            sender TEXT NOT NULL,
            recipient TEXT NOT NULL,
            text TEXT NOT NULL,
            at INTEGER NOT NULL,
            read_at INTEGER,
            read_token TEXT
          );
          CREATE INDEX team_messages_unread ON team_messages(team_id, recipient, read_at);
          CREATE VIRTUAL TABLE team_tasks_fts USING fts4(subject, description, tokenize=unicode61 "remove_diacritics=2");
          CREATE TRIGGER team_tasks_fts_insert AFTER INSERT ON team_tasks BEGIN
            INSERT INTO team_tasks_fts(docid, subject, description) VALUES (NEW.id, NEW.subject, NEW.description);
          END;
          CREATE TRIGGER team_tasks_fts_update AFTER UPDATE OF subject, description ON team_tasks BEGIN
            UPDATE team_tasks_fts SET subject = NEW.subject, description = NEW.description WHERE docid = NEW.id;
          END;
          CREATE TABLE team_guard (reason TEXT NOT NULL);
          CREATE TRIGGER team_guard_raise BEFORE INSERT ON team_guard BEGIN
            SELECT RAISE(ABORT, NEW.reason);
          END;
          CREATE TRIGGER team_tasks_transition BEFORE UPDATE OF status ON team_tasks
          WHEN NEW.status <> OLD.status AND NOT (
               (OLD.status = 'pending' AND NEW.status IN ('in_progress', 'cancelled', 'failed'))
            OR (OLD.status = 'in_progress' AND NEW.status IN ('pending', 'in_review', 'completed', 'failed', 'cancelled'))
            OR (OLD.status = 'in_review' AND NEW.status IN ('completed', 'pending', 'cancelled'))
            OR (OLD.status IN ('failed', 'cancelled') AND NEW.status = 'pending'))
          BEGIN
            SELECT RAISE(ABORT, 'Refused: task #' || OLD.id || ' is ' || OLD.status || CASE OLD.status
              WHEN 'in_progress' THEN ' (claimed by ' || COALESCE(OLD.owner, '?') || ')'
              WHEN 'completed' THEN ' (completed tasks are final: create a follow-up task)'
              ELSE '' END || ', so it cannot become ' || NEW.status || '.');
          END;
          CREATE TRIGGER team_tasks_claim BEFORE UPDATE OF status ON team_tasks
          WHEN OLD.status = 'pending' AND NEW.status = 'in_progress'
          BEGIN
            SELECT RAISE(ABORT, 'Refused: task #' || OLD.id || ' is assigned to ' || OLD.assignee || ', not ' || COALESCE(NEW.owner, '?') || '.')
              WHERE OLD.assignee IS NOT NULL AND OLD.assignee <> COALESCE(NEW.owner, '');
            SELECT RAISE(ABORT, 'Refused: task #' || OLD.id || ' is blocked by ' || (
                SELECT group_concat('#' || b.id || ' (' || b.status || ')', ', ')
                FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
                WHERE d.task_id = OLD.id AND b.status <> 'completed') || ': it can be claimed once they are completed.')
              WHERE EXISTS (SELECT 1 FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
                            WHERE d.task_id = OLD.id AND b.status <> 'completed');
          END;
          CREATE TRIGGER team_tasks_claimed BEFORE UPDATE OF owner ON team_tasks
          WHEN OLD.status = 'in_progress' AND NEW.status = 'in_progress' AND NEW.owner IS NOT OLD.owner
          BEGIN
            SELECT RAISE(ABORT, 'Refused: task #' || OLD.id || ' is already claimed by ' || COALESCE(OLD.owner, '?') || '.');
          END;
          CREATE TRIGGER team_tasks_result BEFORE UPDATE OF status ON team_tasks
          WHEN NEW.status = 'completed' AND length(trim(COALESCE(NEW.result, ''))) = 0
          BEGIN
            SELECT RAISE(ABORT, 'Refused: task #' || OLD.id || ' cannot be completed without a result: say what was done.');
          END;
          CREATE TRIGGER team_task_deps_cycle BEFORE INSERT ON team_task_deps
          BEGIN
            SELECT RAISE(ABORT, 'Refused: task #' || NEW.task_id || ' cannot be blocked by itself.') WHERE NEW.task_id = NEW.blocker_id;
            SELECT RAISE(ABORT, 'Refused: that dependency would make a cycle: ' || (
                WITH RECURSIVE reach(id, path) AS (
                  SELECT NEW.blocker_id, '#' || NEW.task_id || ' -> #' || NEW.blocker_id
                  UNION
                  SELECT d.blocker_id, reach.path || ' -> #' || d.blocker_id
                  FROM team_task_deps d JOIN reach ON d.task_id = reach.id
                  WHERE reach.id <> NEW.task_id)
                SELECT path FROM reach WHERE id = NEW.task_id LIMIT 1) || '.')
              WHERE EXISTS (
                WITH RECURSIVE reach(id) AS (
                  SELECT NEW.blocker_id UNION SELECT d.blocker_id FROM team_task_deps d JOIN reach ON d.task_id = reach.id)
                SELECT 1 FROM reach WHERE id = NEW.task_id);
            SELECT RAISE(ABORT, 'Refused: blocker #' || NEW.blocker_id || ' is not a task of this team.')
              WHERE (SELECT team_id FROM team_tasks WHERE id = NEW.blocker_id) IS NOT (SELECT team_id FROM team_tasks WHERE id = NEW.task_id);
          END;`,
  },
  {
    version: 802,
    name: 'teams: member runs by window, so one window\'s watchdog never releases another live window\'s claims',
    // The window (store instance) a claiming run lives in, and when that window last said it is alive.
    sql: `CREATE TABLE team_runs (
            run_id TEXT PRIMARY KEY,
            instance TEXT NOT NULL,
            seen_at INTEGER NOT NULL
          );`,
  },
  {
    version: 803,
    name: 'teams: a task\'s own quality gates',
    // JSON array of gate definitions (team-definition.ts), run after the team's gates.
    sql: `ALTER TABLE team_tasks ADD COLUMN gates TEXT NOT NULL DEFAULT '[]';`,
  },
];
