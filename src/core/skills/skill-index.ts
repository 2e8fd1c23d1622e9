// skill_search's ranking: BM25 over a skill's name, description and instructions, kept in memory and
// built again only when the skills change (the catalog rebuilds it lazily after a watcher says so).
// Skills live in files, not in the workspace database, so there is no table for the storage worker to
// rank; a thousand skills rank in well under a millisecond here (bench/skill-search.mjs).
import { tokens } from '../mcp/tool-search';
import { bm25Term } from '../memory/bm25';
import type { Skill } from './skill-file';

/** A hit in the name says more than one in the description, which says more than one in the body. */
const WEIGHTS = [3, 2, 1] as const;

interface Field {
  counts: Map<string, number>;
  len: number;
}

function field(text: string): Field {
  const counts = new Map<string, number>();
  const words = tokens(text);
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return { counts, len: words.length };
}

export class SkillIndex {
  private readonly docs: { skill: Skill; fields: Field[] }[];
  private readonly df = WEIGHTS.map(() => new Map<string, number>());
  private readonly avg: number[];

  constructor(skills: readonly Skill[]) {
    this.docs = skills.map((skill) => ({ skill, fields: [field(skill.name), field(skill.description), field(skill.body)] }));
    for (const d of this.docs) {
      d.fields.forEach((f, i) => {
        for (const w of f.counts.keys()) this.df[i].set(w, (this.df[i].get(w) ?? 0) + 1);
      });
    }
    const n = Math.max(1, this.docs.length);
    this.avg = WEIGHTS.map((_, i) => this.docs.reduce((s, d) => s + d.fields[i].len, 0) / n);
  }

  /** Best first; skills that match no word of the query are left out; ties keep name order. */
  search(query: string, limit: number): Skill[] {
    const words = [...new Set(tokens(query))];
    const n = this.docs.length;
    const scored: { skill: Skill; score: number }[] = [];
    for (const d of this.docs) {
      let score = 0;
      for (const w of words) {
        d.fields.forEach((f, i) => {
          const tf = f.counts.get(w);
          if (tf) score += WEIGHTS[i] * bm25Term(tf, this.df[i].get(w)!, n, f.len, this.avg[i]);
        });
      }
      if (score > 0) scored.push({ skill: d.skill, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.skill);
  }
}
