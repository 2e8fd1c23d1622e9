// skill_search's ranking: BM25 over a skill's name, description and instructions, kept in memory and
// built again only when the skills change (the catalog rebuilds it lazily after a watcher says so).
// Skills live in files, not in the workspace database, so there is no table for the storage worker to
// rank; a query only adds up precomputed postings (bench/skill-search.mjs: 1,000 skills, p50 0.6 ms
// per skill_search call through the pipeline, on a machine at load 16).
import { tokens } from '../mcp/tool-search';
import { bm25Term } from '../memory/bm25';
import type { Skill } from './skill-file';

/** A hit in the name says more than one in the description, which says more than one in the body. */
const WEIGHTS = [3, 2, 1] as const;

/** Per word: the skills that hold it and what the word adds to each one's score. */
interface Posting {
  docs: number[];
  weights: number[];
}

function counts(text: string): { counts: Map<string, number>; len: number } {
  const out = new Map<string, number>();
  const words = tokens(text);
  for (const w of words) out.set(w, (out.get(w) ?? 0) + 1);
  return { counts: out, len: words.length };
}

export class SkillIndex {
  private readonly skills: readonly Skill[];
  /**
   * Every input of a word's BM25 term in a skill (its count, the field's length and average, how many
   * skills hold it) is fixed once the set of skills is, so each term is computed here, once: a query
   * only adds up the postings of its words.
   */
  private readonly postings = new Map<string, Posting>();

  constructor(skills: readonly Skill[]) {
    this.skills = skills;
    const fields = skills.map((s) => [counts(s.name), counts(s.description), counts(s.body)]);
    const n = skills.length;
    const avg = WEIGHTS.map((_, i) => fields.reduce((sum, f) => sum + f[i].len, 0) / Math.max(1, n));
    const df = WEIGHTS.map(() => new Map<string, number>());
    for (const f of fields) f.forEach((c, i) => {
      for (const w of c.counts.keys()) df[i].set(w, (df[i].get(w) ?? 0) + 1);
    });
    fields.forEach((f, doc) => {
      const score = new Map<string, number>();
      f.forEach((c, i) => {
        for (const [w, tf] of c.counts) score.set(w, (score.get(w) ?? 0) + WEIGHTS[i] * bm25Term(tf, df[i].get(w)!, n, c.len, avg[i]));
      });
      for (const [w, v] of score) {
        let p = this.postings.get(w);
        if (!p) this.postings.set(w, (p = { docs: [], weights: [] }));
        p.docs.push(doc);
        p.weights.push(v);
      }
    });
  }

  /** Best first; skills that match no word of the query are left out; ties keep name order. */
  search(query: string, limit: number): Skill[] {
    if (limit < 1) return [];
    const scores = new Map<number, number>();
    for (const w of new Set(tokens(query))) {
      const p = this.postings.get(w);
      if (!p) continue;
      for (let i = 0; i < p.docs.length; i++) scores.set(p.docs[i], (scores.get(p.docs[i]) ?? 0) + p.weights[i]);
    }
    // The best `limit` without sorting every match: a query of common words matches most skills.
    const best: { doc: number; score: number }[] = [];
    const before = (a: { doc: number; score: number }, b: { doc: number; score: number }) =>
      a.score > b.score || (a.score === b.score && this.skills[a.doc].name < this.skills[b.doc].name);
    for (const [doc, score] of scores) {
      if (score <= 0) continue;
      const e = { doc, score };
      if (best.length === limit && !before(e, best[best.length - 1])) continue;
      let at = best.length;
      while (at > 0 && before(e, best[at - 1])) at--;
      best.splice(at, 0, e);
      if (best.length > limit) best.pop();
    }
    return best.map((e) => this.skills[e.doc]);
  }
}
