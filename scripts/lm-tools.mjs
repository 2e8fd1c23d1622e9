#!/usr/bin/env node
// Writes package.json's `contributes.languageModelTools` and the pincer.lm.offeredTools setting from
// the toolset (src/cli/lm-contributions.ts), after a change to a tool's name, description or schema.
//   npm run compile && node scripts/lm-tools.mjs            # writes package.json
//   node scripts/lm-tools.mjs --check [--out .out-NAME]     # exit 1 when package.json is out of date
// --out names the TypeScript output folder to load from (default: out).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : 'out';
const check = args.includes('--check');

const require = createRequire(import.meta.url);
const { generateLmContributions, withLmContributions } = require(path.join(root, out, 'src/cli/lm-contributions.js'));
const file = path.join(root, 'package.json');
const before = fs.readFileSync(file, 'utf8');
const after = withLmContributions(before, await generateLmContributions());
if (after === before) {
  console.log('package.json: the language model tools are up to date.');
} else if (check) {
  console.error('package.json: the language model tools differ from the toolset; run `npm run compile && node scripts/lm-tools.mjs`.');
  process.exitCode = 1;
} else {
  fs.writeFileSync(file, after);
  console.log('package.json: language model tools and pincer.lm.offeredTools written.');
}
