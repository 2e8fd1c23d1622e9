// Where a shared team store lives: `pincer.teamStore.url` (a user setting), its schema and TLS. The
// password never comes from settings — a workspace's settings are committed and shared, and a user
// setting syncs — so a URL that carries one is refused; it comes from SecretStorage (the host passes
// it) or, when none is stored, from PGPASSWORD / ~/.pgpass, which the pg client reads itself.
import { readFileSync } from 'node:fs';
import type { ClientConfig } from 'pg';
import { z } from 'zod';

export const TeamStoreSettingsSchema = z.object({
  url: z.string().min(1),
  /** Several projects share one server, each in its own schema. */
  schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a schema name is lowercase letters, digits and _ (at most 63), not starting with a digit').default('pincer'),
  tls: z.object({
    /** disable: plain TCP (loopback, a private network); require: encrypted, any certificate; verify: encrypted, the certificate checked against `caFile` or the system's CAs and the host name. */
    mode: z.enum(['disable', 'require', 'verify']).default('verify'),
    caFile: z.string().optional(),
  }).default({ mode: 'verify' }),
});

export type TeamStoreSettings = z.infer<typeof TeamStoreSettingsSchema>;

export interface TeamStoreConnection {
  /** For pg's Client and Pool (no password unless one was given). */
  client: ClientConfig;
  schema: string;
  /** host:port/database, for messages (never the password). */
  where: string;
}

/** Checks the settings and makes the client's configuration; every problem is named. */
export function teamStoreConnection(raw: unknown, password?: string): TeamStoreConnection {
  const parsed = TeamStoreSettingsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`pincer.teamStore: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}`);
  const s = parsed.data;
  let url: URL;
  try {
    url = new URL(s.url);
  } catch {
    throw new Error(`pincer.teamStore.url: "${s.url}" is not a URL; it looks like postgres://user@host:5432/database.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error(`pincer.teamStore.url: the scheme must be postgres:// (got ${url.protocol}//).`);
  if (url.password) throw new Error('pincer.teamStore.url holds a password: settings are not a place for secrets. Remove it from the URL and run "Pincer: Set Team Store Password" (or set PGPASSWORD).');
  if (!url.hostname) throw new Error('pincer.teamStore.url: no host.');
  const port = url.port ? Number(url.port) : 5432;
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const ssl = s.tls.mode === 'disable' ? false
    : s.tls.mode === 'require' ? { rejectUnauthorized: false }
      : { rejectUnauthorized: true, ...(s.tls.caFile ? { ca: readFileSync(s.tls.caFile, 'utf8') } : {}) };
  return {
    client: {
      host: url.hostname, port, database, ssl,
      ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
      ...(password ? { password } : {}),
    },
    schema: s.schema,
    where: `${url.hostname}:${port}/${database}`,
  };
}
