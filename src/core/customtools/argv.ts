// `{{param}}` placeholders in a custom tool's argv. Each is replaced, in one pass, inside the element it
// sits in: a value never becomes two arguments, never reaches a shell, and is never read again for
// placeholders of its own. What cannot be filled is an error, never passed on as text: a placeholder
// whose argument is missing, an argument that is not a single value, and an argument that would
// reach the program as an option (`--output=…` filling a whole element before any `--`).

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
const NUMBER = /^-\d+(\.\d+)?$/;

/** The parameter names an element refers to, in order. */
export function placeholdersIn(element: string): string[] {
  return [...element.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

export type Expanded = { argv: string[] } | { error: string; parameter?: string };

export function expandArgv(command: readonly string[], args: Readonly<Record<string, unknown>>): Expanded {
  const argv: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < command.length; i++) {
    const element = command[i];
    let error: Extract<Expanded, { error: string }> | undefined;
    const filled = element.replace(PLACEHOLDER, (_m, name: string) => {
      const value = single(args[name]);
      if (value === undefined && !error) {
        error = args[name] === undefined
          ? { parameter: name, error: `command[${i}] needs {{${name}}}, but the argument "${name}" was not given. Pass it; nothing ran.` }
          : { parameter: name, error: `The argument "${name}" must be a single string, number or boolean: it fills one argument of the command. Nothing ran.` };
      }
      return value ?? '';
    });
    if (error) return error;
    const whole = WHOLE.exec(element);
    if (whole && !endOfOptions && filled.startsWith('-') && !NUMBER.test(filled)) {
      return {
        parameter: whole[1],
        error: `The argument "${whole[1]}" starts with "-", so the program would read it as an option, not as a value. ` +
          'Pass a value that does not start with "-"; nothing ran.',
      };
    }
    // A `--` the definition wrote itself ends the options: later values are operands whatever they hold.
    if (element === '--') endOfOptions = true;
    argv.push(filled);
  }
  return { argv };
}

function single(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}
