// The lane sources made beforehand (src/core/guard/scrub-lane-sources.ts) are the ones the static
// rules make: a rule changed without making them again fails here. Run with
// PINCER_WRITE_LANE_SOURCES=1 (from the repository root) to write the file anew from the rules.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LANE_SOURCES, LANE_SOURCES_PLACEHOLDER } from '../../../src/core/guard/scrub-lane-sources';
import { combineLanes, laneSources, lanesFromSources } from '../../../src/core/guard/scrub-lanes';
import { staticRules } from '../../../src/core/guard/scrub-patterns';
import { runCombined } from '../../../src/core/guard/scrub-combine';
import { Scrubber } from '../../../src/core/guard/scrubber';

const FILE = path.join('src', 'core', 'guard', 'scrub-lane-sources.ts');

/** The file's text for these sources. */
function fileText(sources: readonly string[]): string {
  const head = fs.readFileSync(FILE, 'utf8').split('export const LANE_SOURCES:')[0];
  return `${head}export const LANE_SOURCES: readonly string[] = [\n${sources.map((s) => `  ${JSON.stringify(s)},\n`).join('')}];\n`;
}

describe('scrub lane sources made beforehand', () => {
  it('are what the static rules make for the default placeholder', () => {
    const made = laneSources(staticRules(LANE_SOURCES_PLACEHOLDER));
    if (process.env.PINCER_WRITE_LANE_SOURCES === '1') fs.writeFileSync(FILE, fileText(made));
    assert.deepEqual([...LANE_SOURCES], made, `${FILE} is out of date: run this test with PINCER_WRITE_LANE_SOURCES=1 from the repository root`);
    assert.equal(new Scrubber().scrub('x'), 'x');
  });

  it('scan as the lanes built from the rules do, their rules looked up on the first match', () => {
    let asked = 0;
    const rules = staticRules(LANE_SOURCES_PLACEHOLDER);
    const prebuilt = lanesFromSources(LANE_SOURCES, () => {
      asked += 1;
      return rules;
    });
    const built = combineLanes(rules);
    assert.deepEqual(prebuilt.map((l) => l.re.source), built.map((l) => l.re.source));
    const clean = 'const x = 1;\nls -la\n';
    assert.equal(runCombined(prebuilt, clean, '[REDACTED]'), clean);
    assert.equal(asked, 0, 'no match: the rules were not needed');
    const text = 'GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5\npassword: "Xq9!pL2vB7wZ#rT4"\n';
    assert.equal(runCombined(prebuilt, text, '[REDACTED]'), runCombined(built, text, '[REDACTED]'));
    assert.notEqual(runCombined(prebuilt, text, '[REDACTED]'), text);
    assert.equal(asked, 1, 'the rules are asked for once');
  });

  it('keep the text where sources made from other rules match and no rule does', () => {
    const rules = staticRules(LANE_SOURCES_PLACEHOLDER);
    // Sources made with the GitHub token rule, rules without it (a file left out of date).
    const github = rules.find((r) => r.source.includes('ghr'));
    assert.ok(github, 'a rule names the ghr_ prefix');
    const stale = lanesFromSources(laneSources(rules), () => rules.filter((r) => r !== github));
    const text = 'x ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5 y\n';
    assert.equal(runCombined(stale, text, '[REDACTED]'), text);
    assert.equal(runCombined(combineLanes(rules), text, '[REDACTED]'), 'x ghp_[REDACTED] y\n');
  });
});
