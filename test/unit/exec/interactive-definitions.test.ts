// An interactive shell remembers aliases and functions; the judge of its lines must too. Hostile:
// a name defined harmlessly on one line and used on the next to delete the home folder, an alias
// body judged when defined, an alias chain, a function that was harmless where it was defined and
// is called after `cd ~`, names the judge cannot read (eval, a run-time alias body). Benign: `ll`,
// `ls --color`, a function printing a greeting run without a question. Real bash, HOME in a temp
// folder with a marker file that shows whether a line got through by mistake.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseCommand } from '../../../src/core/exec/command-parse';
import type { ApprovalAnswer } from '../../../src/core/exec/exec-types';
import type { Job } from '../../../src/core/exec/run/job-manager';
import { judgedText, newDefinitions, recordDefinitions } from '../../../src/core/exec/tools/interactive-definitions';
import { execFixture, type ExecFixture } from '../../support/exec-fixture';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { waitFor } from './run/executor-support';

after(removeTempDirs);

/** The text judged for `line` after `earlier` lines were sent in `cwd`. */
async function judgedAfter(earlier: string[], line: string, cwd = '/ws') {
  const defs = newDefinitions();
  for (const l of earlier) await recordDefinitions(defs, l, cwd);
  return judgedText(defs, line, await parseCommand(line), cwd);
}
const textOf = (j: Awaited<ReturnType<typeof judgedAfter>>) => ('text' in j ? j.text : `UNREADABLE: ${j.unreadable}`);

describe('interactive shells: the session\'s aliases and functions', () => {
  describe('judgedText', () => {
    it('an alias used later is expanded in place, its arguments kept', async () => {
      assert.equal(textOf(await judgedAfter(["alias x='rm -rf'"], 'cd ~ && x ./*')), 'cd ~ && rm -rf ./*');
    });
    it('a function call becomes its body, the call\'s arguments and redirections kept beside it', async () => {
      assert.equal(textOf(await judgedAfter(['wipe() { rm -rf ~/.config; }'], 'wipe now > log')), '{ rm -rf ~/.config; }; : now > log');
    });
    it('chains expand through aliases and functions; an alias naming itself stops as the shell stops', async () => {
      assert.equal(textOf(await judgedAfter(["alias c='rm -rf'", "alias d='c'"], 'd ~')), 'rm -rf ~');
      assert.equal(textOf(await judgedAfter(["alias ls='ls --color=auto'"], 'ls -la')), 'ls --color=auto -la');
    });
    it('a quoted or escaped name still calls the function', async () => {
      assert.equal(textOf(await judgedAfter(['f() { rm -rf ~; }'], "\\f; 'f'")), '{ rm -rf ~; }; :; { rm -rf ~; }; :');
    });
    it('an alias defined on the line is judged by its body with the line', async () => {
      assert.equal(textOf(await judgedAfter([], "alias x='rm -rf ~'")), "alias x='rm -rf ~'\nrm -rf ~");
    });
    it('a name run by a wrapper has its definition judged beside the line', async () => {
      assert.equal(textOf(await judgedAfter(['f() { rm -rf ~; }'], 'sudo f')), 'sudo f\n{ rm -rf ~; }');
    });
    it('a sourced script\'s functions are read and expanded later', async () => {
      const dir = tempDir('sourced');
      fs.writeFileSync(path.join(dir, 'env.sh'), 'export A=1\nnuke() {\n  rm -rf "$HOME"\n}\n');
      assert.equal(textOf(await judgedAfter(['source ./env.sh'], 'nuke', dir)), '{\n  rm -rf "$HOME"\n}; :');
    });
    it('unreadable: an alias body known only at run time, eval, a script that cannot be read', async () => {
      assert.match(textOf(await judgedAfter(['alias x="$CMD"'], 'x')), /UNREADABLE: `x` is an alias .* run time/);
      assert.match(textOf(await judgedAfter(['eval "$(some-tool init -)"'], 'ls')), /UNREADABLE: .*eval/);
      assert.match(textOf(await judgedAfter(['. ./missing.sh'], 'ls')), /UNREADABLE: .*sourced a script/);
      assert.match(textOf(await judgedAfter(['source "$F"'], 'ls')), /UNREADABLE: .*sourced a script/);
    });
    it('benign: a line that uses no session name is judged as it is', async () => {
      assert.deepEqual(await judgedAfter(["alias ll='ls -la'", 'f() { echo hi; }'], 'git status && npm test'), { text: 'git status && npm test', expanded: [] });
    });
  });

  describe('through a real shell job', function () {
    this.timeout(30_000);
    let f: ExecFixture;
    let home: string;
    let marker: string;
    beforeEach(() => {
      home = tempDir('defs-home');
      marker = path.join(home, 'keep.txt');
      fs.writeFileSync(marker, 'still here');
      f = execFixture({}, { ...process.env, HOME: home });
    });
    afterEach(() => f.dispose());

    async function shell(): Promise<Job> {
      f.approver.answers.push('once');
      const r = await f.run('exec', { command: 'bash', interactive: true, background: true });
      const job = f.jobs.get(r.details?.jobId as string, 'test:exec');
      assert.ok(job, r.forLLM);
      return job;
    }
    const submit = (job: Job, data: string, answer?: ApprovalAnswer) => {
      if (answer) f.approver.answers.push(answer);
      return f.run('process', { action: 'submit', id: job.id, data });
    };
    const saw = (job: Job, text: string) => waitFor(() => job.log.tail(100_000).includes(text));

    it('hostile: a harmless alias for rm, used after a cd to the home folder on a file there, is not sent', async () => {
      const job = await shell();
      for (const line of ["alias zap='rm'", `cd ${home}`]) {
        const r = await submit(job, line);
        assert.equal(r.isError, false, `${line}: ${r.forLLM}`);
      }
      const use = await submit(job, 'zap keep.txt', 'deny');
      assert.equal(use.isError, true, use.forLLM);
      assert.match(use.forLLM, /Nothing was sent/);
      const probe = await submit(job, 'echo probe-$((6*7))');
      assert.equal(probe.isError, false, probe.forLLM);
      assert.ok(await saw(job, 'probe-42'));
      assert.ok(fs.existsSync(marker), 'the file in the home folder was not touched');
    });

    it('hostile: an alias whose body deletes the home folder is refused when it is defined', async () => {
      const job = await shell();
      const def = await submit(job, "alias x='rm -rf ~'");
      assert.equal(def.isError, true, def.forLLM);
      // It never reached the shell, so `x` is no alias there either.
      const use = await submit(job, 'type x || echo no-such-$((6*7))');
      assert.equal(use.isError, false, use.forLLM);
      assert.ok(await saw(job, 'no-such-42'));
      assert.ok(fs.existsSync(marker));
    });

    it('hostile: a function harmless in the workspace is judged again where it is called (after a cd to the home folder)', async () => {
      const job = await shell();
      const def = await submit(job, 'tidy() { rm keep.txt; }');
      assert.equal(def.isError, false, def.forLLM);
      const cd = await submit(job, `cd ${home}`);
      assert.equal(cd.isError, false, cd.forLLM);
      const asks = f.approver.requests.length;
      const call = await submit(job, 'tidy', 'deny');
      assert.equal(call.isError, true, call.forLLM);
      assert.match(call.forLLM, /Nothing was sent/);
      assert.ok(f.approver.requests.length === asks || /`tidy` expanded/.test(f.approver.requests[asks].reason), 'a question, if any, says the name was expanded');
      const probe = await submit(job, 'echo probe-$((6*7))');
      assert.equal(probe.isError, false, probe.forLLM);
      assert.ok(await saw(job, 'probe-42'));
      assert.ok(fs.existsSync(marker), 'the file outside the workspace is still there');
    });

    it('hostile: after eval a later line asks, and a refusal sends nothing', async () => {
      const job = await shell();
      const ev = await submit(job, "eval 'echo evaluated'", 'once');
      assert.equal(ev.isError, false, ev.forLLM);
      const asks = f.approver.requests.length;
      const next = await submit(job, 'echo after', 'deny');
      assert.equal(next.isError, true, next.forLLM);
      assert.match(f.approver.requests[asks].reason, /eval/);
    });

    it('benign: aliases and functions the session defines run without a question', async () => {
      const job = await shell();
      const asks = f.approver.requests.length;
      for (const line of ["alias ll='ls -a'", 'greet() { echo "hello-$1"; }', 'shopt -s expand_aliases']) {
        const r = await submit(job, line);
        assert.equal(r.isError, false, `${line}: ${r.forLLM}`);
      }
      const r = await submit(job, 'greet world; ll');
      assert.equal(r.isError, false, r.forLLM);
      assert.ok(await saw(job, 'hello-world'));
      assert.equal(f.approver.requests.length, asks, 'no question');
    });
  });
});
