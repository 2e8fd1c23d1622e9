// Node's own watch on a few known folders, beside VS Code's file watcher. The workspace's recursive
// watcher never looks inside a folder that was created together with its parent (`mkdir -p a/b`,
// a checkout) before it had looked into the parent: nothing written, changed or deleted in `b` is
// ever reported. A direct watch on `b` sees all of it.
import * as fs from 'fs';

export class DirWatchers {
  private readonly watching = new Map<string, { watcher: fs.FSWatcher; ino: number }>();

  constructor(private readonly onEvent: () => void) {}

  /** Watches those of `dirs` that exist now; stops watching the others. */
  set(dirs: readonly string[]): void {
    const wanted = new Set(dirs);
    for (const [dir, w] of this.watching) {
      // A folder deleted and made again is a new folder: the old watch sees nothing of it.
      if (!wanted.has(dir) || inode(dir) !== w.ino) this.stop(dir);
    }
    for (const dir of wanted) {
      const ino = inode(dir);
      if (ino === undefined || this.watching.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, { persistent: false }, () => this.onEvent());
        watcher.on('error', () => this.stop(dir));
        this.watching.set(dir, { watcher, ino });
      } catch {
        // Gone between the stat and the watch: the folder watcher reports it if it comes back.
      }
    }
  }

  dispose(): void {
    for (const dir of [...this.watching.keys()]) this.stop(dir);
  }

  private stop(dir: string): void {
    this.watching.get(dir)?.watcher.close();
    this.watching.delete(dir);
  }
}

function inode(dir: string): number | undefined {
  try {
    const st = fs.statSync(dir);
    return st.isDirectory() ? st.ino : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A glob for workspace-relative `files` (the last part may be a pattern) that also matches every
 * folder above them: a folder created with its files already in it is reported alone, without
 * them, and so is a deleted one.
 */
export function filesAndFoldersGlob(files: readonly string[]): string {
  const all = new Set<string>();
  for (const file of files) {
    const parts = file.split(/[\\/]/);
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/'));
  }
  return `{${[...all].join(',')}}`;
}
