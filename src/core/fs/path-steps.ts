// The path guard's file-system questions, answered synchronously or asynchronously. The resolution
// logic is written once, as a generator that yields each question (realpath, lstat, readlink) and
// receives the answer; a driver runs it with fs.*Sync or fs.promises. Same questions, same order,
// same errors: the two drivers cannot drift apart, because there is only one copy of the logic.
//
// Why both: the file tools resolve with the async driver (a slow network mount must not stall the
// extension host); the exec judge, which checks every write target of a command before it runs, uses
// the sync one — each fs.promises call is a thread-pool round trip (tens to hundreds of µs on a
// busy machine) while the same syscall made synchronously on a local disk costs 1–3 µs.
import * as fs from 'node:fs';

/** One question; lstat answers undefined for a name that does not exist (ENOENT) and throws otherwise. */
export interface FsQuestion {
  op: 'realpath' | 'lstat' | 'readlink';
  path: string;
}

/** Resolution logic as a generator of questions; run it with runSync or runAsync. */
export type FsSteps<T> = Generator<FsQuestion, T, unknown>;

const ENOENT = (err: unknown): boolean => (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

function answerSync(q: FsQuestion): unknown {
  switch (q.op) {
    // realpath(3), as fs.promises.realpath uses (not the JS realpathSync, which walks by hand).
    case 'realpath': return fs.realpathSync.native(q.path);
    // throwIfNoEntry: a missing name is the common case and an exception costs more than the syscall.
    case 'lstat': return fs.lstatSync(q.path, { throwIfNoEntry: false });
    case 'readlink': return fs.readlinkSync(q.path);
  }
}

async function answerAsync(q: FsQuestion): Promise<unknown> {
  switch (q.op) {
    case 'realpath': return fs.promises.realpath(q.path);
    case 'lstat': return fs.promises.lstat(q.path).catch((err: unknown) => (ENOENT(err) ? undefined : Promise.reject(err)));
    case 'readlink': return fs.promises.readlink(q.path);
  }
}

/** Runs `steps` with synchronous calls (each failure is thrown into the generator, as await would). */
export function runSync<T>(steps: FsSteps<T>): T {
  let r = steps.next();
  while (!r.done) {
    let answer: unknown;
    try {
      answer = answerSync(r.value);
    } catch (err) {
      r = steps.throw(err);
      continue;
    }
    r = steps.next(answer);
  }
  return r.value;
}

/** Runs `steps` with fs.promises. */
export async function runAsync<T>(steps: FsSteps<T>): Promise<T> {
  let r = steps.next();
  while (!r.done) {
    let answer: unknown;
    try {
      answer = await answerAsync(r.value);
    } catch (err) {
      r = steps.throw(err);
      continue;
    }
    r = steps.next(answer);
  }
  return r.value;
}

export function* realpathOf(p: string): FsSteps<string> {
  return (yield { op: 'realpath', path: p }) as string;
}

/** The link's own metadata; undefined when nothing has that name. */
export function* lstatOf(p: string): FsSteps<fs.Stats | undefined> {
  return (yield { op: 'lstat', path: p }) as fs.Stats | undefined;
}

export function* readlinkOf(p: string): FsSteps<string> {
  return (yield { op: 'readlink', path: p }) as string;
}
