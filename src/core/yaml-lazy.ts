// yaml on the first file parsed (a SKILL.md, an agent file), not when the runtime loads: the build
// makes it a bundle of its own (dist/lazy-yaml.js, esbuild.mjs's lazy packages), so a window with no
// such file never evaluates it, nor does the first tool call.
import type * as Yaml from 'yaml';

export function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('yaml') as typeof Yaml;
}
