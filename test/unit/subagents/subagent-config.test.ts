// The subagent settings: the defaults, a bad value falls back with a warning naming the
// setting, and whether to ask before spawning is the person's setting alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig, USER_ONLY_SETTINGS } from '../../../src/core/config';
import { readSubagentConfig } from '../../../src/core/subagents/subagent-config';

describe('subagent settings', () => {
  it('defaults: 8 running, 5 per parent, 20 iterations, 15 min wall clock, 3 min stall, 60 min archive, 2 retries, ask for background children', () => {
    const c = readConfig(() => undefined);
    assert.deepEqual(c.subagents, {
      maxConcurrent: 8, maxChildrenPerParent: 5, maxIterations: 20, maxTokensPerChild: 200_000, maxTokensPerTree: 1_000_000,
      timeoutMs: 15 * 60_000, stallMs: 3 * 60_000, archiveMs: 60 * 60_000, maxRetries: 2, askBeforeSpawn: 'background',
    });
    assert.equal(c.policy.subagentMaxDepth, 1);
  });

  it('a bad value keeps the default and says which setting to fix; good values are taken', () => {
    const warnings: string[] = [];
    const settings: Record<string, unknown> = { 'subagents.maxConcurrent': 0, 'subagents.askBeforeSpawn': 'sometimes', 'subagents.stallMinutes': 7 };
    const c = readSubagentConfig((k) => settings[k], (m) => warnings.push(m));
    assert.equal(c.maxConcurrent, 8);
    assert.equal(c.askBeforeSpawn, 'background');
    assert.equal(c.stallMs, 7 * 60_000);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0], /^Setting pincer\.subagents\.maxConcurrent is invalid/);
  });

  it('askBeforeSpawn is read from user settings only, and package.json contributes every subagent setting', () => {
    assert.ok(USER_ONLY_SETTINGS.has('subagents.askBeforeSpawn'));
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } } };
    const props = pkg.contributes.configuration.properties;
    for (const key of ['maxDepth', 'maxConcurrent', 'maxChildrenPerParent', 'maxIterations', 'maxTokensPerChild', 'maxTokensPerTree', 'timeoutMinutes', 'stallMinutes', 'archiveMinutes', 'askBeforeSpawn']) {
      assert.ok(props[`pincer.subagents.${key}`], key);
    }
    assert.equal(props['pincer.subagents.askBeforeSpawn'].scope, 'application');
    assert.equal(props['pincer.subagents.maxConcurrent'].default, 8);
  });
});
