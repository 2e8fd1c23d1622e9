// apply_patch: adds, deletes, updates and moves files in one call, in the `*** Begin Patch` format
// (parser in patch-parse.ts, matching in patch-apply.ts, the all-or-nothing plan in patch-plan.ts).
// Every change of the patch goes to the reviewer in one batch, after all of them were verified.
import { z } from 'zod';
import { parsePatch } from '../patch-parse';
import { planPatch } from '../patch-plan';
import { reviewChanges } from '../review-result';
import type { FsToolDeps } from '../types';
import { defineTool, fail, ok, type Tool } from '../../tools/types';

const NOTHING = 'No files were modified.';

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get input() {
    return z.string().min(1).describe('The whole patch, from "*** Begin Patch" to "*** End Patch".');
  },
}).strict();

const description = [
  'Changes one or more files with a patch. Format:',
  '*** Begin Patch',
  '*** Add File: path/new.ts        (then every line of the new file prefixed with +)',
  '*** Delete File: path/old.ts',
  '*** Update File: path/file.ts',
  '*** Move to: path/renamed.ts     (optional, right after Update File)',
  '@@ a line of the file near the change (optional, to locate the hunk)',
  ' unchanged context line (prefix: space)',
  '-removed line',
  '+added line',
  '*** End of File                  (optional: the hunk ends at the end of the file)',
  '*** End Patch',
  'Give about 3 lines of context before and after each change; hunks of one file in file order; paths relative to the workspace. ' +
  'The patch is applied completely or not at all: if a hunk does not match, the result names it and shows the closest lines of the file. ' +
  'Add File refuses to overwrite an existing file. The changes may be shown to the user for review; the result gives each file\'s decision.',
].join('\n');

export function createApplyPatchTool(deps: FsToolDeps): Tool {
  return defineTool({
    name: 'apply_patch',
    description,
    parameters,
    group: 'fs',
    capability: 'mutating',
    async execute(args, ctx) {
      const parsed = parsePatch(args.input);
      if (!parsed.ok) return fail(`${parsed.message}\n${NOTHING}`, { details: { stage: 'parse' } });
      const plan = await planPatch(deps, parsed.ops, ctx.signal);
      if (!plan.ok) {
        const head = plan.errors.length > 1 ? `The patch has ${plan.errors.length} problems:\n\n` : '';
        return fail(`${head}${plan.errors.join('\n\n')}\n\n${NOTHING} The patch is applied whole or not at all: fix it and send the whole patch again.`, {
          details: { stage: 'verify', errors: plan.errors.length },
        });
      }
      if (!plan.items.length) {
        return ok(`The patch changes nothing (${plan.unchanged.join(', ')} would stay as ${plan.unchanged.length === 1 ? 'it is' : 'they are'}). ${NOTHING}`, {
          details: { unchanged: plan.unchanged },
        });
      }
      const turn = ctx.turnId ?? ctx.sessionKey;
      const items = plan.items.map((i) => ({ ...i, change: { ...i.change, turn } }));
      const result = await reviewChanges(deps, 'apply_patch', items, ctx.signal, {
        files: plan.items.length, ...(plan.unchanged.length ? { unchanged: plan.unchanged } : {}),
      });
      const decisions = (result.details?.decisions as { decision: string }[] | undefined) ?? [];
      if (decisions.length && decisions.every((d) => d.decision === 'rejected')) result.forLLM += `\n${NOTHING}`;
      return result;
    },
  });
}
