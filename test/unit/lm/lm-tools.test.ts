// The tools VS Code's own agent is offered: package.json's entries are what the toolset says (no
// hand-written copy to drift), they pass VS Code's manifest rules, and pincer.lm.offeredTools picks
// them through `when` clauses that read the setting the way VS Code presents it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generateLmContributions, withLmContributions, type LmContributions } from '../../../src/cli/lm-contributions';
import { LM_OFFERABLE, defaultOffered, offeredLmTools, offeredWhen, pincerToolName, toolReferenceName } from '../../../src/core/lm/lm-tools';

const PACKAGE_JSON = path.join(__dirname, '..', '..', '..', '..', 'package.json');

/** How VS Code evaluates `config.<array setting> =~ /re/`: the array's JSON text against the regex. */
function whenHolds(when: string, setting: unknown): boolean {
  const m = /^config\.pincer\.lm\.offeredTools =~ \/(.*)\/$/.exec(when);
  assert.ok(m, when);
  return new RegExp(m[1]).test(JSON.stringify(setting));
}

describe('VS Code agent tools: package.json from the toolset', () => {
  let gen: LmContributions;
  before(async () => {
    gen = await generateLmContributions();
  });

  it('package.json holds exactly the generated entries (run scripts/lm-tools.mjs after changing a tool)', () => {
    const text = fs.readFileSync(PACKAGE_JSON, 'utf8');
    assert.equal(withLmContributions(text, gen), text);
    const pkg = JSON.parse(text);
    assert.deepEqual(pkg.contributes.languageModelTools.map((t: { name: string }) => t.name), LM_OFFERABLE.map((n) => `pincer_${n}`));
  });

  it('every entry passes VS Code\'s manifest rules and carries the tool\'s own schema', () => {
    for (const t of gen.tools) {
      assert.match(t.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.match(t.toolReferenceName, /^[\w-]+$/);
      assert.ok(t.displayName && t.modelDescription && t.userDescription, t.name);
      for (const tag of t.tags) assert.doesNotMatch(tag, /^(copilot_|vscode_)/);
      assert.equal(t.inputSchema.type, 'object', t.name);
    }
    const exec = gen.tools.find((t) => t.name === 'pincer_exec')!;
    assert.deepEqual((exec.inputSchema as { required: string[] }).required, ['command']);
    assert.equal(toolReferenceName('read_file'), 'pincerReadFile');
    assert.equal(pincerToolName('pincer_read_file'), 'read_file');
    assert.equal(pincerToolName('copilot_readFile'), undefined);
  });

  it('offers the read-only tools, the edit tools and exec by default; process only on request', () => {
    const def = gen.setting.default as string[];
    assert.deepEqual(def, defaultOffered([
      ...['read_file', 'read_document', 'read_image', 'list_files', 'glob', 'grep', 'memory_search', 'memory_get', 'memory_expand'].map((name) => ({ name, capability: 'read-only' as const })),
      ...['edit', 'write_file', 'apply_patch', 'exec', 'process'].map((name) => ({ name, capability: 'mutating' as const })),
    ]));
    for (const n of ['read_file', 'read_document', 'read_image', 'grep', 'edit', 'write_file', 'apply_patch', 'exec', 'memory_search']) assert.ok(def.includes(n), n);
    assert.ok(!def.includes('process'));
    for (const t of gen.tools) assert.equal(whenHolds(t.when, def), def.includes(pincerToolName(t.name)!), t.name);
  });
});

describe('VS Code agent tools: pincer.lm.offeredTools', () => {
  it('a when clause holds exactly while the list names its tool', () => {
    const when = offeredWhen('read_file');
    assert.ok(whenHolds(when, ['grep', 'read_file']));
    assert.ok(!whenHolds(when, ['grep']));
    assert.ok(!whenHolds(when, []));
    assert.ok(!whenHolds(when, ['read_file_x', 'xread_file']), 'a longer name is not the tool');
    assert.ok(!whenHolds(offeredWhen('edit'), ['memory_edit']));
  });

  it('keeps offerable names once each and reports the rest', () => {
    const warnings: string[] = [];
    assert.deepEqual(offeredLmTools(['grep', 'exec', 'grep', 'sessions_send', 'rm', 7], (m) => warnings.push(m)), ['grep', 'exec']);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /"sessions_send" is not a tool Pincer offers/);
  });

  it('offers nothing for an empty list or a value that is not a list', () => {
    const warnings: string[] = [];
    assert.deepEqual(offeredLmTools([], (m) => warnings.push(m)), []);
    assert.deepEqual(offeredLmTools('read_file', (m) => warnings.push(m)), []);
    assert.deepEqual(offeredLmTools(undefined, (m) => warnings.push(m)), []);
    assert.equal(warnings.length, 1);
  });
});
