// The board on a PostgreSQL server: the same tables and rules as the workspace database's (see
// ../board-schema.ts), written for PostgreSQL. The rules are the server's own (triggers), so every
// editor connected to it — whatever it runs — is held to them; each refusal starts with "Refused:".
// Beyond the workspace board: runs (a heartbeat per member run, so a run on a machine that vanished
// is noticed by the others) and a NOTIFY per audit event and per message, sent at commit, which is
// how the other editors see a change without polling. Claims are the exception: the server puts
// every transaction that notifies in one line through its commit (so notifications arrive in commit
// order), which would queue each claim's disk flush behind the others' on the board's hottest write;
// a claim is announced by its writer after it commits, gathered with its others for 20 ms (pg-claims.ts).
import { PG_MEMORY_MIGRATIONS } from './pg-memory-schema';
import type { PgMigration } from './pg-migrate';

/** The channel every board change is announced on; the payload names the schema it happened in. */
export const BOARD_CHANNEL = 'pincer_board';

export const PG_BOARD_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    name: 'the board (tasks, dependencies, audit events, mailbox, runs), its rules and its notifications',
    sql: `
CREATE TABLE team_tasks (
  id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  priority INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_progress', 'in_review', 'completed', 'failed', 'cancelled')),
  assignee TEXT,
  owner TEXT,
  run_id TEXT,
  require_review BOOLEAN NOT NULL DEFAULT false,
  progress INTEGER NOT NULL DEFAULT 0,
  progress_note TEXT,
  result TEXT,
  returns INTEGER NOT NULL DEFAULT 0,
  gate_failures INTEGER NOT NULL DEFAULT 0,
  attachments JSONB NOT NULL DEFAULT '[]',
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  -- No stemming ('simple'), as on the workspace board: a word matches itself.
  search TSVECTOR GENERATED ALWAYS AS (setweight(to_tsvector('simple', subject), 'A') || setweight(to_tsvector('simple', description), 'B')) STORED
);
CREATE INDEX team_tasks_team ON team_tasks(team_id, status);
CREATE INDEX team_tasks_run ON team_tasks(run_id) WHERE run_id IS NOT NULL;
CREATE INDEX team_tasks_search ON team_tasks USING gin(search);
CREATE TABLE team_task_deps (
  task_id INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
  blocker_id INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, blocker_id)
);
CREATE INDEX team_task_deps_blocker ON team_task_deps(blocker_id);
CREATE TABLE team_events (
  id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id TEXT NOT NULL,
  task_id INTEGER,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  at BIGINT NOT NULL
);
CREATE INDEX team_events_team ON team_events(team_id, id);
CREATE TABLE team_messages (
  id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id TEXT NOT NULL,
  sender TEXT NOT NULL,
  recipient TEXT NOT NULL,
  text TEXT NOT NULL,
  at BIGINT NOT NULL,
  read_at BIGINT
);
CREATE INDEX team_messages_unread ON team_messages(team_id, recipient) WHERE read_at IS NULL;
CREATE TABLE team_runs (
  run_id TEXT PRIMARY KEY,
  -- The editor (store instance) the run lives in, and when it last said the run is alive.
  instance TEXT NOT NULL,
  seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE FUNCTION team_tasks_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE open_list TEXT;
BEGIN
  IF NEW.status <> OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('in_progress', 'cancelled', 'failed'))
    OR (OLD.status = 'in_progress' AND NEW.status IN ('pending', 'in_review', 'completed', 'failed', 'cancelled'))
    OR (OLD.status = 'in_review' AND NEW.status IN ('completed', 'pending', 'cancelled'))
    OR (OLD.status IN ('failed', 'cancelled') AND NEW.status = 'pending')) THEN
    RAISE EXCEPTION '%', 'Refused: task #' || OLD.id || ' is ' || OLD.status || CASE OLD.status
      WHEN 'in_progress' THEN ' (claimed by ' || COALESCE(OLD.owner, '?') || ')'
      WHEN 'completed' THEN ' (completed tasks are final: create a follow-up task)'
      ELSE '' END || ', so it cannot become ' || NEW.status || '.';
  END IF;
  IF OLD.status = 'pending' AND NEW.status = 'in_progress' THEN
    IF OLD.assignee IS NOT NULL AND OLD.assignee <> COALESCE(NEW.owner, '') THEN
      RAISE EXCEPTION '%', 'Refused: task #' || OLD.id || ' is assigned to ' || OLD.assignee || ', not ' || COALESCE(NEW.owner, '?') || '.';
    END IF;
    SELECT string_agg('#' || b.id || ' (' || b.status || ')', ', ' ORDER BY b.id) INTO open_list
      FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
      WHERE d.task_id = OLD.id AND b.status <> 'completed';
    IF open_list IS NOT NULL THEN
      RAISE EXCEPTION '%', 'Refused: task #' || OLD.id || ' is blocked by ' || open_list || ': it can be claimed once they are completed.';
    END IF;
  END IF;
  IF OLD.status = 'in_progress' AND NEW.status = 'in_progress' AND NEW.owner IS DISTINCT FROM OLD.owner THEN
    RAISE EXCEPTION '%', 'Refused: task #' || OLD.id || ' is already claimed by ' || COALESCE(OLD.owner, '?') || '.';
  END IF;
  IF NEW.status = 'completed' AND OLD.status <> 'completed' AND length(trim(COALESCE(NEW.result, ''))) = 0 THEN
    RAISE EXCEPTION '%', 'Refused: task #' || OLD.id || ' cannot be completed without a result: say what was done.';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER team_tasks_rules BEFORE UPDATE ON team_tasks FOR EACH ROW EXECUTE FUNCTION team_tasks_rules();

CREATE FUNCTION team_task_deps_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE cycle TEXT;
BEGIN
  IF NEW.task_id = NEW.blocker_id THEN
    RAISE EXCEPTION '%', 'Refused: task #' || NEW.task_id || ' cannot be blocked by itself.';
  END IF;
  IF (SELECT team_id FROM team_tasks WHERE id = NEW.blocker_id) IS DISTINCT FROM (SELECT team_id FROM team_tasks WHERE id = NEW.task_id) THEN
    RAISE EXCEPTION '%', 'Refused: blocker #' || NEW.blocker_id || ' is not a task of this team.';
  END IF;
  -- Two editors adding the two halves of a cycle at once would each see no cycle: dependency
  -- changes of one team take turns (the lock is held to the end of the transaction, and each query
  -- below sees what the previous holder committed).
  PERFORM pg_advisory_xact_lock(hashtextextended('pincer-deps:' || (SELECT team_id FROM team_tasks WHERE id = NEW.task_id), 0));
  WITH RECURSIVE reach(id, path) AS (
    SELECT NEW.blocker_id, '#' || NEW.task_id || ' -> #' || NEW.blocker_id
    UNION
    SELECT d.blocker_id, reach.path || ' -> #' || d.blocker_id
    FROM team_task_deps d JOIN reach ON d.task_id = reach.id
    WHERE reach.id <> NEW.task_id)
  SELECT path INTO cycle FROM reach WHERE id = NEW.task_id LIMIT 1;
  IF cycle IS NOT NULL THEN
    RAISE EXCEPTION '%', 'Refused: that dependency would make a cycle: ' || cycle || '.';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER team_task_deps_rules BEFORE INSERT ON team_task_deps FOR EACH ROW EXECUTE FUNCTION team_task_deps_rules();

CREATE FUNCTION team_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r JSONB := to_jsonb(NEW); -- one function for both tables: a message has no task_id or action
BEGIN
  PERFORM pg_notify('${BOARD_CHANNEL}', json_build_object('schema', TG_TABLE_SCHEMA, 'teamId', NEW.team_id,
    'taskId', r->'task_id', 'action', COALESCE(r->>'action', 'message'), 'to', r->>'recipient')::text);
  RETURN NULL;
END $$;
CREATE TRIGGER team_events_notify AFTER INSERT ON team_events FOR EACH ROW WHEN (NEW.action <> 'claim') EXECUTE FUNCTION team_notify();
CREATE TRIGGER team_messages_notify AFTER INSERT ON team_messages FOR EACH ROW EXECUTE FUNCTION team_notify();
`,
  },
  {
    version: 2,
    name: 'teams moved here from a workspace board (so a second move of the same board copies nothing)',
    sql: `
CREATE TABLE team_moves (
  -- The workspace board's identity (its database) and the team moved from it.
  source TEXT NOT NULL,
  team_id TEXT NOT NULL,
  tasks INTEGER NOT NULL,
  deps INTEGER NOT NULL,
  events INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  -- sha256 of the team's board as moved (ids left out: the server numbers rows itself).
  checksum TEXT NOT NULL,
  -- The workspace task ids and the ids they have here, as a JSON object.
  id_map JSONB NOT NULL,
  moved_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (source, team_id)
);
`,
  },
  {
    version: 3,
    name: 'a task\'s own quality gates',
    // The gate definitions (team-definition.ts) as a JSON array, run after the team's gates.
    sql: `ALTER TABLE team_tasks ADD COLUMN gates JSONB NOT NULL DEFAULT '[]';`,
  },
  {
    version: 4,
    name: 'claims update a task in place (HOT): no index holds what a claim changes',
    // A claim changes status, owner, run_id, progress and updated_at. While an index held status or
    // run_id, and the search vector was a generated column recomputed on every update, each claim
    // wrote a new row version into every index (the GIN index of the search words included) and
    // re-tokenized the task's text. Now: the team index holds team_id only (a team's board is read
    // whole and filtered by status), the watchdog's in-progress scan reads the table (a sweep every
    // 30 s, boards of thousands of tasks), the search words are set only when subject or description
    // change, and pages keep room for the new version beside the old (fillfactor 70).
    sql: `
ALTER TABLE team_tasks SET (fillfactor = 70);
DROP INDEX team_tasks_run;
DROP INDEX team_tasks_team;
CREATE INDEX team_tasks_team ON team_tasks(team_id);
ALTER TABLE team_tasks ALTER COLUMN search DROP EXPRESSION;
CREATE FUNCTION team_tasks_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := setweight(to_tsvector('simple', NEW.subject), 'A') || setweight(to_tsvector('simple', NEW.description), 'B');
  RETURN NEW;
END $$;
CREATE TRIGGER team_tasks_search BEFORE INSERT OR UPDATE OF subject, description ON team_tasks FOR EACH ROW EXECUTE FUNCTION team_tasks_search();
`,
  },
  // One list for the whole schema (the migrator refuses a schema newer than the list it is given):
  // the team's memory and context files (pg-memory-schema.ts).
  ...PG_MEMORY_MIGRATIONS,
];
