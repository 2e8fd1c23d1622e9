// The shape every agent's hook format takes in Pincer: read the event an agent sends on stdin, say
// which folder it names as the project, and answer it (stdout and an exit code) once the checks for
// that folder are built.
import { z } from 'zod';
import type { HookChecks } from './hook-checks';

export interface HookAnswer {
  /** Printed as is; undefined: nothing (the agent's own permission flow goes on). */
  stdout?: string;
  code: number;
}

export interface HookRequest {
  /** The project folder the event names (or the agent's environment does), if any. */
  workspace?: string;
  answer(checks: HookChecks): Promise<HookAnswer>;
}

/** The event could not be read: the CLI refuses the tool call (it cannot be judged). */
export class HookInputError extends Error {}

export type HookFormat = (stdin: string, env: NodeJS.ProcessEnv) => HookRequest;

/** Parses stdin as JSON and checks it against `schema`, with a message that names the agent. */
export function readEvent<S extends z.ZodType>(stdin: string, schema: S, agent: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch {
    throw new HookInputError(`the ${agent} hook event on standard input is not JSON.`);
  }
  const r = schema.safeParse(json);
  if (!r.success) throw new HookInputError(`the ${agent} hook event is not one Pincer knows: ${r.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ')}.`);
  return r.data;
}
