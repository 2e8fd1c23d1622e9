// What "Always allow" stores, and which rules a person may keep. GoClaw's approvals matched the
// first word and lived in memory, and seven advisories followed (`allowed && payload`, `env sh -c`,
// `sort -o`, `grep -R`, another path, basename reuse). Here a rule is one asking segment's resolved
// canonical executable plus its exact arguments (escaped, so `*` in an argument is not a wildcard);
// the judge matches every segment on its own (command-judge.ts), and when no exact rule can say
// what a command does, "Always allow" is not offered at all, with the reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approvalFor, globEscape, isBlanketArgs, needsArgumentPattern, resolveExecutable, UNPINNED_ASKS, UNPINNED_WRITE, writesPinned } from './command-allowlist';
import { unwrapInner } from './command-flow';
import { nextCwd } from './command-cwd';
import type { AllowlistEntry } from './command-policy';
import type { SegmentVerdict, Verdict } from './command-types';
import { viewOf, type SegmentView } from './command-view';
import { isExecutableFile } from '../fs/executable-file';

export type AlwaysRules = { entries: AllowlistEntry[] } | { unavailable: string };

const PROBLEM_WORDS: Record<Verdict['problems'][number]['kind'], string> = {
  syntax: 'it does not parse cleanly',
  'dynamic-command': 'the program to run is only known at run time',
  eval: 'part of it runs as code the policy cannot see',
  'too-deep': 'it is nested too deeply to judge',
  'too-long': 'it is too long to judge',
  unsupported: 'it uses a construct the judge does not model',
};

/**
 * The rules "Always allow" would store for a verdict that asks: one per asking segment (and per
 * command a wrapper runs), or why none can be offered. `cwd` is where the command starts.
 */
export function alwaysRulesFor(verdict: Verdict, cwd: string, home: string = os.homedir()): AlwaysRules {
  if (verdict.decision === 'deny') return { unavailable: 'the command is denied, and an approval never lifts a deny' };
  if (verdict.problems.length) {
    const why = [...new Set(verdict.problems.map((p) => PROBLEM_WORDS[p.kind]))].join('; ');
    return { unavailable: `the command cannot be read exactly (${why}), so it is confirmed every time` };
  }
  const entries: AllowlistEntry[] = [];
  let here: string | undefined = cwd;
  for (const s of verdict.segments) {
    const v = viewOf(s.segment);
    if (s.decision === 'ask') {
      const inner = unwrapInner(s.segment);
      const why = notPinnable(s, [v, ...inner.map((a) => viewOf(s.segment, a))]);
      if (why) return { unavailable: why };
      for (const x of inner.length ? [v, viewOf(s.segment, inner[inner.length - 1])] : [v]) {
        const rule = exactRule(x, here);
        if (typeof rule === 'string') return { unavailable: rule };
        if (!entries.some((e) => e.executable === rule.executable && e.args === rule.args)) entries.push(rule);
      }
    }
    here = nextCwd(v, here, home);
  }
  if (!entries.length) return { unavailable: 'nothing in this command asks for approval' };
  return { entries };
}

function quoted(v: SegmentView): string {
  return `\`${[v.exe, ...v.args].join(' ')}\``;
}

/** Reasons that are about the segment as a whole (`views`: it and the commands its wrappers run). */
function notPinnable(s: SegmentVerdict, views: SegmentView[]): string | undefined {
  const what = quoted(viewOf(s.segment));
  if (s.group === undefined) return "pincer.exec.ask is 'always': every command is confirmed, so a stored approval would never be used";
  if (Object.hasOwn(UNPINNED_ASKS, s.group)) return `${what} cannot be approved for always: ${UNPINNED_ASKS[s.group]}`;
  if (s.group === 'write' && !writesPinned(views)) return `${what} cannot be approved for always: ${UNPINNED_WRITE}`;
  if (s.segment.argv.some((w) => w.dynamic)) return `${what} has a part known only at run time ($VAR, $(…), a glob), so no exact rule can say what it runs`;
  return undefined;
}

/** The exact rule for one argv, or why there is none. */
function exactRule(v: SegmentView, cwd: string | undefined): AllowlistEntry | string {
  const what = quoted(v);
  if (/[^\x20-\x7e]/.test(v.exe) || v.args.some((a) => /[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/.test(a)))
    return `${what} cannot be approved for always: ${UNPINNED_ASKS.unicode}`;
  if (v.args.some((a) => a === '' || /\s/.test(a)))
    return `${what} has an empty argument or one with spaces inside; approvals compare arguments joined by spaces, so an exact rule could not tell \`a b\` from \`a\` \`b\``;
  if (v.exe.includes('/') && !path.isAbsolute(v.exe) && cwd === undefined)
    return `${what} runs ${v.exe} after a cd to a folder known only at run time, so which file that is cannot be pinned`;
  const exe = resolveExecutable(v.exe, cwd ?? '/');
  if (!exe || !isExecutableFile(exe))
    return `${v.exe || 'the command'} is a shell builtin or was not found${v.exe.includes('/') ? '' : ' on PATH'}, so there is no program file an approval could name`;
  if (!v.args.length && (needsArgumentPattern(v.name) || needsArgumentPattern(path.basename(exe).toLowerCase())))
    return `${what} runs whatever it reads from its input or its configuration (an interpreter or package manager without arguments), which an approval cannot pin`;
  const rule: AllowlistEntry = { executable: exe, args: globEscape(v.args.join(' ')) };
  return validateRule(rule) ?? rule;
}


/**
 * Checks a rule a person keeps or edits (Manage Command Approvals, and every rule the store adds):
 * the message says what is wrong and what to write instead; undefined when it is fine.
 */
export function validateRule(entry: AllowlistEntry): string | undefined {
  const exe = entry.executable;
  if (typeof exe !== 'string' || !exe.trim() || !path.isAbsolute(exe) || /[\0\n\r]/.test(exe))
    return `The executable must be an absolute path to the program (such as /usr/bin/git), not "${String(exe)}": a bare name would match whatever PATH finds first.`;
  if (entry.args !== undefined && (typeof entry.args !== 'string' || entry.args.includes('\0'))) return 'The argument pattern must be text without NUL characters.';
  const names = [path.basename(exe).toLowerCase(), path.basename(canonical(exe)).toLowerCase()];
  const name = names.find(needsArgumentPattern);
  if (name === undefined) return undefined;
  const why = `${name} runs whatever its arguments say (an interpreter, package manager or program launcher)`;
  if (isBlanketArgs(entry.args) || !entry.args?.trim())
    return `An approval of ${exe} must pin its arguments: ${why}, so any arguments, or none, would allow anything. Give the exact arguments, such as \`test\` for npm test or \`scripts/build.py\` for python3.`;
  if (/^[*?]/.test(entry.args))
    return `The argument pattern for ${exe} must start with fixed text: ${why}, and a leading wildcard would let any arguments come first.`;
  return undefined;
}

function canonical(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/**
 * The entries a verdict's approved segments used (for ApprovalStore.touch): the judge marks them
 * with the group 'approval'. Matched again here without following cd, which is enough for "last used".
 */
export function approvalsUsed<T extends AllowlistEntry>(verdict: Verdict, entries: readonly T[], cwd: string): T[] {
  const used = new Set<T>();
  for (const s of verdict.segments) {
    if (s.group !== 'approval') continue;
    const hit = approvalFor(viewOf(s.segment), unwrapInner(s.segment), entries, cwd);
    if (hit) used.add(hit as T);
  }
  return [...used];
}
