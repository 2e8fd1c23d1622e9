// Which per-argv rules the judge runs on an argv, and in what order. Most argvs are everyday
// commands (`cd src`, `git status`, `head -n 20`) that no rule objects to; most rules can object
// only to some programs, or need something most argvs lack (a redirection, a device path, a URL).
// Running every rule on every argv made the rules most of a decision's time, so each rule declares
// what it needs and the judge skips it where that is missing.
import { envConcerns, envRules, envWhen } from './command-env';
import { codeConcerns, codeRules } from './command-rules-code';
import { ADMIN_PROGRAMS, adminConcerns, adminProgramRules, adminRules, adminWhen } from './command-rules-admin';
import { accessGrantRules, attackConcerns, attackRules, attackTailConcerns, attackTailRules, attackTailWhen, attackWhen, CAPTURE_PROGRAMS, ENDLESS_READERS, endlessReadRules, GRANTING_CLIS, NAMED_ATTACK_PROGRAMS, namedAttackRules, watchingRules } from './command-rules-attacks';
import { genericConcerns, genericRules, genericWhen } from './command-rules-generic';
import { gatherConcerns, gatherRules } from './command-rules-gather';
import { networkConcerns, networkRules, networkWhen } from './command-rules-network';
import { remoteConcerns, remoteRules, remoteWhen } from './command-rules-remote';
import { secretsConcerns, secretsRules } from './command-rules-secrets';
import { stateConcerns, stateRules } from './command-rules-state';
import { PRIVILEGE_PROGRAMS, privilegeRules, SYSTEM_PROGRAMS, systemConcerns, systemProgramRules, systemRules, systemTailConcerns, systemTailRules, systemTailWhen } from './command-rules-system';
import { TOOL_PROGRAMS, toolConcerns, toolProgramRules, toolRules, toolWhen } from './command-rules-tools';
import { indirectPathRules } from './command-rules-indirect';
import { leakConcerns, leakRules } from './command-rules-leaks';
import { launcherConcerns, launcherRules, launcherWhen } from './command-rules-launchers';
import { personalConcerns, personalRules, personalWhen } from './command-rules-personal';
import { trustConcerns, trustRules } from './command-rules-trust';
import { windowsStateConcerns, windowsStateRules } from './command-rules-windows-state';
import { loadConcerns, loadRules } from './command-rules-load';
import { infraConcerns, infraRules } from './command-rules-infra';
import { tracksConcerns, tracksRules, tracksWhen } from './command-rules-tracks';
import { unknownProgramRules } from './command-rules-unknown';
import { windowsConcerns, windowsRules } from './command-rules-windows';
import type { Finding, SegmentView } from './command-view';
import { T_ANY, T_ASSIGN, T_ATTACK_OPTION, T_BRACKET, T_DASH0, T_DDASH0, T_DEV, T_DISPLAY, T_DOLLAR0, T_DOT_DIGIT, T_EXE_SLASH, T_ODD_HOME, T_OPERAND, T_PLACE_CHAR, T_RAW_DOLLAR, T_REDIRECT_DEV, T_REDIRECT_IN, T_REDIRECT_OUT, T_SLASH, T_SLASH0, T_TILDE0, T_URL, T_VIA, T_AGENT } from './command-traits';

/** One rule over one argv's view; `pipedOut`: its output goes into the next command of a pipeline. */
export type Rule = (v: SegmentView, pipedOut: boolean) => Finding[];

/** What a rule's checks that do not name the program need in an argv; false: the rule cannot object to it. */
export type Gate = (v: SegmentView) => boolean;

/**
 * A rule (or part of one) that can object only to some programs; `concerns` answers from the name
 * alone. With `when`, it also runs on any other argv that `when` accepts.
 */
export type Scoped = { rule: Rule; concerns: (name: string) => boolean; programs?: readonly string[]; when?: Gate; needs?: number };

/** The program-specific part of a rule, declared with every program name it can object to (see RULES). */
function forPrograms(rule: Rule, programs: readonly string[]): Scoped {
  return { rule, programs, concerns: (name) => PROGRAM_PARTS.get(name)?.has(rule) === true };
}

/**
 * The per-argv rules, in the order their findings are listed (among equally strict findings the
 * first one names the verdict, so the order is part of the result).
 *
 * Dispatch contract for rule authors. A rule listed bare runs on every argv: that is the default,
 * and the right entry for any rule that looks at arguments, redirections or assignments whatever
 * the program. A rule may instead be listed as `{ rule, concerns }` when EVERY finding it can make
 * needs the program's name (SegmentView.name) to be one `concerns` accepts; it then runs only on
 * those argvs. `concerns` must answer from the name alone (its answer is kept per name), and when a
 * case for another program is added to such a rule, `concerns` must accept that name too — or the
 * rule never sees it. A rule whose other checks need something in the argv that most lack (a
 * redirection, a device path, a URL) adds `when`, a cheap test that is true on every argv where
 * those checks could find anything: `{ rule, concerns, when }` runs where either accepts. A new
 * check without a name must be covered by `when`. `needs` (command-traits.ts) names what `when`
 * cannot accept an argv without: the judge calls `when` only on argvs with one of those traits, so
 * a change to `when` that looks at something new must add its trait (without `needs`, `when` is
 * always called). A rule whose programs are a fixed list of names
 * is split instead: its part for those programs is listed through `forPrograms` (looked up in
 * PROGRAM_PARTS, one index from name to parts built once), right where its findings stood, and the
 * rest stays bare. The unit test "rule dispatch" (command-rule-dispatch.test.ts) fails when a
 * scoped rule has a `case` for a name it turns away, or objects on any argv of the corpora that
 * its `concerns` and `when` turn away.
 */
export const RULES: readonly (Rule | Scoped)[] = [
  { rule: systemRules, concerns: systemConcerns }, forPrograms(privilegeRules, PRIVILEGE_PROGRAMS),
  { rule: systemTailRules, concerns: systemTailConcerns, when: systemTailWhen, needs: T_VIA | T_URL | T_DEV | T_REDIRECT_DEV }, forPrograms(systemProgramRules, SYSTEM_PROGRAMS),
  { rule: networkRules, concerns: networkConcerns, when: networkWhen, needs: T_DEV | T_REDIRECT_DEV }, forPrograms(toolProgramRules, TOOL_PROGRAMS), { rule: toolRules, concerns: toolConcerns, when: toolWhen, needs: T_SLASH | T_TILDE0 | T_DOLLAR0 | T_REDIRECT_IN }, { rule: envRules, concerns: envConcerns, when: envWhen, needs: T_ASSIGN }, { rule: remoteRules, concerns: remoteConcerns, when: remoteWhen, needs: T_DDASH0 }, { rule: stateRules, concerns: stateConcerns },
  { rule: secretsRules, concerns: secretsConcerns }, { rule: codeRules, concerns: codeConcerns }, { rule: genericRules, concerns: genericConcerns, when: genericWhen, needs: T_EXE_SLASH | T_OPERAND | T_DASH0 },
  { rule: adminRules, concerns: adminConcerns, when: adminWhen, needs: T_ASSIGN }, forPrograms(adminProgramRules, ADMIN_PROGRAMS),
  forPrograms(namedAttackRules, NAMED_ATTACK_PROGRAMS), { rule: attackRules, concerns: attackConcerns, when: attackWhen, needs: T_EXE_SLASH | T_ASSIGN | T_DISPLAY | T_ATTACK_OPTION },
  forPrograms(endlessReadRules, ENDLESS_READERS), forPrograms(accessGrantRules, GRANTING_CLIS), forPrograms(watchingRules, CAPTURE_PROGRAMS),
  { rule: attackTailRules, concerns: attackTailConcerns, when: attackTailWhen, needs: T_EXE_SLASH | T_REDIRECT_DEV | T_DEV | T_ATTACK_OPTION | T_RAW_DOLLAR | T_SLASH0 | T_URL | T_BRACKET | T_DOT_DIGIT }, { rule: gatherRules, concerns: gatherConcerns },
  { rule: windowsRules, concerns: windowsConcerns }, { rule: infraRules, concerns: infraConcerns }, { rule: tracksRules, concerns: tracksConcerns, when: tracksWhen, needs: T_REDIRECT_OUT }, indirectPathRules,
  { rule: leakRules, concerns: leakConcerns }, { rule: launcherRules, concerns: launcherConcerns, when: launcherWhen, needs: T_AGENT | T_ASSIGN }, { rule: personalRules, concerns: personalConcerns, when: personalWhen, needs: T_PLACE_CHAR | T_ODD_HOME }, { rule: trustRules, concerns: trustConcerns },
  { rule: windowsStateRules, concerns: windowsStateConcerns }, { rule: loadRules, concerns: loadConcerns }, unknownProgramRules,
];

/** Program name → the program-specific rule parts that can object to it: built once, from RULES. */
const PROGRAM_PARTS = new Map<string, Set<Rule>>();
for (const r of RULES) {
  if (typeof r === 'function' || !r.programs) continue;
  for (const name of r.programs) {
    const parts = PROGRAM_PARTS.get(name) ?? new Set<Rule>();
    PROGRAM_PARTS.set(name, parts.add(r.rule));
  }
}

/**
 * The rules a program name meets, in RULES order; `when[i]` set: rules[i] runs only on argvs it
 * accepts, and `when[i]` is asked only of argvs with one of the traits `needs[i]`.
 */
export interface Dispatch {
  rules: Rule[];
  when: (Gate | undefined)[];
  needs: number[];
}

/** Worked out once per name (a pure function of the name). */
const BY_NAME = new Map<string, Dispatch>();

export function dispatchOf(name: string): Dispatch {
  let d = BY_NAME.get(name);
  if (!d) {
    d = { rules: [], when: [], needs: [] };
    for (const r of RULES) {
      const always = typeof r === 'function' || r.concerns(name);
      if (!always && (typeof r === 'function' || !r.when)) continue;
      d.rules.push(typeof r === 'function' ? r : r.rule);
      d.when.push(always || typeof r === 'function' ? undefined : r.when);
      d.needs.push(always || typeof r === 'function' ? T_ANY : r.needs ?? T_ANY);
    }
    if (BY_NAME.size >= 2000) BY_NAME.clear(); // names come from commands: keep the table bounded
    BY_NAME.set(name, d);
  }
  return d;
}

/** The rules every argv of this program meets, whatever its arguments. */
export function rulesOf(name: string): readonly Rule[] {
  const d = dispatchOf(name);
  return d.rules.filter((_, i) => d.when[i] === undefined);
}
