// `npm run bench`: every benchmark, one at a time (the machine has two cores; parallel runs would
// measure each other). Each writes its records to bench/results/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = fs.readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs')
  .filter((f) => !only.length || only.some((o) => f.includes(o))).sort();
// A name is matched against the files' names (a file may record several benchmarks: exec-policy.mjs
// writes exec-policy-decision): a name that matches none says so rather than running nothing quietly.
const unmatched = only.filter((o) => !benches.some((f) => f.includes(o)));
if (unmatched.length) {
  console.error(`run-all: no bench file's name contains ${unmatched.map((o) => `"${o}"`).join(', ')}. Files: ${fs.readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs').join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const b of benches) {
  console.log(`== ${b}`);
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(here, b)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
