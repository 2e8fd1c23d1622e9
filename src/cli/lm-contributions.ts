// package.json's part for VS Code's own agent, generated from the one toolset: the
// `contributes.languageModelTools` entries (names, descriptions, input schemas from the tools' zod
// schemas) and the pincer.lm.offeredTools setting (its choices and default). VS Code reads both
// before Pincer runs, so they must be written into package.json; scripts/lm-tools.mjs does that and
// a unit test checks that package.json still says what the toolset says.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { LM_OFFERED_SETTING, lmToolContributions, offeredSettingSchema, type LmToolContribution } from '../core/lm/lm-tools';
import { runtimeFor } from './cli-run';

export interface LmContributions {
  tools: LmToolContribution[];
  setting: Record<string, unknown>;
}

/** The toolset as the CLI builds it on an empty folder with default settings: the same tools and schemas everywhere. */
export async function generateLmContributions(): Promise<LmContributions> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-lm-tools-'));
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(workspace);
  const c = runtimeFor({ workspace, state: path.join(dir, 'state') });
  try {
    const tools = c.rt.registry.list();
    return { tools: lmToolContributions(tools, (t) => c.rt.registry.jsonSchema(t)), setting: offeredSettingSchema(tools) };
  } finally {
    await c.jobs.dispose();
    await c.store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** package.json's text with the generated parts put in; everything else stays byte for byte. */
export function withLmContributions(packageJson: string, gen: LmContributions): string {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
  let text = packageJson;
  text = applyEdits(text, modify(text, ['contributes', 'languageModelTools'], gen.tools, { formattingOptions }));
  text = applyEdits(text, modify(text, ['contributes', 'configuration', 'properties', LM_OFFERED_SETTING], gen.setting, { formattingOptions }));
  return text;
}
