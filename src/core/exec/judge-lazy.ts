// The command judge (the shell parser and its tree-sitter runtime, the rules, the approval rules) is
// the largest part of the runtime. Modules evaluated when the runtime loads (the approval store, the
// language-model tool preparation, custom tools, the MCP add view) reach it through these functions,
// which require it at their first call: in the bundle a module reached only through require() runs
// then, so a window whose first call is read_file never evaluates it. Literal paths, so that esbuild
// bundles them.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Decide from './exec-decide';
import type * as Parse from './command-parse';
import type * as Rules from './approval-rules';

export const decide: typeof Decide.decide = (deps, req) => (require('./exec-decide') as typeof Decide).decide(deps, req);
export const parseCommand: typeof Parse.parseCommand = (command, opts) => (require('./command-parse') as typeof Parse).parseCommand(command, opts);
export const validateRule: typeof Rules.validateRule = (entry) => (require('./approval-rules') as typeof Rules).validateRule(entry);
