// Windows programs that run a command line they are handed: `cmd /c …`, `powershell -Command …`
// (or its operands, or `-EncodedCommand` in base64 UTF-16), `forfiles /c …`, `wmic process call
// create …`. The text is handed on as a script, so what it runs is judged like any command. Windows
// spellings are turned into the ones the rules read: backslashes into slashes (the shell parser
// would take them as escapes) and the user's folder (`%USERPROFILE%`, `$env:USERPROFILE`, `$HOME`)
// into `~`.
import type { Word } from './command-types';
import type { WrapAction } from './command-wrappers';
import { before } from './command-view';
import { replace, toLowerCase } from './command-strings';

/** Windows paths and variables in the spelling the rules read. */
export function posixSpelling(text: string): string {
  return text.replace(/\\/g, '/')
    .replace(/%(userprofile|homepath)%|%homedrive%%homepath%|\$env:(userprofile|homepath)|\$home\b/gi, '~')
    .replace(/%(systemroot|windir)%|\$env:(systemroot|windir)/gi, 'C:/Windows');
}

/** `-EncodedCommand` text: base64 of UTF-16LE; undefined when it is not that. */
export function decodePowerShell(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]{4,}={0,2}$/.test(b64)) return undefined;
  const bytes = Buffer.from(b64, 'base64');
  const text = bytes.toString('utf16le');
  return /^[\x09\x0a\x0d\x20-\x7e]*$/.test(text) ? text : undefined;
}

/** PowerShell options that take a value (long names may be shortened, as PowerShell allows). */
const PS_VALUE = /^[-/](ex|exe|exec|execu|execut|executi|executio|execution|executionp\w*|ep|w|wi|win|wind|windo|window|windows\w*|f|fi|fil|file|conf\w*|inputformat|if|outputformat|of|o|psconsolefile|version|v|workingdirectory|wd|settingsfile|encodedarguments|ea)$/i;

/** Where the code of a PowerShell command line starts: after -Command, or at its first operand (Windows PowerShell's default); -1 for none. */
function powerShellStart(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (/^[-/](c|co|com|comm|comma|comman|command)$/i.test(a)) return i + 1 < args.length ? i + 1 : -1;
    if (/^[-/](e|ec|en|enc|enco|encodedcommand|f|fi|fil|file)$/i.test(a)) return -1;
    if (PS_VALUE.test(a)) { i++; continue; }
    if (/^-/.test(a)) continue;
    // A script file run by name is not code the judge can read here.
    return /\.ps1$/i.test(a) ? -1 : i;
  }
  return -1;
}

/** The code a PowerShell command line runs, when it is given as text. */
export function powerShellText(args: readonly string[]): string | undefined {
  const i = powerShellStart(args);
  return i < 0 ? undefined : args.slice(i).join(' ');
}

function script(label: string, words: Word[], text?: string): WrapAction[] {
  const joined = text ?? words.map((w) => w.text).join(' ');
  if (!joined.trim()) return [];
  return [{ kind: 'script', label, script: { text: posixSpelling(joined), dynamic: words.some((w) => w.dynamic), raw: words.map((w) => w.raw).join(' ') } }];
}

/** The programs windowsActions answers for (its switch's cases). */
const WINDOWS_RUNNERS = new Set(['cmd', 'forfiles', 'wmic', 'powershell', 'pwsh', 'powershell_ise']);

/** What a Windows command runner hands on, or undefined when `name` is not one. */
export function windowsActions(argv: Word[], name: string): WrapAction[] | undefined {
  const n = replace(toLowerCase(name), /\.exe$/, '');
  // Asked for every command the parser meets: the others leave before any list is built.
  if (!WINDOWS_RUNNERS.has(n)) return undefined;
  const words = argv.slice(1);
  const at = (re: RegExp) => words.findIndex((w) => re.test(w.text));
  switch (n) {
    case 'cmd': {
      const i = at(/^\/[ckr]$/i);
      return i >= 0 ? script('cmd /c', words.slice(i + 1)) : [];
    }
    case 'forfiles': {
      const i = at(/^[-/]c$/i);
      return i >= 0 && words[i + 1] ? script('forfiles /c', [words[i + 1]], words[i + 1].text.replace(/0x22/gi, '"')) : [];
    }
    case 'wmic': {
      const i = words.findIndex((w, k) => /^create$/i.test(w.text) && /^call$/i.test(before(words, k)?.text ?? ''));
      return i >= 0 ? script('wmic process call create', words.slice(i + 1)) : [];
    }
    case 'powershell': case 'pwsh': case 'powershell_ise': {
      const texts = words.map((w) => w.text);
      const enc = at(/^[-/](e|ec|en|enc|enco|encodedcommand)$/i);
      const decoded = enc >= 0 ? decodePowerShell(words[enc + 1]?.text ?? '') : undefined;
      if (decoded !== undefined) return script(`${n} -EncodedCommand`, [words[enc + 1]], decoded);
      const start = powerShellStart(texts);
      return start < 0 ? [] : script(`${n} -Command`, words.slice(start));
    }
  }
  return undefined;
}
