// Every beginning of every long option the judge knows is judged like the option it could be: the
// lines are made from the option tables themselves (command-option-tables.ts), so a table that grows
// is tried too. For each program a table is parsed for, each option is written in full and by its
// beginnings of one, two and three characters (and the shortest its table allows), with `=value` and
// as a separate word, before several values and operands; the beginning's decision must be the full
// spelling's when one known option has it, and at least as strict as each one's when several share it.
import assert from 'node:assert/strict';
import { OPTION_TABLES } from '../../../src/core/exec/command-option-tables';
import type { Decision } from '../../../src/core/exec/command-types';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

/** Values an option could be handed that some rule reads: a program, a secret path, a URL, a setting, a count, a method, a payload file. */
const VALUES = ['sh', '/etc/passwd', 'https://evil.example/r.git', 'core.hooksPath=/tmp/h', '0', 'DELETE', '@/etc/shadow', './x.vsix'];
/** What follows the option: an operand, the root folder, a subcommand that sends. */
const TAILS = ['x', '/', 'push https://evil.example/r.git'];
const RANK: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, deny: 2 };

/** Beginnings of `name` worth trying: one, two, three characters, and the shortest no other known option has. */
function beginningsOf(name: string, known: readonly string[]): string[] {
  const out = new Set([1, 2, 3].filter((n) => n < name.length).map((n) => name.slice(0, n)));
  for (let n = 1; n < name.length; n++) {
    const b = name.slice(0, n);
    if (known.filter((k) => k.startsWith(b)).length === 1) { out.add(b); break; }
  }
  // A beginning that is another known option's full name means that option, not this one.
  return [...out].filter((b) => !known.includes(b));
}

describe('exec judge: option beginnings judged like the option', () => {
  after(removeTempDirs);

  it('every beginning of every known long option, in every table, decides as the option(s) it could be', async function () {
    this.timeout(600_000); // tens of thousands of judgements on a shared, loaded machine
    const { judge } = judgeIn();
    const decided = new Map<string, Decision>();
    const decide = async (line: string): Promise<Decision> => {
      let d = decided.get(line);
      if (d === undefined) { d = (await judge(line)).decision; decided.set(line, d); }
      return d;
    };
    const wrong: string[] = [];
    let tried = 0;
    // The options known for each command line, over every table parsed for it.
    const byProbe = new Map<string, { takesValue: Set<string>; known: Set<string> }>();
    for (const { probes, spec } of OPTION_TABLES) {
      for (const probe of probes) {
        const p = byProbe.get(probe) ?? { takesValue: new Set<string>(), known: new Set<string>() };
        for (const n of spec.longValue ?? []) { p.takesValue.add(n); p.known.add(n); }
        for (const n of spec.longFlag ?? []) p.known.add(n);
        byProbe.set(probe, p);
      }
    }
    for (const [probe, p] of byProbe) {
      const takesValue = [...p.takesValue];
      const known = [...p.known];
      for (const name of known) {
        // An option with a value: `=value` and the separate word; one without: alone.
        const forms = takesValue.includes(name)
          ? VALUES.flatMap((v) => [(o: string) => `--${o}=${v}`, (o: string) => `--${o} ${v}`])
          : [(o: string) => `--${o}`];
        for (const b of beginningsOf(name, known)) {
          // A beginning some option with a value shares is read as that option (the program refuses
          // it as ambiguous): the options it could be are the ones of that kind.
          const all = known.filter((k) => k.startsWith(b));
          const could = all.some((k) => takesValue.includes(k)) ? all.filter((k) => takesValue.includes(k)) : all;
          for (const form of forms) {
            for (const tail of TAILS) {
              const line = `${probe} ${form(b)} ${tail}`;
              const got = await decide(line);
              tried++;
              const full: { k: string; d: Decision }[] = [];
              for (const k of could) full.push({ k, d: await decide(`${probe} ${form(k)} ${tail}`) });
              const ok = all.length === 1 ? got === full[0].d : full.every((f) => RANK[got] >= RANK[f.d]);
              if (!ok) wrong.push(`${line} → ${got}; ${full.map((f) => `--${f.k}: ${f.d}`).join(', ')}`);
            }
          }
        }
      }
    }
    console.log(`      ${tried} beginnings tried over ${byProbe.size} command lines`);
    assert.ok(tried > 10_000, `only ${tried} lines tried`);
    assert.deepEqual(wrong.slice(0, 40), [], `${wrong.length} beginnings judged unlike their option:\n${wrong.slice(0, 40).join('\n')}`);
  });
});
