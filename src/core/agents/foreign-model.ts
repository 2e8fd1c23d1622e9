// Which model a Copilot or Claude Code definition's `model` means among the models the chosen
// provider offers. Those files name models their own way ("sonnet", "Claude Sonnet 4 (copilot)",
// "inherit"); a name that matches nothing the provider has gives undefined, and the child then runs
// on its caller's model rather than failing on a model the provider does not know.

export interface OfferedModel {
  id: string;
  name?: string;
}

/** Claude Code's short names, each matched as a word of an offered model's id. */
const FAMILIES = ['opus', 'sonnet', 'haiku'];

/** Lower case, with runs of spaces, dots and dashes as one '-': "Claude Sonnet 4.5" → "claude-sonnet-4-5". */
function norm(s: string): string {
  return s.toLowerCase().replace(/\((?:copilot|preview)\)/g, '').trim().replace(/[\s._-]+/g, '-');
}

export function mapForeignModel(requested: string, offered: readonly OfferedModel[]): string | undefined {
  const want = norm(requested);
  if (!want || want === 'inherit') return undefined;
  const exact = offered.find((m) => norm(m.id) === want || (m.name !== undefined && norm(m.name) === want));
  if (exact) return exact.id;
  if (FAMILIES.includes(want)) {
    // The newest of the family: ids carry dates or versions, so the last in sort order.
    const family = offered.filter((m) => norm(m.id).split('-').includes(want)).map((m) => m.id).sort();
    return family.at(-1);
  }
  // "claude-sonnet-4" asked, "claude-sonnet-4-20250514" offered: a dated form of the same model
  // (never "claude-sonnet-4-5", which is another model).
  const dated = new RegExp(`^${want.replace(/[^a-z0-9-]/g, '')}-(?:\\d{6,8}|latest)$`);
  const prefixed = offered.filter((m) => dated.test(norm(m.id))).map((m) => m.id).sort();
  return prefixed.at(-1);
}
