// Which proposed changes a person must review before they land. `pincer.edits.review`:
//   always              every change is shown as a diff first (the default);
//   auto-approve-globs  changes to files matching pincer.edits.autoApprove land at once, others ask;
//   never               changes land at once.
// Sensitive files ask in every mode: editor and Pincer configuration (`.vscode/*.json`,
// `.pincer/**`) can widen what the agent may do, and dotfiles in the home folder (`~/.bashrc`, …) run
// on the next login. One call's changes are reviewed together: if any of them must be reviewed, all
// are, so a multi-file patch is never half-applied behind the person's back.
import { minimatch } from 'minimatch';
import path from 'node:path';
import type { EditReviewer, ProposedChange, ReviewDecision } from './types';

export type ReviewMode = 'always' | 'auto-approve-globs' | 'never';

export interface ReviewPolicyConfig {
  mode: ReviewMode;
  /** Globs relative to the file's root (`src/**\/*.test.ts`, `docs/**`). */
  autoApprove: string[];
  home: string;
}

export const SENSITIVE_GLOBS = ['.vscode/*.json', '.vscode/**/*.json', '.pincer/**', '.devcontainer/**', '.github/workflows/**'];

export function isSensitive(change: ProposedChange, home: string): boolean {
  const { abs, rel } = change.path;
  if (SENSITIVE_GLOBS.some((g) => minimatch(rel, g, { dot: true, nocase: true }))) return true;
  const fromHome = path.relative(home, abs);
  const inHome = fromHome !== '' && !fromHome.startsWith('..') && !path.isAbsolute(fromHome);
  return inHome && fromHome.split(path.sep)[0].startsWith('.');
}

export function needsReview(change: ProposedChange, cfg: ReviewPolicyConfig): boolean {
  if (isSensitive(change, cfg.home)) return true;
  if (cfg.mode === 'never') return false;
  if (cfg.mode === 'always') return true;
  return !cfg.autoApprove.some((g) => minimatch(change.path.rel, g, { dot: true }));
}

/** Sends a call's changes to the interactive reviewer when any needs review, else applies them. */
export class PolicyReviewer implements EditReviewer {
  constructor(
    private readonly interactive: EditReviewer,
    private readonly direct: EditReviewer,
    private readonly config: () => ReviewPolicyConfig,
  ) {}

  review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]> {
    const cfg = this.config();
    const target = changes.some((c) => needsReview(c, cfg)) ? this.interactive : this.direct;
    return target.review(changes, signal);
  }
}
