// Where the team store's password comes from, in order: the person's SecretStorage (kept per server
// and user, so a password stored for one server is never sent to another), else a password command
// of their own (a user setting: an argv array run without a shell, its first output line is the
// password — for a password manager's CLI), else nothing here and the pg client reads PGPASSWORD or
// ~/.pgpass itself. A command that fails says how, without echoing what it printed.
import { z } from 'zod';
import type { TeamStoreConnection } from './team-store-settings';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const execa = (): typeof import('execa').execa => (require('execa') as typeof import('execa')).execa;

export const PasswordCommandSchema = z.array(z.string()).min(1, 'the password command is an argv array: the program, then its arguments')
  .refine((argv) => argv[0] !== '', 'the first item names the program');

/** The SecretStorage key of the password for the server and user `conn` names. */
export function passwordSecretKey(conn: TeamStoreConnection): string {
  const c = conn.client;
  return `pincer.teamStore.password:${c.user ?? ''}@${c.host ?? ''}:${c.port ?? 5432}/${c.database ?? ''}`;
}

/** Runs the password command (no shell, 30 s at most) and returns its first line. */
export async function passwordFromCommand(raw: unknown, signal?: AbortSignal): Promise<string> {
  const parsed = PasswordCommandSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`pincer.teamStore.passwordCommand: ${parsed.error.issues.map((i) => i.message).join('; ')}.`);
  const [file, ...args] = parsed.data as [string, ...string[]];
  const r = await execa()(file, args, { reject: false, timeout: 30_000, stdin: 'ignore', ...(signal ? { cancelSignal: signal } : {}) });
  // The program only: its arguments may carry a token of their own.
  const shown = file;
  if (r.failed || r.exitCode !== 0) {
    // Its output may hold the password: only the exit and the error stream's last line are told.
    const why = r.timedOut ? 'took longer than 30 s' : r.isCanceled ? 'was cancelled' : r.exitCode === undefined ? `could not start (${r.code ?? r.shortMessage})` : `exited with ${r.exitCode}`;
    const last = String(r.stderr ?? '').trim().split('\n').pop()?.slice(0, 200);
    throw new Error(`The team store's password command (${shown}) ${why}${last ? `: ${last}` : ''}.`);
  }
  const password = String(r.stdout).split(/\r?\n/)[0] ?? '';
  if (!password) throw new Error(`The team store's password command (${shown}) printed nothing: it should print the password on its first line.`);
  return password;
}

export interface PasswordSources {
  /** The password SecretStorage holds under passwordSecretKey(conn), if any. */
  secret(key: string): Promise<string | undefined>;
  /** pincer.teamStore.passwordCommand from the person's own settings, if set. */
  command?: unknown;
  signal?: AbortSignal;
}

/** The password for `conn`: stored, else from the command, else undefined (PGPASSWORD / ~/.pgpass). */
export async function teamStorePassword(conn: TeamStoreConnection, from: PasswordSources): Promise<string | undefined> {
  const stored = await from.secret(passwordSecretKey(conn));
  if (stored) return stored;
  if (from.command !== undefined && from.command !== null) return passwordFromCommand(from.command, from.signal);
  return undefined;
}
