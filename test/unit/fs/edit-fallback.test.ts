// edit's last two fallbacks, for what models copy from read_file: line-number prefixes in
// old_string (matched without them, and said), and the right lines at another indentation (matched
// at one place only, new_string re-indented by the same offset, and said). Text that really holds
// what looks like a prefix still matches as written, and a loose match in several places is refused.
import assert from 'node:assert/strict';
import { withoutLineNumbers } from '../../../src/core/fs/edit-fallback';
import { createEditTool } from '../../../src/core/fs/tools/edit';
import { removeTempDirs } from '../../support/fs-fixtures';
import { harness } from './edit-harness';

describe('edit: line-number prefixes and indentation', () => {
  after(removeTempDirs);

  const code = 'function main() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n';

  for (const [form, old] of [
    ['read_file\'s "  12\\t"', ' 2\t  const a = 1;\n 3\t  const b = 2;'],
    ['"12 | "', '2 |   const a = 1;\n3 |   const b = 2;'],
    ['"12→"', '     2→  const a = 1;\n     3→  const b = 2;'],
    ['"12:"', '2:  const a = 1;\n3:  const b = 2;'],
  ] as const) {
    it(`matches old_string without ${form} prefixes, and says so`, async () => {
      const h = harness({ 'm.ts': code });
      const r = await h.run(createEditTool(h.deps), { path: 'm.ts', old_string: old, new_string: '  const a = 10;\n  const b = 20;' });
      assert.equal(r.isError, false, r.forLLM);
      assert.equal(h.ws.read('m.ts'), 'function main() {\n  const a = 10;\n  const b = 20;\n  return a + b;\n}\n');
      assert.match(r.forLLM, /line-number prefix .* it matched without them/);
      assert.equal(r.details!.match, 'line-numbers');
    });
  }

  it('strips the same prefixes from new_string when it carries them too', async () => {
    const h = harness({ 'm.ts': code });
    const r = await h.run(createEditTool(h.deps), { path: 'm.ts', old_string: '4\t  return a + b;', new_string: '4\t  return a * b;' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('m.ts'), code.replace('a + b', 'a * b'));
  });

  it('a prefix-looking start that is really content matches as written (hostile: never stripped when the exact text exists)', async () => {
    const yaml = 'steps:\n1: build\n2: test\nbuild\ntest\n';
    const h = harness({ 'plan.yml': yaml });
    const r = await h.run(createEditTool(h.deps), { path: 'plan.yml', old_string: '1: build\n2: test', new_string: '1: lint\n2: test' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('plan.yml'), 'steps:\n1: lint\n2: test\nbuild\ntest\n', 'the numbered lines changed, not the bare ones');
    assert.equal(r.details!.match, 'exact');
    assert.doesNotMatch(r.forLLM, /line-number/);
  });

  it('only a prefix on every line, numbered one by one, counts as line numbers', () => {
    assert.equal(withoutLineNumbers('12\tx\n13\ty')?.text, 'x\ny');
    assert.equal(withoutLineNumbers('12\tx\n\n14\ty')?.text, 'x\n\ny', 'an empty line keeps its count');
    assert.equal(withoutLineNumbers('12\tx\n14\ty'), undefined, 'numbers that skip are content');
    assert.equal(withoutLineNumbers('12\tx\nplain'), undefined, 'one line without a prefix');
    assert.equal(withoutLineNumbers('1: a\n2| b'), undefined, 'mixed forms');
    assert.equal(withoutLineNumbers('port: 8080'), undefined);
  });

  it('matches when only indentation differs, re-indents new_string by the same offset, and says so', async () => {
    const py = 'class A:\n    def run(self):\n        x = 1\n        if x:\n            go()\n';
    const h = harness({ 'a.py': py });
    const r = await h.run(createEditTool(h.deps), {
      path: 'a.py', old_string: 'x = 1\nif x:\n    go()', new_string: 'x = 2\nif x:\n    go()\n    stop()',
    });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('a.py'), 'class A:\n    def run(self):\n        x = 2\n        if x:\n            go()\n            stop()\n');
    assert.match(r.forLLM, /indentation ignored; the file has 8 spaces more indentation there, and new_string was re-indented/);
    assert.equal(r.details!.match, 'indentation');
  });

  it('removes indentation the same way when old_string is indented deeper than the file', async () => {
    const h = harness({ 'b.js': 'if (a) {\n\tcall();\n}\n' });
    const r = await h.run(createEditTool(h.deps), { path: 'b.js', old_string: '\t\tcall();\n', new_string: '\t\tcall();\n\t\tmore();\n' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(h.ws.read('b.js'), 'if (a) {\n\tcall();\n\tmore();\n}\n');
  });

  it('refuses an indentation-insensitive match that fits several places, naming their lines (even with replace_all)', async () => {
    const file = 'a:\n  x = 1\n  y = 2\nb:\n    x = 1\n    y = 2\n';
    const h = harness({ 'c.txt': file });
    for (const replaceAll of [false, true]) {
      const r = await h.run(createEditTool(h.deps), { path: 'c.txt', old_string: 'x = 1\ny = 2', new_string: 'x = 3\ny = 4', replace_all: replaceAll });
      assert.equal(r.isError, true, r.forLLM);
      assert.match(r.forLLM, /indentation ignored.*2 places in c\.txt, at lines 2, 5/s);
      assert.equal(h.ws.read('c.txt'), file);
    }
  });

  it('does not treat lines whose indentation differs unevenly as the same lines', async () => {
    const h = harness({ 'd.txt': 'top\n  one\n      two\n' });
    const r = await h.run(createEditTool(h.deps), { path: 'd.txt', old_string: 'one\ntwo', new_string: 'ONE\nTWO' });
    assert.equal(r.isError, true, r.forLLM);
    assert.equal(h.ws.read('d.txt'), 'top\n  one\n      two\n');
  });

  it('a long repetitive file and old_string finish quickly (complexity guard)', async () => {
    // Bounded by the test's timeout: a quadratic search would take minutes.
    const h = harness({ 'r.txt': '  a\n'.repeat(100_000) + '  b\n', 's.txt': 'a\n'.repeat(100_000) });
    const many = await h.run(createEditTool(h.deps), { path: 'r.txt', old_string: 'a\n'.repeat(500), new_string: 'c\n' });
    assert.equal(many.isError, true);
    assert.match(many.forLLM, /in all/);
    const none = await h.run(createEditTool(h.deps), { path: 's.txt', old_string: '  a\n'.repeat(3000) + '  z\n', new_string: 'c\n' });
    assert.equal(none.isError, true);
    assert.match(none.forLLM, /was not found/);
  });
});
