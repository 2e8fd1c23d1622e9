import assert from 'node:assert/strict';
import { readMemoryConfig, ROUTED_CONTEXT_FILES } from '../../../src/core/memory/memory-config';

function read(values: Record<string, unknown>) {
  const warnings: string[] = [];
  const config = readMemoryConfig((k) => values[k], (m) => warnings.push(m));
  return { config, warnings };
}

describe('memory settings', () => {
  it('defaults: the OS user, all seven context files routed, keyword-only search', () => {
    const { config, warnings } = read({});
    assert.equal(config.user, '');
    assert.deepEqual(config.routedContextFiles, [...ROUTED_CONTEXT_FILES]);
    assert.ok(!(config.routedContextFiles as string[]).includes('TOOLS.md'));
    assert.deepEqual(config.embeddings, { baseUrl: '', model: '' });
    assert.deepEqual(warnings, []);
  });

  it('an embeddings endpoint needs both a URL and a model; one alone stays keyword-only and says why', () => {
    const half = read({ 'memory.embeddings.baseUrl': 'http://localhost:11434/v1' });
    assert.equal(half.config.embeddings.baseUrl, '');
    assert.match(half.warnings.join('\n'), /pincer\.memory\.embeddings\.model/);
    const full = read({ 'memory.embeddings.baseUrl': 'http://localhost:11434/v1', 'memory.embeddings.model': 'nomic-embed-text', 'memory.embeddings.dimensions': 256 });
    assert.deepEqual(full.config.embeddings, { baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 256 });
  });

  it('hostile values fall back with a warning naming the setting: file: URLs, TOOLS.md routing, slashes in the user name', () => {
    const r = read({ 'memory.embeddings.baseUrl': 'file:///etc/passwd', 'memory.embeddings.model': 'm', 'contextFiles.routed': ['TOOLS.md'], user: '../bob' });
    assert.equal(r.config.embeddings.baseUrl, '');
    assert.deepEqual(r.config.routedContextFiles, [...ROUTED_CONTEXT_FILES]);
    assert.equal(r.config.user, '');
    assert.match(r.warnings.join('\n'), /pincer\.memory\.embeddings\.baseUrl/);
    assert.match(r.warnings.join('\n'), /pincer\.contextFiles\.routed/);
    assert.match(r.warnings.join('\n'), /pincer\.user/);
  });

  it('a name can be taken out of routing (a repository AGENTS.md stays on disk)', () => {
    const names = ROUTED_CONTEXT_FILES.filter((n) => n !== 'AGENTS.md');
    assert.deepEqual(read({ 'contextFiles.routed': names }).config.routedContextFiles, names);
  });
});
