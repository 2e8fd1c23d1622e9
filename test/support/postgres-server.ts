// A real PostgreSQL server for the team store's tests and bench: Debian's `postgresql` package
// (installed by test/host/install-host.sh), a cluster made by initdb in a temporary folder, started by
// pg_ctl on a free loopback port and removed after. PostgreSQL refuses to run as root, so when the
// tests run as root the cluster belongs to the `postgres` system user the package creates.
// Password authentication (SCRAM) is on for TCP, as on a shared server.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const execa = (): typeof import('execa').execa => (require('execa') as typeof import('execa')).execa;

export interface PgServer {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  /** The server's major version (Debian's folder name). */
  version: string;
  /** postgres://user@host:port/database — without the password, as the setting holds it. */
  url: string;
  /** Stops the server (fast shutdown: sessions are ended, committed work is kept). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/** The newest installed server's programs (Debian keeps them in /usr/lib/postgresql/<major>/bin). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/pg_ctl): run `bash test/host/install-host.sh`, which installs Debian\'s postgresql package.');
  return path.join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The `postgres` system user's ids when running as root (the server will not start as root). */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const { stdout } = await execa()('id', ['-u', 'postgres']);
  const { stdout: gid } = await execa()('id', ['-g', 'postgres']);
  return { uid: Number(stdout), gid: Number(gid) };
}

const running = new Set<string>();
// A test process that dies leaves no server behind.
process.once('exit', () => {
  for (const data of running) {
    try {
      execFileSync(path.join(binDir(), 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate'], { stdio: 'ignore' });
    } catch { /* already stopped */ }
  }
});

/**
 * Starts a fresh server. `durable: false` (the tests) turns fsync off: a crash of the machine could
 * lose the cluster, which is thrown away anyway; a server stopped or restarted keeps every commit.
 */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PgServer> {
  const bin = binDir();
  const owner = await serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-pg-'));
  const data = path.join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  fs.writeFileSync(path.join(dir, 'pw'), password, { mode: 0o600 });
  if (owner) for (const p of [dir, path.join(dir, 'pw')]) fs.chownSync(p, owner.uid, owner.gid);
  const as = { cwd: dir, env: { HOME: dir, LC_ALL: 'C.UTF-8' }, ...(owner ? { uid: owner.uid, gid: owner.gid } : {}) };
  const user = 'pincer';
  await execa()(path.join(bin, 'initdb'), ['-D', data, '-U', user, `--pwfile=${path.join(dir, 'pw')}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8'], as);
  const port = await freePort();
  const settings = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${dir}`, '-c max_connections=200', ...(opts.durable ? [] : ['-c fsync=off'])].join(' ');
  const pgCtl = (args: string[]) => execa()(path.join(bin, 'pg_ctl'), ['-D', data, ...args], as);
  const start = async () => {
    await pgCtl(['start', '-w', '-t', '60', '-l', path.join(dir, 'server.log'), '-o', settings]);
    running.add(data);
  };
  const stop = async () => {
    await pgCtl(['stop', '-w', '-m', 'fast']);
    running.delete(data);
  };
  await start();
  return {
    host: '127.0.0.1', port, database: 'postgres', user, password, version: path.basename(path.dirname(bin)), url: `postgres://${user}@127.0.0.1:${port}/postgres`,
    start, stop,
    remove: async () => {
      // A server that does not stop in order is stopped at once: its folder is never removed under it.
      if (running.has(data)) await stop().catch(() => pgCtl(['stop', '-m', 'immediate']).catch(() => undefined));
      running.delete(data);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
