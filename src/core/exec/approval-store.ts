// The workspace's "Always allow" answers. GoClaw kept them in memory (gone on restart, and matched by
// first word); here each is a rule — canonical executable path + argument pattern — kept in the
// workspace database, checked by validateRule on the way in (an edit cannot turn a rule into a
// blanket approval of an interpreter), and deduplicated: approving the same rule twice keeps one.
// MemoryApprovalStore has the same behaviour for the CLI and tests.
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock';
import type { Database, Migration } from '../storage/database';
import { validateRule } from './judge-lazy';
import type { AllowlistEntry } from './command-policy';
import type { ApprovalStore, StoredApproval } from './exec-types';

/** Version 501 and up: tool log 1, checkpoints 101, memory 201, context 301, revisions 401. */
export const EXEC_APPROVAL_MIGRATIONS: Migration[] = [
  {
    version: 501,
    name: 'exec approvals ("Always allow" rules)',
    // rule_key is executable + args as JSON, so "any arguments" (NULL) and "" stay different rules
    // and a UNIQUE column can deduplicate both (SQL NULLs never compare equal).
    sql: `CREATE TABLE exec_approvals (
            id TEXT PRIMARY KEY,
            executable TEXT NOT NULL,
            args TEXT,
            rule_key TEXT NOT NULL UNIQUE,
            example TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            last_used_at INTEGER
          );`,
  },
];

/** The example is for a person reading the Manage view; a whole script is not needed there. */
export const MAX_EXAMPLE_CHARS = 1000;

function ruleKey(e: AllowlistEntry): string {
  return JSON.stringify([e.executable, e.args ?? null]);
}

/** The rule as it will be kept, or an Error with validateRule's message. */
function checked(entry: AllowlistEntry): AllowlistEntry {
  const problem = validateRule(entry);
  if (problem) throw new Error(problem);
  return entry.args === undefined ? { executable: entry.executable } : { executable: entry.executable, args: entry.args };
}

function shortExample(example: string): string {
  return example.length > MAX_EXAMPLE_CHARS ? `${example.slice(0, MAX_EXAMPLE_CHARS - 1)}…` : example;
}

function missing(id: string): Error {
  return new Error(`No command approval has the id ${id}; it may have been revoked. Reopen Manage Command Approvals to see the current list.`);
}

function duplicate(e: AllowlistEntry): Error {
  return new Error(`An approval of ${e.executable} with ${e.args === undefined ? 'any arguments' : `the arguments "${e.args}"`} already exists; revoke this one instead.`);
}

interface Row {
  id: string;
  executable: string;
  args: string | null;
  example: string;
  created_at: number;
  last_used_at: number | null;
}

function fromRow(r: Row): StoredApproval {
  return {
    id: r.id, executable: r.executable, ...(r.args === null ? {} : { args: r.args }),
    createdAt: r.created_at, ...(r.last_used_at === null ? {} : { lastUsedAt: r.last_used_at }), example: r.example,
  };
}

const COLUMNS = 'id, executable, args, example, created_at, last_used_at';

export class DbApprovalStore implements ApprovalStore {
  constructor(private readonly db: Database, private readonly clock: Clock = systemClock) {}

  async list(): Promise<StoredApproval[]> {
    return (await this.db.query<Row>(`SELECT ${COLUMNS} FROM exec_approvals ORDER BY created_at, id`)).map(fromRow);
  }

  async add(entry: AllowlistEntry, example: string): Promise<StoredApproval> {
    const rule = checked(entry);
    const key = ruleKey(rule);
    // Another window may add the same rule at the same moment: the UNIQUE key keeps the first.
    await this.db.run(
      'INSERT OR IGNORE INTO exec_approvals(id, executable, args, rule_key, example, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      [randomUUID(), rule.executable, rule.args ?? null, key, shortExample(example), this.clock.now()],
    );
    const [row] = await this.db.query<Row>(`SELECT ${COLUMNS} FROM exec_approvals WHERE rule_key = ?`, [key]);
    if (!row) throw new Error('The approval was stored but could not be read back; try again.');
    return fromRow(row);
  }

  async update(id: string, args: string | undefined): Promise<void> {
    const [row] = await this.db.query<Row>(`SELECT ${COLUMNS} FROM exec_approvals WHERE id = ?`, [id]);
    if (!row) throw missing(id);
    const rule = checked({ executable: row.executable, args });
    const key = ruleKey(rule);
    const [other] = await this.db.query<{ id: string }>('SELECT id FROM exec_approvals WHERE rule_key = ? AND id <> ?', [key, id]);
    if (other) throw duplicate(rule);
    await this.db.run('UPDATE exec_approvals SET args = ?, rule_key = ? WHERE id = ?', [rule.args ?? null, key, id]);
  }

  async remove(id: string): Promise<void> {
    await this.db.run('DELETE FROM exec_approvals WHERE id = ?', [id]);
  }

  async touch(id: string): Promise<void> {
    await this.db.run('UPDATE exec_approvals SET last_used_at = ? WHERE id = ?', [this.clock.now(), id]);
  }
}

/** The same rules, kept for the life of the process (the CLI, tests, a workspace without storage). */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly rules = new Map<string, StoredApproval>();

  constructor(private readonly clock: Clock = systemClock) {}

  async list(): Promise<StoredApproval[]> {
    return [...this.rules.values()].map((a) => ({ ...a }));
  }

  async add(entry: AllowlistEntry, example: string): Promise<StoredApproval> {
    const rule = checked(entry);
    const key = ruleKey(rule);
    const existing = [...this.rules.values()].find((a) => ruleKey(a) === key);
    if (existing) return { ...existing };
    const stored: StoredApproval = { id: randomUUID(), ...rule, createdAt: this.clock.now(), example: shortExample(example) };
    this.rules.set(stored.id, stored);
    return { ...stored };
  }

  async update(id: string, args: string | undefined): Promise<void> {
    const a = this.rules.get(id);
    if (!a) throw missing(id);
    const rule = checked({ executable: a.executable, args });
    if ([...this.rules.values()].some((o) => o.id !== id && ruleKey(o) === ruleKey(rule))) throw duplicate(rule);
    const next: StoredApproval = { ...a };
    if (rule.args === undefined) delete next.args;
    else next.args = rule.args;
    this.rules.set(id, next);
  }

  async remove(id: string): Promise<void> {
    this.rules.delete(id);
  }

  async touch(id: string): Promise<void> {
    const a = this.rules.get(id);
    if (a) this.rules.set(id, { ...a, lastUsedAt: this.clock.now() });
  }
}

/** A store opened on first use (never at start-up: the database costs a worker); calls wait for it. */
export class LazyApprovalStore implements ApprovalStore {
  private opened?: Promise<ApprovalStore>;
  constructor(private readonly open: () => Promise<ApprovalStore>) {}
  private get ready(): Promise<ApprovalStore> {
    return (this.opened ??= this.open());
  }
  async list() { return (await this.ready).list(); }
  async add(...a: Parameters<ApprovalStore['add']>) { return (await this.ready).add(...a); }
  async update(...a: Parameters<ApprovalStore['update']>) { return (await this.ready).update(...a); }
  async remove(id: string) { return (await this.ready).remove(id); }
  async touch(id: string) { return (await this.ready).touch(id); }
}
