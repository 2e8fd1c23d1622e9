// The judge: policy per segment on the argv the parser produced. Each segment collects findings
// from the per-executable rules (system, network, tools, environment), the write checks through the
// path guard, the cross-segment checks, the regex groups (second layer) and the allowlist; the
// strictest finding decides the segment, the strictest segment decides the command. An allowlist
// entry (configured, or a stored "Always allow") settles a segment's asks in every security mode —
// never a deny, never a parse problem, never an ask its argv cannot pin (UNPINNED_ASKS) — and each
// segment is matched on its own, so an approval of `ls` says nothing about `ls && rm -rf x`.
import os from 'node:os';
import type { Access, PathResolver, ResolvedPath } from '../fs/types';
import type { AllowlistEntry } from './command-policy';
import type { Decision, ParsedCommand, ParseProblem, Segment, SegmentVerdict, Verdict, Word } from './command-types';
import { approvalFor, approvalSettles, isExactArgs, writesPinned } from './command-allowlist';
import { envRules, injectedNames } from './command-env';
import { commandFlow, flowFindings, unwrapInner } from './command-flow';
import { matchGroupPatterns } from './command-groups';
import { GROUP_NAMES, GROUP_TITLES, groupAction, type CommandPolicy, type GroupName } from './command-policy';
import { parseCommand } from './command-parse';
import { argumentPathRules, outputOptionTargets } from './command-paths';
import { codeFinding } from './command-rules-code';
import { endlessSpawning } from './command-rules-exhaust';
import { argumentCommandFindings, contentFindings, fedBy, stagedBy, stagedFindings, type Staged, type StagedJudges } from './command-staged';
import { newRepoLine } from './command-git-line';
import { gitRemoteRule } from './command-git-remotes';
import { packageRunnerRule } from './command-workspace';
import { isInfoForm } from './command-rules-state';
import { leakFlows } from './command-rules-leaks';
import { dispatchOf } from './command-dispatch';
import { ask, deny, viewOf, type Finding, type SegmentView } from './command-view';
import { checkWrite, writeTargets, type WriteTarget } from './command-writes';
import { nextCwd, relativeGoesUp } from './command-cwd';
import { has } from './command-strings';
import { T_ANY, T_BLANK, T_NON_ASCII, T_ODD_HOME, traitsOf } from './command-traits';

/** The per-argv rules and their dispatch live in command-dispatch.ts; re-exported for the bench and tests. */
export { RULES, rulesOf } from './command-dispatch';

export interface JudgeContext {
  /** The working directory the command starts in (inside the workspace). */
  cwd: string;
  /** The workspace path guard; without one, writes must stay under `cwd`. */
  guard?: PathResolver;
  /** For `~`; defaults to os.homedir(). */
  home?: string;
  /** How many written-then-run files deep this judgement is (a script that writes a script …). */
  depth?: number;
}

/** Scripts a command writes and runs are judged in turn, this many levels deep; deeper asks. */
const MAX_STAGED_DEPTH = 3;

/** Tested on every argument of every argv: module-level, since a regex literal in a callback is a new object per call. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const SPACE = /\s/;
const NON_ASCII = /[^\x20-\x7e]/;

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
/** Tools whose arguments are text to search or print: the regex layer would only see mentions. */
const MENTION_TOOLS = /^(grep|egrep|fgrep|rg|ag|ack|echo|printf|print|git|jq|yq|sed|awk|gawk|test|\[|\[\[|true|false|:|printenv|which|type|man|help|whatis|apropos|tldr)$/;

/**
 * Problems the parser reports are never allowed: the shell may read the text differently from the
 * parser, or the command is built at run time. They ask (a person can read the text) — and are
 * denied when ask is 'off', like every other ask.
 */
function problemFinding(p: ParseProblem): Finding {
  const what: Record<ParseProblem['kind'], string> = {
    syntax: 'the command does not parse cleanly, so the shell may read it differently',
    'dynamic-command': 'the program to run is only known at run time',
    eval: 'part of the command is run as code the policy cannot see (eval, source, a shell reading a script)',
    'too-deep': 'wrappers or substitutions are nested too deeply to judge',
    'too-long': 'the command is too long to judge',
    unsupported: 'the command uses a construct the judge does not model',
  };
  return ask('parse', `${what[p.kind]} (${p.detail})`);
}

function worst(fs: Finding[]): Finding | undefined {
  return fs.reduce<Finding | undefined>((a, b) => (!a || RANK[b.decision] > RANK[a.decision] ? b : a), undefined);
}

function describe(f: Finding): string {
  const title = isGroup(f.group) ? ` (${GROUP_TITLES[f.group]})` : '';
  return `${f.group}${title}: ${f.reason}`;
}

/** All rules on one argv (the segment's own, or the command inside a wrapper). */
function rulesFor(v: SegmentView, policy: CommandPolicy, pipedOut: boolean, traits: number): Finding[] {
  // `tcpdump -D`, `amass -version`, `ssh -V`: the program only describes itself.
  if (isInfoForm(v)) return envRules(v);
  const f: Finding[] = [];
  const { rules, when, needs } = dispatchOf(v.name);
  // A gate is asked only when the argv has a trait it needs (command-traits.ts): most are not.
  // Indexed loops: this runs on every argv of every decision, and most rules return [].
  for (let r = 0; r < rules.length; r++) {
    const gate = when[r];
    // A gate that declares no traits (`needs` T_ANY) is always asked, even on an argv with none.
    if (gate !== undefined && ((needs[r] !== T_ANY && (traits & needs[r]) === 0) || !gate(v))) continue;
    const found = rules[r](v, pipedOut);
    for (let k = 0; k < found.length; k++) f.push(found[k]);
  }
  if (v.name === 'env') {
    const pairs = v.words.filter((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)).map((w) => ({ name: w.text.split('=')[0], value: { text: w.text.slice(w.text.indexOf('=') + 1), dynamic: w.dynamic } }));
    const bad = injectedNames(pairs);
    if (bad.length) f.push(deny('env_injection', `env ${bad.join(', ')} makes the program load or run something else`));
  }
  if (NON_ASCII.test(v.exe)) f.push(ask('unicode', 'the program name contains non-ASCII characters that can imitate another command'));
  // BIDI controls are past ASCII: an argv whose arguments are all ASCII has none.
  if ((traits & T_NON_ASCII) !== 0 && someMatch(v.args, BIDI)) f.push(ask('unicode', 'an argument contains bidirectional control characters that hide what it says'));
  if (!MENTION_TOOLS.test(v.name)) {
    let line = v.name;
    for (let k = 0; k < v.args.length; k++) line += ` ${v.args[k]}`;
    const hit = matchGroupPatterns(line, (g) => policy.denyGroups[g] && !f.some((x) => x.group === g));
    if (hit) f.push(ask(hit, `${v.name} looks like ${GROUP_TITLES[hit]}`));
  }
  return f;
}

export async function judgeCommand(parsed: ParsedCommand, policy: CommandPolicy, ctx: JudgeContext): Promise<Verdict> {
  // os.homedir() asks the runtime each time: once a decision (personalWhen reads it itself: the trait is of that home).
  const userHome = os.homedir();
  const home = ctx.home ?? userHome;
  const homeTraits = has(userHome, '/') ? 0 : T_ODD_HOME;
  const segments = parsed.segments;
  if (policy.security === 'deny') {
    const reason = "security: running commands is switched off (pincer.exec.security is 'deny'); set it to 'allowlist' or 'full' to run commands";
    return { decision: 'deny', group: 'security', reason, problems: parsed.problems, segments: segments.map((segment) => ({ segment, decision: 'deny', group: 'security', reason })) };
  }
  const views = segments.map((s) => viewOf(s));
  for (let i = 0; i + 1 < views.length; i++) if (segments[i + 1].joinedBy === '|' || segments[i + 1].joinedBy === '|&') views[i].pipedTo = views[i + 1];
  const flow = commandFlow(parsed, views);
  const commandLevel: Finding[] = parsed.problems.map(problemFinding);
  commandLevel.push(...endlessSpawning(parsed.normalized));
  commandLevel.push(...leakFlows(views));
  const verdicts: SegmentVerdict[] = [];
  let cwd: string | undefined = ctx.cwd;
  const guard = oneDecision(ctx.guard);
  const root = rootHolding(guard, ctx.cwd);
  const staged: Staged[] = [];
  // Key by key, not `{ ...ctx, guard }`: callers' contexts come in several shapes, and the spread copy
  // made this store (and the nested judge's reads) a megamorphic IC miss on every decision.
  const judges = stagedJudges(policy, { cwd: ctx.cwd, guard, home: ctx.home, depth: ctx.depth }, home);
  // Text the command shows being written or fed to a program (order does not matter: `cmake -P <(echo …)`).
  // What each argv writes, worked out once: the staged files and the write checks both need it.
  const writtenOf = views.map(writeTargets);
  const stagedOf = views.map((x, i) => stagedBy(x, writtenOf[i]));
  // Loops rather than flat/flatMap here and below: those builtins cost about a microsecond a call
  // even on empty arrays, and this runs for every argv of every decision.
  const shown: string[] = [];
  for (let i = 0; i < views.length; i++) {
    for (const s of stagedOf[i]) if (s.shown !== undefined) shown.push(s.shown);
    const fed = fedBy(views[i]);
    if (fed !== undefined) shown.push(fed);
  }
  const shownUsed = new Set<number>();
  // Repositories this line clones, creates or gives remotes to, for the pushes after them.
  const repoLine = newRepoLine();
  for (let i = 0; i < segments.length; i++) {
    const v = views[i];
    const pipedOut = segments[i + 1]?.joinedBy === '|' || segments[i + 1]?.joinedBy === '|&';
    const inner = unwrapInner(v.seg);
    // What the parser already listed as a segment of its own (`timeout 9 npx x` → `npx x`) is judged there, once.
    const all = [v];
    for (let k = 0; k < inner.length; k++) if (!listedApart(segments, i, inner[k])) all.push(viewOf(v.seg, inner[k]));
    // What each argv holds, worked out once (command-traits.ts): the rule gates and the tests below read it.
    const traits: number[] = [];
    for (let k = 0; k < all.length; k++) traits.push(traitsOf(all[k]) | homeTraits);
    const f: Finding[] = rulesFor(v, policy, pipedOut, traits[0]);
    for (const x of flowFindings(flow, i)) f.push(x);
    for (let k = 1; k < all.length; k++) pushAll(f, rulesFor(all[k], policy, pipedOut, traits[k]));
    // A whitespace character is an ASCII blank or past ASCII: an argv with neither holds no command line in an argument.
    for (let k = 0; k < all.length; k++) {
      const x = all[k];
      if ((traits[k] & (T_BLANK | T_NON_ASCII)) !== 0 && !MENTION_TOOLS.test(x.name) && someMatch(x.args, SPACE)) f.push(...(await argumentCommandFindings(x, judges)));
    }
    const pathContext = { cwd, home, guard };
    for (let k = 0; k < all.length; k++) {
      const x = all[k];
      for (const y of argumentPathRules(x, pathContext, root, traits[k])) f.push(y);
      for (const y of packageRunnerRule(x, cwd, root)) f.push(y);
      for (const y of gitRemoteRule(x, cwd, root, repoLine)) f.push(y);
    }
    if (staged.length) {
      for (const x of all) {
        const found = stagedFindings(x, staged, judges);
        pushAll(f, Array.isArray(found) ? found : await found);
      }
    }
    if (shown.length && !shownUsed.has(0)) {
      const found = (await Promise.all(all.map((x) => contentFindings(x, shown, judges)))).flat();
      if (found.length) { f.push(...found); shownUsed.add(0); }
    }
    const written = [writtenOf[i]];
    for (let k = 1; k < all.length; k++) written.push(writeTargets(all[k]));
    pushAll(staged, stagedOf[i]);
    for (let k = 1; k < all.length; k++) pushAll(staged, stagedBy(all[k], written[k]));
    const targets: WriteTarget[] = [];
    for (let k = 0; k < written.length; k++) pushAll(targets, written[k]);
    for (let k = 0; k < all.length; k++) pushAll(targets, outputOptionTargets(all[k]));
    for (const t of targets) {
      const checked = checkWrite(t, { cwd, guard, root: ctx.cwd, home });
      const w = checked instanceof Promise ? await checked : checked;
      if (w) f.push(w);
    }
    const approved = approvalFor(v, inner, policy.allowlist, cwd);
    if (policy.security === 'allowlist' && !approved)
      f.push(ask('allowlist', `${v.exe || 'the command'} is not in the exec allowlist (pincer.exec.allowlist) or the workspace's approvals with these arguments`));
    cwd = nextCwd(v, cwd, home);
    const on = withActions(f, policy);
    // Only an ask is ever settled, so most segments never need to know (writesPinned re-reads the targets).
    let pinned: boolean | undefined;
    const settles = (x: Finding, exact: boolean) => x.decision === 'ask' && approvalSettles(x.group, { pinned: (pinned ??= writesPinned(all)), exact });
    const settled = approved && on.every((x) => settles(x, isExactArgs(approved.args))) && (on.length > 0 || policy.security === 'allowlist');
    verdicts.push(settled ? approvedVerdict(v.seg, approved, on, policy) : segmentVerdict(v.seg, on, policy, (x) => settles(x, true)));
  }
  return combine(parsed, verdicts, withActions(commandLevel, policy), policy);
}

/** The first of the guard's roots that holds `cwd` (path.relative from it does not start with `..`), else `cwd`. */
function rootHolding(guard: PathResolver | undefined, cwd: string): string {
  if (!guard) return cwd;
  const roots = guard.roots;
  for (let k = 0; k < roots.length; k++) if (!relativeGoesUp(roots[k], cwd)) return roots[k];
  return cwd;
}

/** `list.some((a) => re.test(a))` without the closure (every argv of every decision). */
function someMatch(list: readonly string[], re: RegExp): boolean {
  for (let k = 0; k < list.length; k++) if (re.test(list[k])) return true;
  return false;
}

/** `out.push(...xs)` without the spread, which costs a builtin call even for the empty lists most rules return. */
function pushAll<T>(out: T[], xs: readonly T[]): void {
  for (let k = 0; k < xs.length; k++) out.push(xs[k]);
}

/**
 * Whether the parser listed `argv`, a command segment `i` wraps, as a later segment of its own: a
 * wrapped segment keeps its wrapper's text, redirections and assignments, so its rules see at least
 * as much as they would here.
 */
function listedApart(segments: readonly Segment[], i: number, argv: readonly Word[]): boolean {
  const text = segments[i].text;
  for (let j = i + 1; j < segments.length; j++) {
    const s = segments[j];
    if (s.context !== 'wrapped' || s.text !== text || s.argv.length !== argv.length) continue;
    if (s.argv.every((w, k) => w.text === argv[k].text && w.dynamic === argv[k].dynamic)) return true;
  }
  return false;
}

/**
 * The guard as one decision sees it: each path resolved once per access, however many rules and
 * argvs name it (the judge looks at the disk as it is at that moment). Nothing outlives the decision.
 */
function oneDecision(guard: PathResolver | undefined): PathResolver | undefined {
  return guard?.resolveSync ? new OneDecision(guard) : guard;
}

/** oneDecision's guard: a class, so every decision's has one shape and no closures are made per decision. */
class OneDecision implements PathResolver {
  readonly roots: readonly string[];
  private readonly seen = new Map<string, { ok: ResolvedPath } | { err: unknown }>();

  constructor(private readonly guard: PathResolver) {
    this.roots = guard.roots;
  }

  resolve(input: string, access: Access): Promise<ResolvedPath> {
    return this.guard.resolve(input, access);
  }

  isDenied(abs: string): boolean {
    return this.guard.isDenied(abs);
  }

  resolveSync(input: string, access: Access): ResolvedPath {
    const key = `${access}\0${input}`;
    let r = this.seen.get(key);
    if (!r) {
      try { r = { ok: this.guard.resolveSync!(input, access) }; } catch (err) { r = { err }; }
      this.seen.set(key, r);
    }
    if ('err' in r) throw r.err;
    return r.ok;
  }
}

/** How a file written and then run in the same command is judged: as a command line, or as code. */
function stagedJudges(policy: CommandPolicy, ctx: JudgeContext, home: string): StagedJudges {
  const depth = (ctx.depth ?? 0) + 1;
  return {
    async shell(text) {
      if (depth > MAX_STAGED_DEPTH) return ask('code_injection', 'scripts that write and run scripts are nested too deeply to judge');
      const v = await judgeCommand(await parseCommand(text), policy, { cwd: ctx.cwd, guard: ctx.guard, home, depth });
      if (v.decision === 'allow') return undefined;
      const group = (v.group && v.group !== 'approval' ? v.group : 'code_injection') as Finding['group'];
      return { decision: v.decision, group, reason: v.reason };
    },
    code: (lang, code) => codeFinding('the file', lang, code),
  };
}

function isGroup(g: string): g is GroupName {
  return (GROUP_NAMES as readonly string[]).includes(g);
}

/** Findings of groups that are off are dropped; a group whose action is 'ask' asks instead of denying. */
function withActions(fs: Finding[], policy: CommandPolicy): Finding[] {
  const out: Finding[] = [];
  for (const f of fs) {
    if (!isGroup(f.group)) { out.push(f); continue; }
    if (policy.denyGroups[f.group] === false) continue;
    out.push(f.decision === 'deny' && !f.fixed && groupAction(policy, f.group) === 'ask' ? { ...f, decision: 'ask' } : f);
  }
  return out;
}

/** ask 'off': nobody is there to answer, so what would ask is denied; 'always': every allow asks. */
function applyAsk(d: Decision, policy: CommandPolicy): Decision {
  if (d === 'ask' && policy.ask === 'off') return 'deny';
  if (d === 'allow' && policy.ask === 'always') return 'ask';
  return d;
}

function segmentVerdict(segment: Segment, findings: Finding[], policy: CommandPolicy, settleable: (f: Finding) => boolean): SegmentVerdict {
  let w = worst(findings);
  // Among asks, show one an exact approval cannot settle: the prompt then does not offer "Always
  // allow" for a rule that would not be used (approval-rules.ts reads the group).
  if (w?.decision === 'ask') w = findings.find((x) => x.decision === 'ask' && !settleable(x)) ?? w;
  if (!w) {
    const decision = applyAsk('allow', policy);
    return { segment, decision, reason: decision === 'allow' ? 'no rule objects' : "pincer.exec.ask is 'always'" };
  }
  const decision = applyAsk(w.decision, policy);
  const suffix = decision !== w.decision ? " (pincer.exec.ask is 'off', so nothing is asked)" : '';
  return { segment, decision, group: w.group, reason: describe(w) + suffix };
}

/** A segment an allowlist entry or stored approval covers; group 'approval' lets the host find which (approvalsUsed). */
function approvedVerdict(segment: Segment, entry: AllowlistEntry, settled: Finding[], policy: CommandPolicy): SegmentVerdict {
  const decision = applyAsk('allow', policy);
  if (decision !== 'allow') return { segment, decision, reason: "pincer.exec.ask is 'always'" };
  const rule = `${entry.executable}${entry.args === undefined ? ' (any arguments)' : entry.args ? ` ${entry.args}` : ' (no arguments)'}`;
  const w = worst(settled);
  return { segment, decision, group: 'approval', reason: `approved by the rule ${rule}${w ? `, which settles: ${describe(w)}` : ''}` };
}

function combine(parsed: ParsedCommand, segments: SegmentVerdict[], commandLevel: Finding[], policy: CommandPolicy): Verdict {
  const top = worst(commandLevel);
  let decision: Decision = 'allow';
  let group: string | undefined;
  let reason = segments.length ? 'allowed: no rule objects to any part of the command' : 'nothing to run';
  for (const s of segments) {
    if (RANK[s.decision] > RANK[decision]) {
      decision = s.decision;
      group = s.group;
      reason = `\`${s.segment.text || s.segment.argv.map((w) => w.text).join(' ')}\`: ${s.reason}`;
    }
  }
  if (top) {
    const d = applyAsk(top.decision, policy);
    if (RANK[d] > RANK[decision] || (RANK[d] === RANK[decision] && !group)) {
      decision = d;
      group = top.group;
      reason = describe(top) + (d !== top.decision ? " (pincer.exec.ask is 'off', so nothing is asked)" : '');
    }
  }
  const final = segments.length ? decision : applyAsk(decision, policy);
  if (final === 'ask' && decision === 'allow') reason = "pincer.exec.ask is 'always': every command is confirmed";
  // Written out rather than spread (`...(group ? { group } : {})`): the same keys in the same order, without the copy.
  return group ? { decision: final, group, reason, segments, problems: parsed.problems } : { decision: final, reason, segments, problems: parsed.problems };
}
