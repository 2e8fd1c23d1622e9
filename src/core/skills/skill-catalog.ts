// The skills of a window (or a CLI run): discovered on first need and again after invalidate() — the
// host calls it when a watcher sees a SKILL.md (or a folder of skills) change — or when the workspace
// folders or their trust changed since the last look. Disabled skills (the person's choice, by name)
// are kept out of everything the model sees.
import { Emitter } from '../events';
import type { Skill } from './skill-file';
import { SkillIndex } from './skill-index';
import { discoverSkills, type SkillsRead, type SkillSourcesInput } from './skill-sources';

export interface SkillCatalogPorts {
  folders: () => readonly string[];
  home: string;
  trusted: () => boolean;
  /** Names the person turned off; absent: none. */
  disabled?: () => readonly string[];
}

interface Snapshot {
  key: string;
  read: SkillsRead;
  index: SkillIndex;
}

export class SkillCatalog {
  private snapshot: Snapshot | undefined;
  /** Fires after a look at the disk that found a different set of skills or problems. */
  readonly onDidChange = new Emitter<SkillsRead>();

  constructor(private readonly ports: SkillCatalogPorts) {}

  /** The next read looks at the disk again. */
  invalidate(): void {
    const before = this.snapshot;
    this.snapshot = undefined;
    const after = this.current();
    if (!before || fingerprint(before.read) !== fingerprint(after)) this.onDidChange.fire(after);
  }

  /** Every skill found, disabled ones included, with the problems and skipped places. */
  current(): SkillsRead {
    return this.take().read;
  }

  /** The skills the model may see, sorted by name. */
  enabled(): Skill[] {
    const off = new Set(this.ports.disabled?.() ?? []);
    return this.current().skills.filter((s) => !off.has(s.name));
  }

  get(name: string): Skill | undefined {
    return this.enabled().find((s) => s.name === name);
  }

  search(query: string, limit: number): Skill[] {
    const off = new Set(this.ports.disabled?.() ?? []);
    if (!off.size) return this.take().index.search(query, limit);
    return this.take().index.search(query, limit + off.size).filter((s) => !off.has(s.name)).slice(0, limit);
  }

  private take(): Snapshot {
    const input: SkillSourcesInput = { workspaceFolders: this.ports.folders(), home: this.ports.home, workspaceTrusted: this.ports.trusted() };
    const key = JSON.stringify([input.workspaceFolders, input.workspaceTrusted]);
    if (this.snapshot?.key === key) return this.snapshot;
    const read = discoverSkills(input);
    this.snapshot = { key, read, index: new SkillIndex(read.skills) };
    return this.snapshot;
  }
}

function fingerprint(r: SkillsRead): string {
  return JSON.stringify([r.skills.map((s) => [s.name, s.description, s.allowedTools, s.body, s.file]), r.problems, r.skipped]);
}
