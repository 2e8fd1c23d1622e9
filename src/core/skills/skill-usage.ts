// How often the person's agents loaded each skill (use_skill), and when last: the Skills view shows it,
// so a person sees which skills earn their place. Kept by the editor for the person, in every workspace.

export interface SkillUse {
  count: number;
  /** Epoch ms of the latest load. */
  lastUsedAt: number;
}

export type SkillUsage = Readonly<Record<string, SkillUse>>;

/** The usage with one more load of `name` at `at`. */
export function countUse(usage: SkillUsage, name: string, at: number): SkillUsage {
  const prev = Object.hasOwn(usage, name) ? usage[name] : undefined;
  return { ...usage, [name]: { count: (prev?.count ?? 0) + 1, lastUsedAt: at } };
}

/** "used 3×" for a row, or nothing for a skill never loaded. */
export function usageLabel(usage: SkillUsage, name: string): string | undefined {
  return Object.hasOwn(usage, name) ? `used ${usage[name].count}×` : undefined;
}
