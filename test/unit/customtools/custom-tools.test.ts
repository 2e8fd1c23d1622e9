// Custom tools through the one toolset and the real pipeline, running real child processes: hostile
// arguments stay one argv element each and reach the judge as they are (what it denies does not run),
// schema violations and unresolved placeholders run nothing, names of built-in and MCP tools are
// refused, the cwd goes through the path guard, secrets are scrubbed, output is capped, and a file
// added or removed changes the tools on the next build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeTempDirs } from '../../support/fs-fixtures';
import { customFixture, printArgs, type CustomFixture } from './custom-fixture';

after(removeTempDirs);

const PRINT = ['printf', '<%s>\\n'];

describe('custom tools: running', () => {
  let f: CustomFixture;
  afterEach(async () => f && f.dispose());

  it('hostile arguments stay one argv element each: printed back verbatim, nothing else runs', async () => {
    f = customFixture();
    const marker = path.join(f.root, 'pwned');
    f.writeTool('print.json', printArgs('print_args', [...PRINT, '{{text}}']));
    const hostile = [`; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``, `x\ntouch ${marker}`, `' && touch ${marker} '`, `| touch ${marker}`, '*', '~', '$HOME'];
    for (const text of hostile) {
      const r = await f.run('print_args', { text });
      assert.equal(r.isError, false, `${JSON.stringify(text)}: ${r.forLLM}`);
      assert.ok(r.forLLM.includes(`<${text}>`), `${JSON.stringify(text)} printed as one argument: ${r.forLLM}`);
      assert.deepEqual(r.details?.argv, ['printf', '<%s>\\n', text]);
    }
    assert.equal(fs.existsSync(marker), false, 'no value was run');
    assert.equal(f.approver.requests.length, 0, 'plain printf with text arguments needs no approval');
  });

  it('the judge sees the real argv: a shell the definition runs is judged with the value inside it, and a denied command does not run', async () => {
    f = customFixture();
    const marker = path.join(f.root, 'ran');
    f.writeTool('shell.json', printArgs('say', ['sh', '-c', 'echo {{text}}']));
    const denied = await f.run('say', { text: `hi; rm -rf ${os.homedir()}` });
    assert.equal(denied.outcome, 'denied', denied.forLLM);
    assert.match(denied.forLLM, /Command denied/);
    // Asked (a write outside the workspace), shown to the person with the exact argv, denied by them.
    f.approver.answers = ['deny'];
    const asked = await f.run('say', { text: `hi > ${path.join(os.tmpdir(), `pincer-custom-${process.pid}`)}; touch ${marker}` });
    assert.equal(asked.outcome, 'rejected-by-user', asked.forLLM);
    const req = f.approver.requests[0];
    assert.deepEqual([req.tool, req.customTool], ['custom', 'say'], 'the prompt names the custom tool, not exec');
    assert.equal(req.command, `sh -c 'echo hi > ${path.join(os.tmpdir(), `pincer-custom-${process.pid}`)}; touch ${marker}'`);
    assert.deepEqual(req.segments.find((s) => s.segment.context === 'top')?.segment.argv.map((w) => w.text), ['sh', '-c', `echo hi > ${path.join(os.tmpdir(), `pincer-custom-${process.pid}`)}; touch ${marker}`]);
    assert.equal(fs.existsSync(marker), false);
    const fine = await f.run('say', { text: 'hello there' });
    assert.equal(fine.isError, false, fine.forLLM);
    assert.match(fine.forLLM, /hello there/);
  });

  it('a judged-deny argv is refused: deleting the home folder through a tool that removes what it is given', async () => {
    f = customFixture();
    f.writeTool('rm.json', printArgs('remove', ['rm', '-rf', '--', '{{target}}'], { target: { type: 'string' } }));
    for (const target of [os.homedir(), '/']) {
      const r = await f.run('remove', { target });
      assert.equal(r.outcome, 'denied', `${target}: ${r.forLLM}`);
    }
    assert.ok(fs.existsSync(os.homedir()));
  });

  it('an --option value filling a whole argument is refused before anything runs', async () => {
    f = customFixture();
    f.writeTool('log.json', printArgs('show', [...PRINT, '{{text}}']));
    const r = await f.run('show', { text: '--help' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /starts with "-", so the program would read it as an option/);
    assert.equal(r.details?.jobId, undefined, 'nothing ran');
  });

  it('a schema violation or an unresolved placeholder runs nothing', async () => {
    f = customFixture();
    const marker = path.join(f.root, 'made');
    f.writeTool('touch.json', {
      name: 'make_file', description: 'Creates a file.', command: ['touch', '{{name}}', '{{extra}}'],
      parameters: { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' }, extra: { type: 'string' } }, required: ['name'] },
    });
    const wrongType = await f.run('make_file', { name: 42 });
    assert.equal(wrongType.isError, true);
    assert.match(wrongType.forLLM, /name/);
    const pattern = await f.run('make_file', { name: 'made; rm x' });
    assert.equal(pattern.isError, true, 'the schema\'s pattern is checked');
    const unresolved = await f.run('make_file', { name: 'made' });
    assert.equal(unresolved.isError, true);
    assert.match(unresolved.forLLM, /needs \{\{extra\}\}, but the argument "extra" was not given/);
    assert.equal(fs.existsSync(marker), false);
    const both = await f.run('make_file', { name: 'made', extra: 'also' });
    assert.equal(both.isError, false, both.forLLM);
    assert.ok(fs.existsSync(marker) && fs.existsSync(path.join(f.root, 'also')));
  });

  it('the cwd goes through the path guard: a folder outside the workspace is refused, one inside is used', async () => {
    f = customFixture();
    f.writeTool('out.json', printArgs('outside', ['pwd'], {}, { cwd: '../..' }));
    f.writeTool('abs.json', printArgs('absolute', ['pwd'], {}, { cwd: '/etc' }));
    fs.mkdirSync(path.join(f.root, 'sub'));
    f.writeTool('in.json', printArgs('inside', ['pwd'], {}, { cwd: 'sub' }));
    for (const name of ['outside', 'absolute']) {
      const r = await f.run(name, {});
      assert.equal(r.outcome, 'denied', `${name}: ${r.forLLM}`);
      assert.match(r.forLLM, /cwd of .* is refused/);
    }
    const inside = await f.run('inside', {});
    assert.equal(inside.isError, false, inside.forLLM);
    assert.ok(inside.forLLM.includes(path.join(f.root, 'sub')));
  });

  it('env: literal values and secrets reach the program; a secret never reaches the result; a missing one says how to set it', async () => {
    f = customFixture({ secrets: { api: 'sk-live-secret-value-4242' } });
    fs.writeFileSync(path.join(f.root, 'show-env.js'), 'console.log(`mode=${process.env.MODE} token=${process.env.TOKEN}`);\n');
    f.writeTool('env.json', printArgs('show_env', ['node', 'show-env.js'], {}, { env: { MODE: 'ci-mode', TOKEN: '${secret:api}' } }));
    f.writeTool('env2.json', printArgs('needs_secret', ['node', 'show-env.js'], {}, { env: { TOKEN: '${secret:absent}' } }));
    const r = await f.run('show_env', {});
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /mode=ci-mode token=/);
    assert.ok(!r.forLLM.includes('sk-live-secret-value-4242'), r.forLLM);
    assert.match(r.forLLM, /REDACTED/);
    const missing = await f.run('needs_secret', {});
    assert.equal(missing.isError, true);
    assert.match(missing.forLLM, /needs the secret "absent", which is not set\. Set it with the test's secrets/);
  });

  it('long output is capped to its start and end; a failing program is an error result with its exit code', async () => {
    f = customFixture({ settings: { 'exec.maxOutputChars': 2_000 } });
    f.writeTool('seq.json', printArgs('count', ['seq', '1', '{{n}}'], { n: { type: 'integer' } }));
    f.writeTool('false.json', printArgs('fails', ['false'], {}));
    const r = await f.run('count', { n: 50_000 });
    assert.equal(r.isError, false);
    assert.ok(r.forLLM.length < 6_000, `capped: ${r.forLLM.length}`);
    assert.match(r.forLLM, /\n1\n2\n3\n/);
    assert.match(r.forLLM, /49999\n50000/);
    const bad = await f.run('fails', {});
    assert.equal(bad.isError, true);
    assert.equal(bad.details?.exitCode, 1);
  });

  it('the definition\'s time limit stops the program', async () => {
    f = customFixture();
    f.writeTool('sleep.json', printArgs('nap', ['sleep', '30'], {}, { timeout_seconds: 1 }));
    const r = await f.run('nap', {});
    assert.equal(r.isError, true);
    assert.notEqual(r.details?.exitCode, 0);
    assert.match(r.forLLM, /time limit|timed out|killed|SIGTERM/i);
  });
});

describe('custom tools: names, trust and reload', () => {
  let f: CustomFixture;
  afterEach(async () => f && f.dispose());

  it('a name of a built-in tool, an alias or an MCP tool is refused with the reason; the built-in stays', async () => {
    f = customFixture();
    f.writeTool('clash.json', [
      printArgs('exec', ['true'], {}), printArgs('read_file', ['true'], {}), printArgs('Read', ['true'], {}),
      printArgs('mcp_github__search', ['true'], {}), printArgs('ok_tool', ['true'], {}),
    ]);
    const hidden = new Map(f.toolset.hidden().map((h) => [h.tool, h.reason]));
    assert.match(hidden.get('exec') ?? '', /custom tool "exec" in .*clash\.json is not registered: a built-in tool has that name/);
    assert.match(hidden.get('read_file') ?? '', /a built-in tool has that name/);
    assert.match(hidden.get('Read') ?? '', /another name of the built-in tool read_file/);
    assert.match(hidden.get('mcp_github__search') ?? '', /kept for MCP servers' tools/);
    assert.equal(f.rt.registry.get('exec')?.group, 'runtime', 'exec is still the built-in');
    assert.equal(f.rt.registry.get('ok_tool')?.group, 'custom');
    const list = await f.run('exec', { command: 'echo still-exec' });
    assert.match(list.forLLM, /still-exec/);
  });

  it('custom tools are offered by the coding profile (group:custom) and policy can deny them by group', () => {
    f = customFixture();
    f.writeTool('a.json', printArgs('mine', ['true'], {}));
    const eff = f.rt.effectiveTools({ agentId: 'default', channel: 'chat', depth: 0, isOwner: true, trusted: true });
    assert.ok(eff.allowed.includes('mine'), eff.allowed.join(', '));
    const g = customFixture({ settings: { 'tools.deny': ['group:custom'] } });
    g.writeTool('a.json', printArgs('mine', ['true'], {}));
    const denied = g.rt.effectiveTools({ agentId: 'default', channel: 'chat', depth: 0, isOwner: true, trusted: true });
    assert.ok(!denied.allowed.includes('mine'));
    void g.dispose();
  });

  it('a file added, changed or removed changes the tools on the next build; a broken file registers nothing and says where', async () => {
    f = customFixture();
    assert.equal(f.rt.registry.get('later'), undefined);
    f.writeTool('later.json', printArgs('later', [...PRINT, '{{text}}']));
    assert.equal((await f.run('later', { text: 'one' })).forLLM.includes('<one>'), true);
    f.writeTool('later.json', printArgs('later', [...PRINT, 'changed', '{{text}}']));
    assert.match((await f.run('later', { text: 'two' })).forLLM, /<changed>\n<two>/);
    f.writeTool('later.json', '{ "name": "later", "description": "x", "command": "printf" }');
    assert.equal(f.rt.registry.get('later'), undefined, 'broken: not registered');
    assert.match(f.read().problems.join('\n'), /later\.json: command: /);
    fs.rmSync(path.join(f.root, '.pincer', 'tools', 'later.json'));
    f.reload();
    assert.equal(f.rt.registry.get('later'), undefined);
    assert.deepEqual(f.read().problems, []);
  });

  it('an untrusted workspace registers none of its own tools, the person\'s still', () => {
    f = customFixture({ trusted: false, user: printArgs('mine', ['true'], {}) });
    f.writeTool('theirs.json', printArgs('theirs', ['true'], {}));
    assert.equal(f.rt.registry.get('theirs'), undefined);
    assert.ok(f.rt.registry.get('mine'));
    assert.match(f.read().skipped[0].reason, /not trusted/);
  });
});
