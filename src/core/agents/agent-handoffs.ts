// A Copilot custom agent's `handoffs` (front matter: `handoffs: [{label, agent, prompt, send}]`): the
// next steps its author offers under the agent's answer — "Start implementation" hands the chat to the
// `implementation` agent with a prompt written in (sent at once when `send` is true).
//
// Decisions:
// - `agent` is the target's file name, as Copilot has it; it must be a valid Pincer agent id as it is
//   (lower-cased), or the entry is left out with a warning: a cleaned-up name could name another agent.
// - Whether the target exists is decided when the buttons are shown (agents come and go while the
//   window is open), not here.
// - One broken entry leaves out that entry only; a `handoffs` that is not a list is ignored whole. Both
//   are named in a warning, never fatal: a button is an offer to the person, never a permission.
// - Copilot's per-handoff `model` is not used (the chosen model applies) and is said once.
import { idProblem } from './agent-fields';
import type { AgentDefinition } from './types';

export interface AgentHandoff {
  /** The button's text. */
  label: string;
  /** The agent the chat is handed to. */
  agent: string;
  /** Written into the input for the person (sent at once when `send`). */
  prompt?: string;
  send: boolean;
}

/** At most this many buttons under one answer. */
export const MAX_HANDOFFS = 10;
const LABEL_MAX = 100;
const PROMPT_MAX = 10_000;
const KNOWN = new Set(['label', 'agent', 'prompt', 'send', 'model']);

export function parseHandoffs(raw: unknown, file: string): { handoffs: AgentHandoff[]; warnings: string[] } {
  const warnings: string[] = [];
  const handoffs: AgentHandoff[] = [];
  if (raw === undefined || raw === null) return { handoffs, warnings };
  if (!Array.isArray(raw)) return { handoffs, warnings: [`${file}: its "handoffs" is not a list of {label, agent, prompt, send} and is ignored.`] };
  const unused = new Set<string>();
  raw.forEach((entry, i) => {
    const where = `${file}: handoffs[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return void warnings.push(`${where} is not a {label, agent, prompt, send} entry and is left out.`);
    const e = entry as Record<string, unknown>;
    Object.keys(e).filter((k) => !KNOWN.has(k) || k === 'model').forEach((k) => unused.add(k));
    const label = typeof e.label === 'string' ? e.label.trim() : '';
    if (!label || label.length > LABEL_MAX) return void warnings.push(`${where} needs a "label" text of 1 to ${LABEL_MAX} characters; left out.`);
    const agent = typeof e.agent === 'string' ? e.agent.trim().toLowerCase() : '';
    const bad = agent ? idProblem(agent) : 'no "agent" is named';
    if (bad) return void warnings.push(`${where} ("${label}"): ${bad}; left out.`);
    if (e.prompt !== undefined && (typeof e.prompt !== 'string' || e.prompt.length > PROMPT_MAX)) {
      return void warnings.push(`${where} ("${label}"): its "prompt" is not a text of at most ${PROMPT_MAX} characters; left out.`);
    }
    if (e.send !== undefined && typeof e.send !== 'boolean') return void warnings.push(`${where} ("${label}"): its "send" is not true or false; left out.`);
    const prompt = typeof e.prompt === 'string' && e.prompt.trim() ? e.prompt.trim() : undefined;
    // Sending needs something to send: without a prompt the button only hands the chat over.
    handoffs.push({ label, agent, ...(prompt ? { prompt } : {}), send: e.send === true && prompt !== undefined });
  });
  if (unused.size) warnings.push(`${file}: handoffs' ${[...unused].sort().map((k) => `"${k}"`).join(', ')} ${unused.size === 1 ? 'is' : 'are'} not used by Pincer.`);
  if (handoffs.length > MAX_HANDOFFS) warnings.push(`${file}: only the first ${MAX_HANDOFFS} handoffs are shown.`);
  return { handoffs: handoffs.slice(0, MAX_HANDOFFS), warnings };
}

/** A handoff as a button under an answer: its target named as people see it. */
export interface HandoffButton extends AgentHandoff {
  agentName: string;
}

/**
 * The buttons under an answer of `from`: its handoffs whose target is a defined agent now (a button
 * that could only fail is not shown), never one that hands the chat to `from` itself.
 */
export function handoffButtons(from: Pick<AgentDefinition, 'id' | 'handoffs'> | undefined, defined: (id: string) => Pick<AgentDefinition, 'name'> | undefined): HandoffButton[] {
  return (from?.handoffs ?? []).flatMap((h) => {
    const target = h.agent === from?.id ? undefined : defined(h.agent);
    return target ? [{ ...h, agentName: target.name }] : [];
  });
}
