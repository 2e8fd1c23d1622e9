// Agents: who is calling the tools. An agent is defined in the workspace (.pincer/agents/<id>.md
// with YAML front matter), in user settings (pincer.agents), or is the built-in default that needs
// no setup. Its type decides how its context files are scoped (see memory/context-routing).
import type { AgentHandoff } from './agent-handoffs';

export type AgentType = 'open' | 'predefined';

export interface AgentDefinition {
  /** Lower-case id: letters, digits, '-' and '_' ([a-z0-9][a-z0-9_-]{0,63}). */
  id: string;
  /** Display name (front matter `name`, else the id). */
  name: string;
  /**
   * open: every context file is per user, the agent-level file is the fallback.
   * predefined: only USER.md is per user; the other files are shared by all users and the model
   * cannot change them.
   */
  type: AgentType;
  description?: string;
  /** Tool profile (minimal | coding | messaging | full), as in pincer.tools.profile. */
  profile?: string;
  /** Preferred model, as the model picker names it. */
  model?: string;
  /** Allowed tools (policy entries: names, group:x, globs); undefined = the profile decides. */
  tools?: string[];
  /** Tools removed from what the policy allows (a Claude Code definition's `disallowedTools`, mapped). */
  deniedTools?: string[];
  /**
   * The model a Copilot or Claude Code definition asks for, in its own words ("sonnet", "Claude
   * Sonnet 4"): used only when it names a model the chosen provider offers (see foreign-model.ts).
   */
  foreignModel?: string;
  /** Model requests per turn a definition allows itself (Claude Code's `maxTurns`); settings cap it. */
  maxIterations?: number;
  /**
   * Where it was defined; a workspace file wins over settings, both win over the default, which
   * wins over the read-only Copilot (`.github/agents/*.agent.md`) and Claude Code
   * (`.claude/agents/*.md`) definitions.
   */
  source: 'default' | 'workspace' | 'settings' | 'copilot' | 'claude';
  /** The defining file (workspace, Copilot and Claude Code agents), absolute. */
  file?: string;
  /**
   * The markdown body under the front matter. It seeds the agent-level SOUL.md: returned when no
   * SOUL.md is stored for the agent at all (from: 'definition').
   */
  instructions?: string;
  /** A Copilot custom agent's next steps, shown as buttons under its answers (agent-handoffs.ts). */
  handoffs?: AgentHandoff[];
}

export const DEFAULT_AGENT_ID = 'default';
