// Shared by the judge tests and the bench: the corpora (data files beside the sources) and a judge
// bound to a real temp workspace and the real PathGuard.
import fs from 'node:fs';
import path from 'node:path';
import { judgeCommand } from '../../../src/core/exec/command-judge';
import { parseCommand } from '../../../src/core/exec/command-parse';
import { DEFAULT_COMMAND_POLICY, type CommandPolicy } from '../../../src/core/exec/command-policy';
import type { Verdict } from '../../../src/core/exec/command-types';
import { makeGuard, makeWorkspace, type TreeSpec } from '../../support/fs-fixtures';

/** From out/test/unit/exec back to test/unit/exec/corpus in the sources. */
export const CORPUS_DIR = path.join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'exec', 'corpus');

/** The corpora: the project's own, and two written from outside without reading the rules. */
export type CorpusName = 'hostile' | 'benign' | 'hostile-classes' | 'benign-docs';

export function corpus(name: CorpusName): string[] {
  return fs.readFileSync(path.join(CORPUS_DIR, `${name}.txt`), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
}

/** The held-out sets the rules were not written against, kept in bench/ where exec-holdout.mjs measures them. */
export type HeldOutSet = 'holdout' | 'holdout-2';

export function heldOut(set: HeldOutSet, kind: 'hostile' | 'benign'): string[] {
  const file = path.join(CORPUS_DIR, '..', '..', '..', '..', 'bench', set, `${kind}.txt`);
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
}

export function judgeIn(files: TreeSpec = { 'src/a.ts': 'x', 'package.json': '{}', '.git/HEAD': 'ref' }) {
  const ws = makeWorkspace(files, 'judge');
  const guard = makeGuard([ws.root]);
  const judge = async (command: string, policy: CommandPolicy = DEFAULT_COMMAND_POLICY, cwd = ws.root): Promise<Verdict> =>
    judgeCommand(await parseCommand(command), policy, { cwd, guard });
  return { ws, guard, judge };
}
