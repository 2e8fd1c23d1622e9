// Builds the one combined RegExp from the rules and runs it. The layout is what makes one pass
// fast in V8's backtracking engine, which tries the alternatives one after another at every text
// position it cannot skip:
//   - rules sharing an anchor character are one alternative `anchor(?:…|…)`, so a position is
//     rejected by one character test, not one test per rule;
//   - inside an anchor group, consecutive rules sharing a guard (a cheap lookbehind) are wrapped in
//     it, so e.g. a `:` after `"name"` is rejected once instead of by five keyword lookbehinds;
//   - the matches are walked with `exec` rather than `String.replace` with a callback, which was
//     measured about twice as slow on a pattern with this many named groups.
import { defaultRender, type ScrubGroups, type ScrubRule } from './scrub-rule';

type Render = (g: ScrubGroups, placeholder: string, match: string) => string;

export interface Combined {
  readonly re: RegExp;
  readonly names: readonly string[];
  readonly renders: readonly Render[];
}

function groupSource(members: readonly ScrubRule[]): string {
  const runs: { guard?: string; parts: string[] }[] = [];
  for (const r of members) {
    const part = `(?<${r.name}>${r.source})`;
    const run = runs[runs.length - 1];
    if (run && r.guard !== undefined && run.guard === r.guard) run.parts.push(part);
    else runs.push({ guard: r.guard, parts: [part] });
  }
  return runs.map((run) => (run.guard === undefined ? run.parts.join('|') : `${run.guard}(?:${run.parts.join('|')})`)).join('|');
}

/** Rules sharing an anchor become one alternative, placed where the first of them stands. */
export function combine(rules: readonly ScrubRule[]): Combined {
  const groups: { anchor?: string; members: ScrubRule[] }[] = [];
  for (const r of rules) {
    const group = r.anchor === undefined ? undefined : groups.find((g) => g.anchor === r.anchor);
    if (group) group.members.push(r);
    else groups.push({ anchor: r.anchor, members: [r] });
  }
  const source = groups.map((g) => (g.anchor === undefined ? groupSource(g.members) : `${g.anchor}(?:${groupSource(g.members)})`));
  return {
    re: new RegExp(source.join('|'), 'g'),
    names: rules.map((r) => r.name),
    renders: rules.map((r) => {
      const render = r.render ?? defaultRender(r.name);
      // The anchor character was consumed outside the rule's own group: put it back.
      return r.anchor === undefined ? render : (g: ScrubGroups, p: string, match: string) => match[0] + render(g, p, match);
    }),
  };
}

/** One pass of the combined pattern over `text`. Returns `text` itself when nothing matched. */
export function runCombined(c: Combined, text: string, placeholder: string): string {
  const { re, names, renders } = c;
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const g = m.groups as ScrubGroups;
    let replacement = m[0];
    for (let i = 0; i < names.length; i++) {
      if (g[names[i]] !== undefined) {
        replacement = renders[i](g, placeholder, m[0]);
        break;
      }
    }
    out += text.slice(last, m.index) + replacement;
    last = m.index + m[0].length;
  }
  return last === 0 ? text : out + text.slice(last);
}
