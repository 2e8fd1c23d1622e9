import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileLock, staleReason, type ObservedLock } from '../../../src/core/storage/file-lock';
import { removeTempDirs, tempDir } from '../../support/storage-fixtures';

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function owner(pid: number, hostname: string, time: number): string {
  return JSON.stringify({ pid, hostname, threadId: 0, time, token: 'someone-else' });
}

describe('storage file lock', () => {
  const host = os.hostname();
  const now = 1_000_000;
  const obs = (raw: string, mtimeMs = now): ObservedLock => ({ raw, owner: JSON.parse(raw), mtimeMs });
  after(removeTempDirs);

  it('judges staleness by a dead pid on this host or by age', () => {
    const alive = () => true;
    const dead = () => false;
    assert.equal(staleReason(obs(owner(4242, host, now)), now, host, alive, 30_000), null);
    assert.match(staleReason(obs(owner(4242, host, now)), now, host, dead, 30_000) ?? '', /no longer running/);
    // A pid on another host says nothing about this machine's processes: only age counts.
    assert.equal(staleReason(obs(owner(4242, 'elsewhere', now)), now, host, dead, 30_000), null);
    assert.match(staleReason(obs(owner(4242, 'elsewhere', now - 60_000), now - 60_000), now, host, alive, 30_000) ?? '', /not refreshed/);
    // A half-written owner file is judged by the file's age only.
    assert.equal(staleReason({ raw: '', owner: null, mtimeMs: now - 1000 }, now, host, dead, 30_000), null);
    assert.ok(staleReason({ raw: '', owner: null, mtimeMs: now - 31_000 }, now, host, dead, 30_000));
  });

  it('acquires, releases, and can be acquired again', () => {
    const dir = tempDir('lock');
    const warnings: string[] = [];
    const lock = new FileLock(path.join(dir, 'pincer.lock'), { staleMs: 30_000, timeoutMs: 1000, warn: (m) => warnings.push(m) });
    lock.acquire();
    assert.ok(lock.held);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'pincer.lock'), 'utf8')).pid, process.pid);
    lock.release();
    assert.equal(fs.existsSync(path.join(dir, 'pincer.lock')), false);
    lock.acquire();
    lock.release();
    assert.deepEqual(warnings, []);
  });

  it('takes over a lock whose owner died, and says so', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    fs.writeFileSync(file, owner(deadPid(), host, Date.now()));
    const warnings: string[] = [];
    const lock = new FileLock(file, { staleMs: 30_000, timeoutMs: 2000, warn: (m) => warnings.push(m) });
    lock.acquire();
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).pid, process.pid);
    lock.release();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /took over the database lock/);
    assert.equal(fs.existsSync(`${file}.steal`), false);
  });

  it('never steals a live owner\'s fresh lock: it waits, then fails with ELOCKED', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    const holder = new FileLock(file, { staleMs: 30_000, timeoutMs: 1000, warn: () => undefined });
    holder.acquire();
    const warnings: string[] = [];
    // A clock that moves 100 ms per reading: the contender keeps trying until it reads past 300.
    const readings: number[] = [];
    const now = () => {
      const t = readings.length * 100;
      readings.push(t);
      return t;
    };
    const contender = new FileLock(file, { staleMs: 30_000, timeoutMs: 300, warn: (m) => warnings.push(m), now });
    assert.throws(() => contender.acquire(), (e: NodeJS.ErrnoException) => e.code === 'ELOCKED' && /locked by pid/.test(e.message));
    assert.ok(readings.length > 4, 'it tried more than once');
    assert.ok(readings[readings.length - 1] > 300, 'and gave up only after the timeout');
    assert.deepEqual(warnings, []);
    holder.release();
    contender.acquire();
    contender.release();
  });

  it('takes over a lock nobody refreshed for longer than the stale age', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    const old = Date.now() - 10_000;
    fs.writeFileSync(file, owner(process.pid, 'another-host', old));
    fs.utimesSync(file, old / 1000, old / 1000);
    const warnings: string[] = [];
    const lock = new FileLock(file, { staleMs: 5000, timeoutMs: 2000, warn: (m) => warnings.push(m) });
    lock.acquire();
    lock.release();
    assert.match(warnings.join('\n'), /has not refreshed it/);
  });

  it('warns when its lock was taken over while held', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    const warnings: string[] = [];
    const lock = new FileLock(file, { staleMs: 30_000, timeoutMs: 1000, warn: (m) => warnings.push(m) });
    lock.acquire();
    fs.writeFileSync(file, owner(process.pid, host, Date.now()));
    lock.release();
    assert.ok(fs.existsSync(file), 'the other owner\'s lock must stay');
    assert.match(warnings.join('\n'), /took over the database lock while this one held it/);
  });

  it('the lock file appears complete, refreshes by touching it, and leaves no side files', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    const lock = new FileLock(file, { staleMs: 30_000, timeoutMs: 1000, warn: () => undefined });
    lock.acquire();
    const raw = fs.readFileSync(file, 'utf8');
    assert.equal(JSON.parse(raw).hostname, os.hostname());
    const old = (Date.now() - 20_000) / 1000;
    fs.utimesSync(file, old, old);
    const before = Date.now();
    lock.refresh();
    // Times travel to the file system as seconds in a double, so one set within the millisecond of
    // `before` can read back a hair below it: 1 ms of slack, against the 20 s it was moved by.
    assert.ok(fs.statSync(file).mtimeMs >= before - 1, 'the heartbeat moved its time to now');
    assert.equal(fs.readFileSync(file, 'utf8'), raw);
    lock.release();
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('removes side files of acquirers that died long ago, and keeps young ones', () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'pincer.lock');
    const orphan = `${file}.0123456789abcdef`;
    const young = `${file}.fedcba9876543210`;
    fs.writeFileSync(orphan, '{}');
    fs.writeFileSync(young, '{}');
    const old = (Date.now() - 120_000) / 1000;
    fs.utimesSync(orphan, old, old);
    FileLock.removeOrphans(file);
    assert.deepEqual(fs.readdirSync(dir), [path.basename(young)]);
  });
});
