// A command that writes a file and runs it in the same line (`echo '…' > x.sh && bash x.sh`,
// `cat > Makefile <<EOF … EOF && make`, a package.json written then `npm run`) is judged on what it
// wrote: a shell script or a build file's recipes as commands, a package.json's scripts as
// commands, a Python/Node/Perl/Ruby file as code. When what was written cannot be seen (copied,
// downloaded, edited in place, built at run time), running it asks.
import path from 'node:path';
import { parseOptions } from './command-options';
import { ask, baseName, INTERPRETERS, type Finding, type SegmentView } from './command-view';
import { writeTargets } from './command-writes';

export interface Staged {
  /** Normalised relative or absolute path as written in the command. */
  file: string;
  /** What was written, when the command shows it (echo/printf arguments, a heredoc). */
  content?: string;
}

const key = (p: string): string => path.posix.normalize(p.replace(/^\.\//, ''));

/** The files a segment writes, with their content when the segment shows it. */
export function stagedBy(v: SegmentView): Staged[] {
  // A mode, owner or time change leaves the content as it was.
  if (/^(chmod|chown|chgrp|touch)$/.test(v.name)) return [];
  const targets = writeTargets(v).filter((t) => !t.dynamic);
  if (!targets.length) return [];
  let content: string | undefined;
  if (v.name === 'echo') content = v.args.filter((a, i) => !(i === 0 && /^-[neE]+$/.test(a))).join(' ') + '\n';
  else if (v.name === 'printf') content = (v.args[0] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  else if ((v.name === 'cat' || v.name === 'tee') && v.seg.heredocs.length) content = v.seg.heredocs.join('\n');
  else if (v.name === 'cat' && v.seg.redirects.some((r) => r.op === '<<<')) content = v.seg.redirects.find((r) => r.op === '<<<')?.target.text;
  const appended = targets.some((t) => t.by.includes('>>'));
  return targets.map((t) => ({ file: key(t.text), content: appended ? undefined : content }));
}

/** What a segment runs from the workspace: the file, and how its content is to be read. */
function runs(v: SegmentView): { file: string; as: 'shell' | 'code' | 'make' | 'package' | 'opaque'; lang?: string }[] {
  const bn = baseName(v.name);
  const out: { file: string; as: 'shell' | 'code' | 'make' | 'package' | 'opaque'; lang?: string }[] = [];
  if (v.exe.includes('/')) out.push({ file: key(v.exe), as: 'shell' });
  const first = parseOptions(v.args, { shortValue: 'oOcmWX' }).operands[0];
  if (/^(sh|bash|dash|zsh|ksh|source|\.)$/.test(bn) && first) out.push({ file: key(first), as: 'shell' });
  else if (INTERPRETERS.has(bn) && first) out.push({ file: key(first), as: 'code', lang: bn.startsWith('python') || bn.startsWith('pypy') ? 'python' : bn === 'nodejs' || bn === 'deno' || bn === 'bun' ? 'node' : bn });
  if (/^(make|gmake|remake)$/.test(v.name)) {
    const o = parseOptions(v.args, { shortValue: 'fCIjlow', longValue: ['file', 'makefile', 'directory'] });
    const files = [...(o.values.get('f') ?? []), ...(o.values.get('file') ?? []), ...(o.values.get('makefile') ?? [])];
    for (const f of files.length ? files : ['GNUmakefile', 'makefile', 'Makefile']) out.push({ file: key(f), as: 'make' });
  }
  if (/^(npm|pnpm|yarn|bun)$/.test(v.name)) out.push({ file: 'package.json', as: 'package' });
  if (v.name === 'cmake') out.push({ file: 'CMakeLists.txt', as: 'opaque' });
  if (v.name === 'just') out.push({ file: 'justfile', as: 'make' }, { file: 'Justfile', as: 'make' });
  if (v.name === 'rake') out.push({ file: 'Rakefile', as: 'code', lang: 'ruby' });
  if (v.name === 'pytest' || bn === 'python3' && v.args[0] === '-m' && v.args[1] === 'pytest') out.push({ file: 'conftest.py', as: 'code', lang: 'python' });
  return out;
}

export interface StagedJudges {
  /** Judges shell text as a command line; returns its strictest finding, if any. */
  shell(text: string): Promise<Finding | undefined>;
  /** Judges code in a language; returns its strictest finding, if any. */
  code(lang: string, code: string): Finding | undefined;
}

/** Recipe lines and `$(shell …)` of a Makefile or justfile. */
function recipes(text: string): string {
  const lines: string[] = [];
  for (const m of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) lines.push(m[1]);
  for (const l of text.split('\n')) if (/^(\t| {2,})\S/.test(l)) lines.push(l.trim().replace(/^[@+-]+/, ''));
  return lines.join('\n');
}

/** Findings for segment `v` against what earlier segments of the same command wrote. */
export async function stagedFindings(v: SegmentView, earlier: readonly Staged[], judges: StagedJudges): Promise<Finding[]> {
  if (!earlier.length) return [];
  const f: Finding[] = [];
  for (const r of runs(v)) {
    const hit = [...earlier].reverse().find((s) => s.file === r.file);
    if (!hit) continue;
    if (hit.content === undefined || r.as === 'opaque') { f.push(ask('code_injection', `${v.name} runs ${r.file}, written earlier in this command in a way the judge cannot read`)); continue; }
    let found: Finding | undefined;
    if (r.as === 'shell') found = await judges.shell(hit.content);
    else if (r.as === 'make') found = await judges.shell(recipes(hit.content));
    else if (r.as === 'code') found = judges.code(r.lang ?? 'python', hit.content);
    else {
      let scripts: string[] = [];
      try { scripts = Object.values((JSON.parse(hit.content) as { scripts?: Record<string, string> }).scripts ?? {}).filter((x) => typeof x === 'string'); }
      catch { f.push(ask('code_injection', `${v.name} runs scripts from a package.json written in this command that does not parse`)); continue; }
      found = await judges.shell(scripts.join('\n'));
    }
    if (found) f.push({ ...found, reason: `${v.name} runs ${r.file}, written earlier in this command: ${found.reason}` });
  }
  return f;
}
