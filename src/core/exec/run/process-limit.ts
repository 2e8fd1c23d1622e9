// A limit on how many processes a sandboxed command may have, so a fork bomb stays contained.
// bubblewrap sets no resource limits itself. The sandbox's first shell sets `ulimit -u`, which the
// kernel counts per user namespace: for an ordinary user it bounds the sandbox alone. The kernel
// does not apply that limit to root, so when Pincer runs as root the command also goes into a pids
// cgroup of its own (v1 `pids` hierarchy or the v2 root), entered before bubblewrap starts.
import fs from 'node:fs';
import path from 'node:path';

export interface ProcessLimit {
  /** argv put in front of bwrap (enters the cgroup, then execs the rest); empty when not needed. */
  prefix: string[];
  /** Removes the cgroup once everything in it has ended (bounded; never throws). */
  release(): Promise<void>;
}

const NONE: ProcessLimit = { prefix: [], release: async () => undefined };
let counter = 0;

/** Where a pids cgroup can be made: the v1 pids hierarchy, or a v2 root with the pids controller. */
function pidsCgroupRoot(): string | undefined {
  const candidates = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup/unified', '/sys/fs/cgroup'];
  for (const root of candidates) {
    try {
      const subtree = path.join(root, 'cgroup.subtree_control');
      const usable = fs.existsSync(subtree)
        ? fs.readFileSync(subtree, 'utf8').split(/\s+/).includes('pids')
        : root.endsWith('/pids') && fs.existsSync(path.join(root, 'cgroup.procs'));
      if (!usable) continue;
      fs.accessSync(root, fs.constants.W_OK);
      return root;
    } catch {
      /* not this one */
    }
  }
  return undefined;
}

/**
 * The limit for one run. Without root nothing is needed beyond the shell's `ulimit -u`. As root, a
 * cgroup with `pids.max`; when none can be made, `problem` says so (the caller runs nothing).
 */
export function prepareProcessLimit(maxProcesses: number, euid = process.geteuid?.() ?? -1): ProcessLimit | { problem: string } {
  if (euid !== 0) return NONE;
  const root = pidsCgroupRoot();
  if (!root) {
    return { problem: 'Pincer runs as root, where the kernel ignores the per-user process limit, and no pids cgroup could be made to limit the sandbox instead' };
  }
  const dir = path.join(root, `pincer-${process.pid}-${++counter}`);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
  } catch (e) {
    try { fs.rmdirSync(dir); } catch { /* never made */ }
    return { problem: `a pids cgroup could not be set up (${e instanceof Error ? e.message : String(e)})` };
  }
  const procs = path.join(dir, 'cgroup.procs');
  return {
    // The shell writes its own pid into the cgroup and becomes bwrap: every descendant is inside.
    prefix: ['/bin/sh', '-c', `echo $$ > '${procs}' && exec "$@"`, 'pincer-limit'],
    release: () => removeWhenEmpty(dir, procs),
  };
}

/** A cgroup can only be removed once empty; what is left of a killed tree takes a moment to go. */
async function removeWhenEmpty(dir: string, procs: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if (!fs.readFileSync(procs, 'utf8').trim()) {
        fs.rmdirSync(dir);
        return;
      }
    } catch {
      return; // already gone
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
