// Windows and PowerShell commands that change the machine's state or hide what happened, judged by
// what they do: system processes killed, everyone given full control of system folders, the
// PowerShell profile (a start-up file) written, the command history switched off, a familiar name
// aliased to a deleting cmdlet, a WMI event subscription (code run on an event, for good), a console
// program started headless, the items a listing of the home folder yields deleted one by one, and
// cmd reading its commands from a pipe or a batch file piping itself into itself.
import { ask, deny, type Finding, type SegmentView, before } from './command-view';

/** Processes Windows cannot run without, or that hold the session together. */
const CRITICAL = /^(explorer|lsass|csrss|winlogon|wininit|services|svchost|smss|dwm|msmpeng|securityhealthservice|system)(\.exe)?$/i;
/** Cmdlets and aliases that delete or stop. */
const DESTRUCTIVE_CMDLET = /^(remove-item|ri|rm|rmdir|del|erase|rd|clear-content|clc|stop-computer|restart-computer|format-volume|clear-disk|remove-partition|stop-process|kill|spps)$/i;
/** Where a listing that is then deleted must not point: the user's folder, another user's, a drive, a system folder. */
const PROTECTED = /^(\$env:(userprofile|homepath|appdata|localappdata|systemroot|windir|systemdrive)|\$home|~|%(userprofile|homepath|appdata|systemroot|windir)%|[a-z]:[\\/]?(users|windows|program files)?|\/(home|Users)\/[^/]+|\$HOME)([\\/]|$)/i;

/** Arguments as written: a POSIX shell drops the backslashes of an unquoted Windows path, the program would not. */
function raw(v: SegmentView): string[] {
  return v.words.map((w) => (w.raw.includes('\\') && !/['"$`]/.test(w.raw) ? w.raw : w.text));
}

function taskkill(args: string[]): Finding[] {
  const lower = args.map((a) => a.toLowerCase());
  const image = lower.find((a, i) => /^[-/]im$/.test(before(lower, i) ?? ''));
  if (image && CRITICAL.test(image)) return [deny('destructive_ops', `taskkill stops ${image}, which the Windows session cannot run without`)];
  if (image === '*' || lower.some((a, i) => /^[-/]fi$/.test(before(lower, i) ?? '') && /^(username|session)\s+eq\b/.test(a))) return [ask('process_control', 'taskkill stops every process of a user or a session')];
  return [];
}

function permissions(args: string[]): Finding[] {
  const everyone = args.some((a) => /^(everyone|\*s-1-1-0|users|authenticated users|\*s-1-5-11|builtin\\users):\(?(f|m|w|c)\)?/i.test(a.replace(/^\/(grant|p|g)(:r)?\s*/i, '')));
  if (!everyone) return [];
  const system = args.some((a) => /^[a-z]:[\\/]?(windows|program files|programdata|$)|system32/i.test(a));
  return [system ? deny('dangerous_paths', 'everyone is given write or full control of a system folder') : ask('dangerous_paths', 'everyone is given write or full control of a folder')];
}

function profileWrite(name: string, args: string[]): Finding[] {
  return args.some((a) => /^\$profile(\.\w+)?$|[\\/](windows)?powershell[\\/][\w.]*profile\.ps1$/i.test(a)) ? [ask('persistence', `${name} writes the PowerShell profile, which runs in every new session`)] : [];
}

function historyOff(args: string[]): Finding[] {
  return args.some((a, i) => /^-historysavestyle$/i.test(before(args, i) ?? '') && /^savenothing$/i.test(a)) || args.some((a) => /^-historysavepath$/i.test(a))
    ? [deny('destructive_ops', 'Set-PSReadLineOption switches the command history off or moves it')] : [];
}

function alias(name: string, args: string[]): Finding[] {
  const ops = args.filter((a) => !a.startsWith('-'));
  const target = ops[1] ?? args.find((a, i) => /^-value$/i.test(before(args, i) ?? ''));
  return target && DESTRUCTIVE_CMDLET.test(target) ? [ask('destructive_ops', `${name} makes ${ops[0] ?? 'a name'} run ${target}`)] : [];
}

/** `gci $env:USERPROFILE -Recurse | % { Remove-Item $_ }`: what the listing yields is deleted. */
function listedThenDeleted(v: SegmentView, args: string[]): Finding[] {
  const next = v.pipedTo;
  if (!next || !/^(%|foreach-object|foreach)$/.test(next.name) || !next.args.some((a) => DESTRUCTIVE_CMDLET.test(a))) return [];
  const where = args.find((a) => !a.startsWith('-') && PROTECTED.test(a));
  return [where ? deny('destructive_ops', `${v.name} lists ${where} and each item is deleted`) : ask('destructive_ops', `${v.name} lists files and each item is deleted`)];
}

export function windowsStateConcerns(name: string): boolean {
  return /^(taskkill|tskill|cacls|icacls|set-content|add-content|out-file|sc|ac|new-item|ni|set-psreadlineoption|set-alias|new-alias|sal|nal|wmic|register-wmievent|set-wmiinstance|conhost|get-childitem|gci|ls|dir|get-item|gi|cmd|%0)$/.test(name);
}

export function windowsStateRules(v: SegmentView): Finding[] {
  const args = raw(v);
  switch (v.name) {
    case 'taskkill': case 'tskill': return taskkill(args);
    case 'cacls': case 'icacls': return permissions(args);
    case 'set-content': case 'add-content': case 'out-file': case 'sc': case 'ac': case 'new-item': case 'ni': return profileWrite(v.name, args);
    case 'set-psreadlineoption': return historyOff(args);
    case 'set-alias': case 'new-alias': case 'sal': case 'nal': return alias(v.name, args);
    case 'wmic': case 'register-wmievent': case 'set-wmiinstance':
      return args.some((a) => /subscription|__eventfilter|commandlineeventconsumer|__filtertoconsumerbinding/i.test(a)) ? [deny('persistence', `${v.name} registers a WMI event subscription, which runs code on an event from then on`)] : [];
    case 'conhost': return args.some((a) => /^--headless$/i.test(a)) ? [ask('code_injection', 'conhost --headless runs a console program with no window to show it')] : [];
    case 'cmd': return v.seg.joinedBy === '|' && !args.some((a) => /^\/[ck]$/i.test(a)) ? [ask('code_injection', 'cmd reads its commands from a pipe, which the policy does not read')] : [];
    case '%0': return v.seg.joinedBy === '|' || v.pipedTo?.name === '%0' ? [deny('destructive_ops', 'a batch file pipes itself into itself (fork bomb)')] : [];
    default: return listedThenDeleted(v, args);
  }
}
