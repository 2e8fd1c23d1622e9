// Refusals the model can act on: each says what happened and which setting widens the boundary.
// Denied paths name the rule and its setting but never suggest a way around it.
import type { DenyHit } from './path-deny';
import { PathError } from './types';

function list(roots: readonly string[]): string {
  if (roots.length === 0) return 'no workspace folder is open';
  const shown = roots.slice(0, 4).join(', ');
  return roots.length > 4 ? `${shown}, …` : shown;
}

function named(input: string, abs: string): string {
  return input === abs ? JSON.stringify(input) : `${JSON.stringify(input)} (${abs})`;
}

export function outsideError(input: string, abs: string, roots: readonly string[]): PathError {
  return new PathError(
    `${named(input, abs)} is outside the workspace (${list(roots)}). ` +
      'To allow it, add its folder to the setting pincer.fs.allowPaths, or turn off pincer.fs.workspaceOnly.',
    'outside',
  );
}

export function symlinkEscapeError(input: string, abs: string): PathError {
  return new PathError(
    `${JSON.stringify(input)} goes through a symbolic link that leads outside the workspace, to ${abs}. ` +
      'Links that stay inside the workspace work; to allow this target, add its folder to the setting pincer.fs.allowPaths ' +
      '(or turn off pincer.fs.workspaceOnly).',
    'symlink-escape',
  );
}

export function deniedError(input: string, abs: string, hit: DenyHit): PathError {
  const why = hit.configurable
    ? `is hidden by the rule ${JSON.stringify(hit.rule)} of the setting pincer.fs.denyPaths`
    : `is inside Pincer's own storage (${hit.rule}), which tools never touch`;
  return new PathError(`${named(input, abs)} ${why}: it cannot be read, written or listed.`, 'denied');
}
