// Cross-process (and cross-thread) write lock: a file created with O_EXCL holding its owner.
// A lock whose owner died (same host, pid gone) or stopped refreshing it is stolen, under a
// short second lock so two stealers never both remove a lock that a third just took.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { randomHex, sleepSync } from './durable-fs';

export interface LockOwner {
  pid: number;
  hostname: string;
  threadId: number;
  time: number;
  token: string;
}

export interface ObservedLock {
  raw: string;
  owner: LockOwner | null;
  mtimeMs: number;
}

export interface LockOptions {
  staleMs: number;
  timeoutMs: number;
  warn: (message: string) => void;
  /** The clock the timeout and the stale age are judged by (Date.now; tests step their own). */
  now?: () => number;
}

const STEAL_MUTEX_STALE_MS = 5000;

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const o = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && typeof o.hostname === 'string' && typeof o.time === 'number' && typeof o.token === 'string') {
      return o as LockOwner;
    }
  } catch {
    // Being written right now, or garbage: judged by the file's age alone.
  }
  return null;
}

/** Why the observed lock may be taken over, or null while its owner may still be working. */
export function staleReason(obs: ObservedLock, now: number, host: string, alive: (pid: number) => boolean, staleMs: number): string | null {
  const o = obs.owner;
  if (o && o.hostname === host && o.pid !== process.pid && !alive(o.pid)) {
    return `its owner (pid ${o.pid}) is no longer running`;
  }
  const age = now - Math.max(obs.mtimeMs, o?.time ?? 0);
  if (age > staleMs) {
    return `${o ? `its owner (pid ${o.pid} on ${o.hostname})` : 'its owner'} has not refreshed it for ${Math.round(age / 1000)} s`;
  }
  return null;
}

const ORPHAN_AGE_MS = 60_000;

export class FileLock {
  private token: string | null = null;

  /** Side files of acquirers that died between writing and linking them (young ones may be in use). */
  static removeOrphans(lockPath: string): void {
    const dir = path.dirname(lockPath);
    const pattern = new RegExp(`^${path.basename(lockPath).replace(/\./g, '\\.')}\\.[0-9a-f]{16}$`);
    for (const name of fs.readdirSync(dir)) {
      if (!pattern.test(name)) continue;
      const file = path.join(dir, name);
      try {
        if (Date.now() - fs.statSync(file).mtimeMs > ORPHAN_AGE_MS) fs.rmSync(file, { force: true });
      } catch {
        // Already gone.
      }
    }
  }

  constructor(
    private readonly lockPath: string,
    private readonly opts: LockOptions,
  ) {}

  get held(): boolean {
    return this.token !== null;
  }

  acquire(): void {
    if (this.token) throw new Error('storage lock acquired twice');
    const now = this.opts.now ?? Date.now;
    const deadline = now() + this.opts.timeoutMs;
    let wait = 0.5;
    for (;;) {
      if (this.tryCreate()) return;
      const obs = this.observe();
      if (!obs) continue;
      const why = staleReason(obs, now(), os.hostname(), pidAlive, this.opts.staleMs);
      if (why) {
        this.steal(obs, why);
        continue;
      }
      if (now() > deadline) {
        const who = obs.owner ? `pid ${obs.owner.pid} on ${obs.owner.hostname}` : 'another process';
        throw Object.assign(new Error(`the database is locked by ${who}`), { code: 'ELOCKED' });
      }
      sleepSync(wait);
      wait = Math.min(wait * 2, 16);
    }
  }

  /** Heartbeat during long work (a large snapshot), so waiters do not judge the lock stale. */
  refresh(): void {
    if (!this.token) return;
    const now = new Date();
    fs.utimesSync(this.lockPath, now, now);
  }

  release(): void {
    const token = this.token;
    if (!token) return;
    this.token = null;
    const obs = this.observe();
    if (obs?.owner?.token === token) {
      fs.rmSync(this.lockPath, { force: true });
    } else {
      this.opts.warn('Pincer storage: another window took over the database lock while this one held it.');
    }
  }

  private content(token: string): string {
    const owner: LockOwner = { pid: process.pid, hostname: os.hostname(), threadId, time: Date.now(), token };
    return JSON.stringify(owner);
  }

  /**
   * The lock appears with its owner already inside (written to a side file, then hard-linked into
   * place), so a crash can never leave an anonymous lock that only ages out.
   */
  private tryCreate(): boolean {
    const token = randomHex(8);
    const side = `${this.lockPath}.${token}`;
    fs.writeFileSync(side, this.content(token));
    try {
      fs.linkSync(side, this.lockPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      return this.tryCreateExclusive(token);
    } finally {
      fs.rmSync(side, { force: true });
    }
    this.token = token;
    return true;
  }

  /** For file systems without hard links. */
  private tryCreateExclusive(token: string): boolean {
    let fd: number;
    try {
      fd = fs.openSync(this.lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
    try {
      fs.writeSync(fd, this.content(token));
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(this.lockPath, { force: true });
      throw err;
    }
    fs.closeSync(fd);
    this.token = token;
    return true;
  }

  private observe(): ObservedLock | null {
    try {
      const raw = fs.readFileSync(this.lockPath, 'utf8');
      const { mtimeMs } = fs.statSync(this.lockPath);
      return { raw, owner: parseOwner(raw), mtimeMs };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  private steal(obs: ObservedLock, why: string): void {
    const mutex = `${this.lockPath}.steal`;
    try {
      fs.closeSync(fs.openSync(mutex, 'wx'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - fs.statSync(mutex).mtimeMs > STEAL_MUTEX_STALE_MS) fs.rmSync(mutex, { force: true });
      } catch {
        // Gone already: the other stealer finished.
      }
      sleepSync(1);
      return;
    }
    try {
      const again = this.observe();
      // Only the very lock judged stale is removed, never one a live process took meanwhile.
      if (again && again.raw === obs.raw && again.mtimeMs === obs.mtimeMs) {
        fs.rmSync(this.lockPath, { force: true });
        this.opts.warn(`Pincer storage: took over the database lock because ${why}.`);
      }
    } finally {
      fs.rmSync(mutex, { force: true });
    }
  }
}
