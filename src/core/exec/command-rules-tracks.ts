// Tracks covered: the record of what ran erased, emptied or switched off — shell histories, system
// and audit logs, the journal, the event log, the file system's change journal, the logging
// services themselves, git's record of where branches were (reflog), and the times files carry
// (set back by anti-forensic tools, or by touch outside the workspace). Findings are in the group
// destructive_ops (the record is data that is destroyed). Reading a log (`journalctl -u x`,
// `tail /var/log/syslog`, `history | tail`) changes nothing and is not objected to. Switching the
// shell history off by variable is command-rules-admin.ts (historyRule).
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { replace } from './command-strings';
import { truncates } from './command-redirects';
import { JOURNALCTL, LASTLOG } from './command-option-tables';
import { hasFlag, hasLong, parseOptions, valuesOf } from './command-options';

/** journalctl's options that delete or rotate the journal. */
const JOURNAL_ERASERS = ['vacuum-time', 'vacuum-size', 'vacuum-files', 'rotate', 'flush', 'relinquish-var'] as const;

/** Where the machine and the shells keep their records. */
const RECORD = /^(\/private)?\/var\/(log|adm|audit)(\/|$)|^\/run\/log(\/|$)|^\/var\/run\/(utmp|wtmp|btmp)$|(^|\/)\.(bash|zsh|sh|ksh|python|psql|mysql|node_repl|sqlite|lesshst|irb|rediscli)_?history$|(^|\/)\.(zsh_history|histfile|viminfo|lesshst)$|(^|\/)fish_history$|(^|\/)ConsoleHost_history\.txt$|\/winevt\/logs(\/|$)|^(~|\$HOME|\$\{HOME\})\/\.local\/share\/fish\//i;
/** Programs that delete, empty or overwrite the files they are given. */
const ERASERS = /^(rm|unlink|shred|srm|wipe|truncate|rmdir|remove-item|ri|del|erase|clear-content|clc|set-content)$/;
/** Services that keep the logs, and the audit daemons and agents that watch the machine. */
const LOGGERS = /^(auditd|rsyslog|rsyslogd|syslog|syslogd|syslog-ng|systemd-journald|journald|auditbeat|filebeat|osqueryd|falco|wazuh-agent|ossec|falcon-sensor|sysmon|sysmon64|eventlog|splunkd|splunkforwarder|td-agent|fluentd|fluent-bit|vector)(\.service)?$/i;

function isRecord(p: string): boolean {
  return RECORD.test(replace(p, /\\/g, '/'));
}

/** Programs tracksRules looks at by name (a redirection into a record is looked at for every program). */
const NAMED = /^(find|journalctl|log|auditctl|lastlog|systemctl|service|launchctl|sc|stop-service|set-service|kill|pkill|killall|clear-history|git|cp|mv|ln|install|dd|tee|sed|gsed|perl|touch|setfile|timestomp|setmace|nircmd)$/;
/** touch's options that set a time other than now: a date, a stamp, another file's times. */
const TOUCH_TIME = /^(-[acfhm]*[dtr]|--date|--reference|--time)(=|$)|^-[acfhm]*[dtr].+/;
/** A path outside the workspace as written: absolute, in the home folder, or above the workspace. */
const OUTSIDE = /^(\/|~|\$\{?HOME\b|\.\.(\/|$)|[A-Za-z]:[\\/])/;

/** The files touch sets the times of: its operands, without the values of -d, -t and -r. */
function touchTargets(args: string[]): string[] {
  return args.filter((a, i) => !a.startsWith('-') && !/^(-[acfhm]*[dtr]|--date|--reference)$/.test(before(args, i) ?? ''));
}

/** The programs tracksRules looks at by name; any other argv needs an output redirection that could empty a record (tracksWhen). */
export const tracksConcerns = (name: string): boolean => ERASERS.test(name) || NAMED.test(name);
export const tracksWhen = (v: SegmentView): boolean => v.seg.redirects.some((r) => truncates(r.op));

export function tracksRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  if (!v.seg.redirects.length && !ERASERS.test(name) && !NAMED.test(name)) return [];
  const f: Finding[] = [];
  // `> ~/.bash_history`, `: > /var/log/auth.log`, `cat /dev/null > /var/log/wtmp`: emptied by a redirection.
  if (v.seg.redirects.some((r) => truncates(r.op) && isRecord(r.target.text))) f.push(deny('destructive_ops', 'the command empties or overwrites a log or a shell history (the record of what ran)'));
  const operands = v.operands;
  // What is overwritten: the last operand of a copy or link, `of=` of dd, every file of tee, sed -i and perl -i; what mv takes away: its sources.
  const inPlace = /^(sed|gsed|perl)$/.test(name) && args.some((a) => /^-[a-z]*i/.test(a));
  const written = ERASERS.test(name) || name === 'tee' || inPlace ? operands : /^(cp|ln|install)$/.test(name) ? operands.slice(-1) : name === 'mv' ? operands.slice(0, -1) : name === 'dd' ? args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)) : [];
  if (written.some(isRecord)) f.push(deny('destructive_ops', `${name} erases, overwrites or moves away a log or a shell history (the record of what ran)`));
  switch (name) {
    case 'find':
      if (args.some((a) => isRecord(a)) && args.some((a, i) => a === '-delete' || /^-(exec|execdir)$/.test(a) && /^(rm|truncate|shred|unlink|cp|tee|sh|bash)$/.test((args[i + 1] ?? '').split('/').pop() ?? '')))
        f.push(deny('destructive_ops', 'find erases or empties the logs it finds'));
      break;
    case 'journalctl': {
      // Any spelling journalctl takes (`--vacuum-t=1s`, `--vacuum-time 1s`); a limit that keeps next to nothing deletes it all.
      const o = parseOptions(args, JOURNALCTL);
      const vacuum = JOURNAL_ERASERS.find((n) => hasLong(o, n));
      const all = valuesOf(o, ['vacuum-time']).some((x) => /^\d+(s|sec|m|min)?$/i.test(x)) || valuesOf(o, ['vacuum-size']).some((x) => /^\d+[kb]?$/i.test(x)) || valuesOf(o, ['vacuum-files']).some((x) => /^[01]$/.test(x));
      if (vacuum) f.push(all ? deny('destructive_ops', 'journalctl deletes the whole system journal') : ask('destructive_ops', `journalctl --${vacuum} deletes or rotates the system journal`));
      break;
    }
    case 'log': if (/^(erase|config)$/.test(args[0] ?? '')) f.push(deny('destructive_ops', `log ${args[0]} erases or silences the system log`)); break;
    case 'auditctl': if (args.some((a, i) => a === '-D' || a === '-e' && args[i + 1] === '0' || /^--(delete-all|enable=0)/.test(a))) f.push(deny('destructive_ops', 'auditctl deletes the audit rules or switches auditing off')); break;
    case 'lastlog': if (hasFlag(parseOptions(args, LASTLOG), 'CS', ['clear', 'set'])) f.push(deny('destructive_ops', 'lastlog clears the record of log-ins')); break;
    case 'systemctl': case 'service': case 'launchctl': case 'sc': case 'stop-service': case 'set-service': case 'kill': case 'pkill': case 'killall':
      if ((operands.some((a) => LOGGERS.test(a)) || v.words.some((w) => w.dynamic && /\$\((pidof|pgrep)\s/.test(w.raw) && w.raw.split(/[\s()]+/).some((x) => LOGGERS.test(x)))) && (name !== 'systemctl' && name !== 'sc' && name !== 'service' || args.some((a) => /^(stop|disable|mask|kill|delete|config|unload|bootout)$/i.test(a))))
        f.push(deny('destructive_ops', `${name} stops or disables the service that keeps the logs or audits the machine`));
      break;
    case 'clear-history': f.push(ask('destructive_ops', 'Clear-History erases the PowerShell history')); break;
    case 'timestomp': case 'setmace': f.push(deny('destructive_ops', `${name} gives files false times, so that what was changed looks untouched`)); break;
    case 'nircmd': if (/^setfiletime$/i.test(args[0] ?? '')) f.push(deny('destructive_ops', 'nircmd setfiletime gives a file false times, so that what was changed looks untouched')); break;
    case 'touch': case 'setfile': {
      // Back-dating a file outside the workspace hides when it was changed; in the workspace it is a build's stamp.
      const dated = name === 'touch' ? args.some((a) => TOUCH_TIME.test(a)) : args.some((a) => /^-[dm]$/.test(a));
      const outside = (name === 'touch' ? touchTargets(args) : operands).filter((a) => OUTSIDE.test(a));
      if (dated && outside.length) f.push(ask('destructive_ops', `${name} sets the times of a file outside the workspace (${outside[0]}) to others than the true ones, which hides when it was changed`));
      break;
    }
    case 'git': {
      const sub = operands[0];
      if (sub === 'reflog' && operands[1] === 'expire' && args.some((a) => /^--expire(-unreachable)?=(now|all|0)/.test(a)) || sub === 'reflog' && operands[1] === 'delete') f.push(ask('destructive_ops', 'git reflog expire/delete erases the record of where branches were (what a mistake is undone with)'));
      else if (sub === 'gc' && args.some((a) => /^--prune=(now|all)$/.test(a))) f.push(ask('destructive_ops', 'git gc --prune=now deletes unreachable commits at once'));
      else if (sub === 'update-ref' && args.includes('-d')) f.push(ask('destructive_ops', 'git update-ref -d deletes a ref without the checks of branch -d'));
      break;
    }
  }
  return f;
}
