// Which shell runs a `{ shell }` target, and how. Shared by the process executor and the sandbox
// (which runs the same argv inside bubblewrap), so both run shell text the same way.
import { resolveExecutable } from '../resolve-executable';
import { isExecutableFile } from '../../fs/executable-file';

let cachedShell: string | undefined;

/**
 * bash when there is one (/bin/bash, else on PATH), else /bin/sh. Resolved once: the judge reasons
 * about bash syntax, so bash is preferred wherever it exists.
 */
export function shellPath(): string {
  if (cachedShell) return cachedShell;
  let found = '/bin/sh';
  if (isExecutableFile('/bin/bash')) found = '/bin/bash';
  else found = resolveExecutable('bash', '/') ?? found;
  cachedShell = found;
  return found;
}


/**
 * The argv that runs `text` in a shell: `[shell, '-c', text]`. Never `-l` or `-i`: no profile or rc
 * file runs, so what runs is exactly the judged text with exactly the given environment.
 */
export function shellArgv(text: string, shell = shellPath(), platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') return ['cmd.exe', '/d', '/s', '/c', text];
  // bash sources ~/.bashrc even with -c when its stdin is a socket (it takes itself for an sshd
  // session), and node's pipes are sockets: --norc keeps the user's rc file out of every run.
  if (/(^|\/)bash$/.test(shell)) return [shell, '--norc', '--noprofile', '-c', text];
  return [shell, '-c', text];
}

/** Single-quotes a word for a POSIX shell: `it's` → `'it'\''s'`. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
