// Paths a command names indirectly, where the argument rules cannot see them: a list of file names
// fed on stdin to a program that archives or copies the files it names (`cpio -o <<< /etc/shadow`,
// `tar -T - <<< ~/.netrc`, `zip -@`), and a path under a system folder that is completed only at
// run time (`cat /etc/${F:-shadow}`, `cat /etc/$s`): the default of a `${VAR:-…}` is judged as
// written, and a path the judge cannot complete there asks.
import { SECRET_PATH } from './command-rules-tools';
import { ask, deny, type Finding, type SegmentView } from './command-view';

/** Programs that read the names of the files to act on from stdin. */
const NAMES_ON_STDIN = /^(cpio|afio|pax|zip|tar|gtar|bsdtar|rsync|xargs)$/;
/** Folders whose files are the machine's secrets, another process's state or the administrator's home. */
const SECRET_DIRS = /^\/(etc|root|proc|var\/run\/secrets|run\/secrets|var\/lib\/(docker|kubelet))\//;

export function indirectPathRules(v: SegmentView): Finding[] {
  const f: Finding[] = [];
  if (NAMES_ON_STDIN.test(v.name) && (v.seg.redirects.length || v.seg.heredocs.length)) {
    const fed = [...v.seg.redirects.filter((r) => r.op === '<<<').map((r) => r.target.text), ...v.seg.heredocs].join('\n');
    const names = fed.split(/\s+/).filter(Boolean);
    if (names.some((n) => SECRET_PATH.test(n) || /^\/(etc\/(shadow|gshadow|sudoers)|root\/)/.test(n))) f.push(deny('data_exfiltration', `${v.name} is fed the name of a credential or system secret to archive or copy`));
  }
  for (const w of v.words) {
    if (!w.dynamic || !SECRET_DIRS.test(w.text)) continue;
    const completed = w.text.replace(/\$\{\w+:?[-=]([^}]*)\}/g, '$1');
    if (SECRET_PATH.test(completed) || /^\/etc\/(shadow|gshadow|sudoers|master\.passwd)$|^\/root\//.test(completed)) f.push(deny('data_exfiltration', `${v.name} is given a path that becomes a system secret (${w.raw})`));
    else f.push(ask('data_exfiltration', `${v.name} is given a path under a system folder that is known only at run time (${w.raw})`));
    break;
  }
  return f;
}
