// edit: replaces exact text in one existing file, or several pieces at once (`edits`), all located
// in the original content and applied together or not at all. Matching is exact first, then
// tolerant of line endings, trailing spaces, Unicode forms and smart quotes, then of copied
// line-number prefixes and of indentation (one place only; new_string re-indented to fit), and
// whichever matched, only the matched text is replaced (edit-plan.ts) and the result says which.
// The file's BOM, encoding and line endings stay.
import { z } from 'zod';
import { planEdits, type EditSpec, type Replacement } from '../edit-plan';
import { numbered } from '../edit-nearest';
import { reviewChanges } from '../review-result';
import { encodeText, readTextFile, unreadableMessage } from '../text-encoding';
import { PathError, type FsToolDeps, type ProposedChange } from '../types';
import { defineTool, fail, type Tool } from '../../tools/types';

const MAX_EDITS = 100;

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const editSchema = z.object({
  get old_string() {
    return z.string().describe('Exact text to replace, copied from the file (without read_file\'s line-number prefixes).');
  },
  get new_string() {
    return z.string().describe('The text to put in its place.');
  },
  get replace_all() {
    return z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one. Default false.');
  },
}).strict();

const parameters = z.object({
  get path() {
    return z.string().min(1).describe('File to edit, relative to the workspace root (or absolute inside it).');
  },
  get old_string() {
    return z.string().optional().describe('Exact text to replace; must match exactly one place unless replace_all is true. Include enough surrounding lines to make it unique.');
  },
  get new_string() {
    return z.string().optional().describe('Replacement text (use with old_string).');
  },
  get replace_all() {
    return z.boolean().optional().describe('With old_string: replace every occurrence. Default false.');
  },
  get edits() {
    return z.array(editSchema).min(1).max(MAX_EDITS).optional()
      .describe('Several replacements in this file, instead of old_string/new_string. Each is matched against the ORIGINAL file (not against the result of the previous one); they must not overlap; all are applied or none.');
  },
}).strict();

const description = 'Replaces text in an existing file. Give old_string (copied exactly from the file, enough lines to be unique) and new_string, ' +
  'or an `edits` array to make several replacements in one file at once (atomic). If old_string is not found, the result shows the most ' +
  'similar lines with their numbers; if it matches several places, their line numbers. Keeps the file\'s line endings and encoding. ' +
  'To create a new file use write_file. The change may be shown to the user for review; the result says whether it was accepted, rejected or edited by the user.';

type Args = z.infer<typeof parameters>;

function specsOf(args: Args): EditSpec[] | string {
  const single = args.old_string !== undefined || args.new_string !== undefined || args.replace_all !== undefined;
  if (args.edits && single) return 'Give either old_string/new_string (one replacement) or edits (several), not both.';
  if (args.edits) return args.edits;
  if (args.old_string === undefined || args.new_string === undefined) {
    return `${args.old_string === undefined ? 'old_string' : 'new_string'} is missing: give old_string and new_string, or an edits array of {old_string, new_string}.`;
  }
  return [{ old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all }];
}

/**
 * The new text around the first replacement (one line either side, at most 12 lines), numbered, so
 * the model can check the result. Nothing before the first replacement moved, so its line holds.
 */
function preview(text: string, first: Replacement): string {
  const lines = text.split(/\r?\n/);
  const newLines = first.text.split(/\r?\n/).length;
  const from = Math.max(1, first.line - 1);
  const to = Math.min(lines.length, first.line + newLines, from + 11);
  return numbered(lines, from, to);
}

const FUZZY_NOTE = 'old_string matched only after unifying whitespace, quotes or Unicode forms, and only the matched text was replaced';

/** Which fallback matched, loosest first (for details.match); 'exact' covers line endings too. */
function matchKind(replacements: Replacement[]): string {
  return (['indentation', 'line-numbers', 'fuzzy'] as const).find((k) => replacements.some((r) => r.kind === k)) ?? 'exact';
}

function summary(replacements: Replacement[], editCount: number): string {
  const notes = [...new Set(replacements.map((r) => r.note ?? (r.kind === 'fuzzy' ? FUZZY_NOTE : '')).filter(Boolean))];
  const lines = [...new Set(replacements.map((r) => r.line))];
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', …' : '');
  const count = `${replacements.length} replacement${replacements.length === 1 ? '' : 's'}`;
  const from = editCount > 1 ? ` from ${editCount} edits` : '';
  const note = notes.length ? `; ${notes.join('; ')}` : '';
  return `edited (${count}${from} at line${lines.length === 1 ? '' : 's'} ${shown}${note})`;
}

export function createEditTool(deps: FsToolDeps): Tool {
  return defineTool({
    name: 'edit',
    description,
    parameters,
    group: 'fs',
    capability: 'mutating',
    async execute(args, ctx) {
      const specs = specsOf(args);
      if (typeof specs === 'string') return fail(specs);
      let target;
      try {
        target = await deps.guard.resolve(args.path, 'write');
      } catch (e) {
        if (e instanceof PathError) return fail(e.message);
        throw e;
      }
      const rel = target.rel || target.abs;
      const file = await readTextFile(deps.fs, target.abs, ctx.signal);
      if (file.kind === 'missing') return fail(`${rel} does not exist. edit only changes existing files; to create it, use write_file.`);
      if (file.kind === 'directory') return fail(`${rel} is a folder, not a file.`);
      if (file.kind === 'unreadable') return fail(unreadableMessage(rel, file.reason));
      const doc = file.decoded;
      const plan = planEdits(doc, specs, rel);
      if (!plan.ok) return fail(plan.message, { details: { path: rel, reason: plan.reason } });

      const previewText = preview(plan.text, plan.replacements[0]!);
      const change: ProposedChange = {
        tool: 'edit', path: target, before: doc.text, after: plan.text,
        afterBytes: encodeText(plan.text, doc), turn: ctx.turnId ?? ctx.sessionKey,
      };
      const result = await reviewChanges(deps, 'edit', [{ change, what: summary(plan.replacements, specs.length) }], ctx.signal, {
        path: rel,
        replacements: plan.replacements.length,
        lines: [...new Set(plan.replacements.map((r) => r.line))],
        match: matchKind(plan.replacements),
      });
      const decision = (result.details?.decisions as { decision: string }[] | undefined)?.[0]?.decision;
      if (decision === 'accepted') result.forLLM += `\nThe file now reads:\n${previewText}`;
      return result;
    },
  });
}
