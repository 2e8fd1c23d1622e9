// The environment a command starts with: the editor's own, without the variables that make programs
// load or run something else (sanitizeEnv), plus settings that keep a command from waiting forever
// for a person who is not there: no pager, no git credential prompt.
import { sanitizeEnv } from './command-env';

const NON_INTERACTIVE: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  // Progress bars and colours meant for a person only bloat what the model reads.
  NO_COLOR: '1',
};

export function execEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const { env } = sanitizeEnv(base);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return { ...out, ...NON_INTERACTIVE };
}
