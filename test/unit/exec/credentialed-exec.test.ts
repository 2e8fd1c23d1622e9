// credentialed_exec through the real Registry pipeline: a real executable script stands in for `gh`
// (it prints its arguments and $GH_TOKEN), runs through the real process executor and job manager,
// and the real Scrubber redacts the injected token. Every refusal is checked for what it says — and
// for what it must not say (the deny pattern, the token).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CREDENTIALED, readCredentialedConfig, type CredentialedBinary } from '../../../src/core/exec/credentialed-config';
import { JobManager } from '../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../src/core/exec/run/process-executor';
import { createCredentialedExecTool } from '../../../src/core/exec/tools/credentialed-exec';
import type { ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { runtimeWith } from '../../support/test-tools';

const TOKEN = 'ghp_pincerTestToken0123456789abcdefABCDEF';
const FAKE_GH = `#!/bin/sh
echo "args:$*"
echo "token:$GH_TOKEN"
echo "session:$AWS_SESSION_TOKEN"
case "$1" in
  fail) echo "something broke" >&2; exit 3 ;;
  sleep) sleep 30 ;;
  big) i=0; while [ $i -lt 3000 ]; do echo "line $i of a long listing"; i=$((i+1)); done ;;
esac
exit 0
`;

function script(dir: string, name: string, body = FAKE_GH): string {
  fs.mkdirSync(dir, { recursive: true });
  const p = path.join(dir, name);
  fs.writeFileSync(p, body, { mode: 0o755 });
  return p;
}

interface Setup {
  binaries?: CredentialedBinary[];
  secrets?: Record<string, string>;
  pathDirs?: (binDir: string, wsRoot: string) => string[];
  timeoutMs?: { default: number; max: number };
  maxResultChars?: number;
}

function setup(opts: Setup = {}) {
  const ws = makeWorkspace({ 'src/a.ts': 'x' }, 'cred-ws');
  const binDir = path.join(tempDir('cred-bin'), 'bin');
  const gh = script(binDir, 'gh');
  script(binDir, 'aws');
  const guard = makeGuard([ws.root]);
  const jobs = new JobManager();
  const secrets = new Map(Object.entries(opts.secrets ?? { 'gh.GH_TOKEN': TOKEN }));
  const asked: string[] = [];
  const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false });
  const registered: string[] = [];
  const dirs = opts.pathDirs?.(binDir, ws.root) ?? [binDir, '/usr/bin', '/bin'];
  const tool = createCredentialedExecTool({
    binaries: () => opts.binaries ?? DEFAULT_CREDENTIALED.map((b) => ({ ...b })),
    secrets: { get: async (b, e) => { asked.push(`${b}.${e}`); return secrets.get(`${b}.${e}`); } },
    scrubber: { register: (v) => { registered.push(v); rt.scrubber.register(v); } },
    executor: createProcessExecutor(), jobs,
    baseEnv: () => ({ PATH: dirs.join(':'), HOME: ws.root }),
    guard, workspaceRoot: () => ws.root,
    timeoutMs: opts.timeoutMs ?? { default: 10_000, max: 20_000 },
    maxResultChars: opts.maxResultChars,
  });
  rt.registry.register(tool);
  const run = (args: unknown): Promise<ToolResult> => rt.registry.execute('credentialed_exec', args, rt.context({ channel: 'test', workspaceRoot: ws.root }));
  return { ws, binDir, gh, jobs, rt, run, registered, asked, tool };
}

describe('credentialed_exec', () => {
  const open: JobManager[] = [];
  afterEach(async () => {
    for (const j of open.splice(0)) await j.dispose();
  });
  after(removeTempDirs);
  const make = (o?: Setup) => {
    const s = setup(o);
    open.push(s.jobs);
    return s;
  };

  it('runs the program by argv with the token in its environment; the token is scrubbed from the result', async () => {
    const s = make();
    const r = await s.run({ binary: 'gh', args: ['pr', 'list', '--state', 'open', 'two words', "it's"] });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /args:pr list --state open two words it's/, 'arguments arrive unchanged, no shell in between');
    assert.match(r.forLLM, /token:\[REDACTED\]/, 'the program got the token, and the result shows it redacted');
    assert.ok(!r.forLLM.includes(TOKEN));
    assert.ok(!(r.forUser ?? '').includes(TOKEN));
    assert.match(r.forLLM, /exit code 0/);
    assert.match(r.forLLM, /process log id=j\w+/);
    assert.deepEqual(s.registered, [TOKEN], 'registered with the scrubber');
    // The job's own log holds the real output (for process log, which the pipeline scrubs too).
    const job = s.jobs.get(String(r.details?.jobId), 'test:default');
    assert.ok(job?.log.head(10_000).includes(`token:${TOKEN}`));
    assert.equal(r.details?.program, fs.realpathSync(s.gh));
  });

  it('registers the secret before the program starts', async () => {
    const s = make();
    let registeredBeforeStart = false;
    const start = s.jobs.start.bind(s.jobs);
    s.jobs.start = (spec) => {
      registeredBeforeStart = s.registered.includes(TOKEN);
      return start(spec);
    };
    await s.run({ binary: 'gh', args: ['status'] });
    assert.ok(registeredBeforeStart);
  });

  it('reports the exit code and stderr of a failing run as an error', async () => {
    const s = make();
    const r = await s.run({ binary: 'gh', args: ['fail'] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /exit code 3/);
    assert.match(r.forLLM, /something broke/);
    assert.equal(r.details?.exitCode, 3);
  });

  it('refuses shell operators, naming the reason (there is no shell)', async () => {
    const s = make();
    for (const a of ['x; rm -rf /', 'a | sh', 'a && b', 'a & b', '`id`', '$(id)', 'a > /tmp/x', 'a < /etc/passwd', 'a\nb']) {
      const r = await s.run({ binary: 'gh', args: ['issue', 'view', a] });
      assert.equal(r.isError, true, a);
      assert.match(r.forLLM, /without a shell/, a);
      assert.equal(r.details?.refused, 'shell-syntax', a);
    }
    assert.equal(s.jobs.all().length, 0, 'nothing ran');
    assert.deepEqual(s.asked, [], 'no secret was even read');
  });

  it('refuses a deny rule by number, never echoing the pattern', async () => {
    const s = make();
    for (const args of [['auth', 'token'], ['auth', 'status', '-t'], ['--help', 'auth', 'token'], ['secret', 'list'], ['ssh-key', 'add', 'k'], ['extension', 'install', 'x/y'], ['alias', 'set', 'x', '!sh']]) {
      const r = await s.run({ binary: 'gh', args });
      assert.equal(r.isError, true, args.join(' '));
      assert.match(r.forLLM, /Refused by deny rule \d+ of \d+ for gh/, args.join(' '));
      for (const pattern of DEFAULT_CREDENTIALED[0].denyArgs) assert.ok(!r.forLLM.includes(pattern), `${args.join(' ')} echoes ${pattern}`);
      assert.doesNotMatch(r.forLLM, /\\b|\\s|\^/);
    }
    const aws = make({ secrets: { 'aws.AWS_ACCESS_KEY_ID': 'AKIAPINCERTEST000000', 'aws.AWS_SECRET_ACCESS_KEY': 'pincer-secret-key-value-0000' } });
    for (const args of [['configure', 'list'], ['--profile', 'x', 'configure', 'get', 'k'], ['sts', 'get-session-token'], ['--region', 'eu-west-1', 'sts', 'assume-role', '--role-arn', 'a'], ['ecr', 'get-login-password']])
      assert.match((await aws.run({ binary: 'aws', args })).forLLM, /Refused by deny rule/, args.join(' '));
    assert.equal(s.jobs.all().length + aws.jobs.all().length, 0);
  });

  it('refuses a gh inside the workspace put first on PATH (spoofing), and relative PATH entries are ignored', async () => {
    const s = make({ pathDirs: (bin, ws) => [path.join(ws, 'tools'), bin, '/usr/bin'] });
    script(path.join(s.ws.root, 'tools'), 'gh', '#!/bin/sh\necho "stolen:$GH_TOKEN"\n');
    const r = await s.run({ binary: 'gh', args: ['pr', 'list'] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /inside the workspace/);
    assert.deepEqual(s.asked, [], 'the secret was not read for a refused program');
    // `./gh` through a relative PATH entry: the relative entry is skipped, the real one runs.
    const rel = make({ pathDirs: (bin) => ['.', 'tools', bin] });
    script(path.join(rel.ws.root, 'tools'), 'gh', '#!/bin/sh\necho "stolen:$GH_TOKEN"\n');
    const ok = await rel.run({ binary: 'gh', args: ['x'], cwd: '.' });
    assert.equal(ok.isError, false, ok.forLLM);
    assert.doesNotMatch(ok.forLLM, /stolen/);
    assert.equal(ok.details?.program, fs.realpathSync(rel.gh));
    // A path, rather than a name, is not a configured program.
    const byPath = await s.run({ binary: './gh', args: [] });
    assert.match(byPath.forLLM, /not a program credentialed_exec may run\. Give the bare program name/);
  });

  it('a pinned path must be the one PATH finds', async () => {
    const s = make({ binaries: [{ name: 'gh', path: '/usr/local/bin/gh-pinned', env: ['GH_TOKEN'], denyArgs: [] }] });
    const r = await s.run({ binary: 'gh', args: ['status'] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /pins it to \/usr\/local\/bin\/gh-pinned/);
    const good = make({ binaries: [] });
    const pinned = make({ binaries: [{ name: 'gh', path: good.gh, env: ['GH_TOKEN'], denyArgs: [] }], pathDirs: () => [path.dirname(good.gh)] });
    assert.equal((await pinned.run({ binary: 'gh', args: ['ok'] })).isError, false);
  });

  it('refuses an unconfigured program and lists the configured ones', async () => {
    const s = make();
    const r = await s.run({ binary: 'curl', args: ['https://example.com'] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /curl is not a program credentialed_exec may run\. Configured: gh, aws, gcloud, kubectl, terraform/);
  });

  it('refuses when a secret is missing and names the command that sets it', async () => {
    const s = make({ secrets: {} });
    const r = await s.run({ binary: 'gh', args: ['pr', 'list'] });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /gh needs the credential GH_TOKEN, which is not set/);
    assert.match(r.forLLM, /Pincer: Set Credential…/);
    assert.equal(s.jobs.all().length, 0);
  });

  it('optional secrets are injected when set and not required', async () => {
    const keys = { 'aws.AWS_ACCESS_KEY_ID': 'AKIAPINCERTEST000000', 'aws.AWS_SECRET_ACCESS_KEY': 'pincer-secret-key-value-0000' };
    const s = make({ secrets: keys });
    const r = await s.run({ binary: 'aws', args: ['s3', 'ls'] });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /session:$/m);
    const withSession = make({ secrets: { ...keys, 'aws.AWS_SESSION_TOKEN': 'pincer-session-token-value' } });
    const r2 = await withSession.run({ binary: 'aws', args: ['s3', 'ls'] });
    assert.match(r2.forLLM, /session:\[REDACTED\]/);
    assert.deepEqual(r2.details?.injected, ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN']);
  });

  it('a timeout kills the program and says so, with the exit state', async () => {
    const s = make({ timeoutMs: { default: 10_000, max: 400 } });
    // The script sleeps 30 s, longer than the test's timeout: it was stopped, not waited for.
    const r = await s.run({ binary: 'gh', args: ['sleep'], timeout: 60 });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /killed after timeout/);
    assert.match(r.forLLM, /exit code/);
    assert.match(r.forLLM, /lowered to the configured maximum/);
  });

  it('long output is capped head + tail with the process log hint', async () => {
    const s = make({ maxResultChars: 2_000 });
    const r = await s.run({ binary: 'gh', args: ['big'] });
    assert.equal(r.isError, false);
    assert.ok(r.forLLM.length < 4_000, `${r.forLLM.length} characters`);
    assert.match(r.forLLM, /line 0 of a long listing/);
    assert.match(r.forLLM, /line 2999 of a long listing/);
    assert.match(r.forLLM, /omitted here; read them with process log id=j\w+ offset=\d+/);
  });

  it('a cwd outside the workspace is refused by the path guard', async () => {
    const s = make();
    const r = await s.run({ binary: 'gh', args: ['x'], cwd: '/etc' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /^cwd: /);
  });
});

describe('readCredentialedConfig', () => {
  it('built-ins without a setting; overrides replace fields by name; additions are kept', () => {
    const warnings: string[] = [];
    assert.deepEqual(readCredentialedConfig(() => undefined, (m) => warnings.push(m)).map((b) => b.name), ['gh', 'aws', 'gcloud', 'kubectl', 'terraform']);
    const got = readCredentialedConfig((k) => (k === 'exec.credentialed' ? [
      { name: 'gh', path: '/usr/bin/gh' },
      { name: 'glab', env: ['GITLAB_TOKEN'], denyArgs: ['^auth\\b'], description: 'GitLab CLI' },
    ] : undefined), (m) => warnings.push(m));
    const gh = got.find((b) => b.name === 'gh');
    assert.equal(gh?.path, '/usr/bin/gh');
    assert.deepEqual(gh?.env, ['GH_TOKEN'], 'fields not given keep the built-in');
    assert.ok(gh && gh.denyArgs.length >= 4);
    assert.deepEqual(got.find((b) => b.name === 'glab')?.env, ['GITLAB_TOKEN']);
    assert.deepEqual(warnings, []);
  });

  it('fails closed: a bad regex, a bad entry or an injection variable refuses that program', () => {
    const warnings: string[] = [];
    const got = readCredentialedConfig(() => [
      { name: 'gh', denyArgs: ['^auth\\b', '(unclosed'] },
      { name: 'aws', env: ['LD_PRELOAD'] },
      { name: 'gcloud', env: 'CLOUDSDK_AUTH_ACCESS_TOKEN' },
      { name: '../evil', env: [] },
      { env: [] },
    ], (m) => warnings.push(m));
    assert.deepEqual(got.map((b) => b.name), ['kubectl', 'terraform']);
    assert.match(warnings[0], /deny rule 2 of gh is not a valid regular expression.*refuses gh/);
    assert.ok(!warnings[0].includes('(unclosed'), 'the pattern is not echoed');
    assert.match(warnings[1], /aws would inject LD_PRELOAD/);
    assert.match(warnings[2], /entry for gcloud is invalid/);
    assert.equal(warnings.length, 5);
    const notList: string[] = [];
    assert.deepEqual(readCredentialedConfig(() => ({ gh: {} }), (m) => notList.push(m)), []);
    assert.match(notList[0], /must be a list/);
  });
});
