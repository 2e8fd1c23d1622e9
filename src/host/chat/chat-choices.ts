// The chat's pickers: the models every usable provider offers (with where each comes from) and the
// agents (and the teams, whose lead a pick makes the chat's agent), with the current choice. Model ids
// are `<provider>/<model>`.
import type { AgentChoice, ModelChoice } from '../../core/chat/chat-protocol';
import type { AgentRegistry } from '../../core/agents/agent-registry';
import { pickerChoices } from '../../core/teams/team-choices';
import type { TeamDefinition } from '../../core/teams/team-definition';
import type { ModelHost, ProviderId } from '../agent/model-host';

/** The order ModelHost.current() tries providers in when nothing is chosen. */
const ORDER: readonly ProviderId[] = ['vscode-lm', 'openai', 'anthropic'];

export async function chatChoices(models: ModelHost, agents: AgentRegistry, opts: { quick?: boolean; teams?: readonly TeamDefinition[] } = {}): Promise<{ models: ModelChoice[]; agents: AgentChoice[]; model?: string }> {
  const choice = models.choice();
  const model = choice ? `${choice.provider}/${choice.model}` : undefined;
  let list: ModelChoice[] = [];
  if (opts.quick) {
    if (choice) list = [{ id: model!, name: choice.model, source: choice.provider }];
  } else {
    list = (await models.models())
      .flatMap((m) => (m.info ? [{ provider: m.provider, info: m.info }] : []))
      .sort((a, b) => ORDER.indexOf(a.provider) - ORDER.indexOf(b.provider) || (a.info.id < b.info.id ? -1 : a.info.id > b.info.id ? 1 : 0))
      .map((m) => ({ id: `${m.provider}/${m.info.id}`, name: m.info.id, source: m.info.source }));
  }
  // Without a choice the picker shows what a message would use: the first model in provider order.
  const shown = model ?? list[0]?.id;
  return {
    models: list.slice(0, 200),
    agents: pickerChoices(agents.all().map((a) => ({ id: a.id, name: a.name, ...(a.description ? { description: a.description.slice(0, 400) } : {}) })), opts.teams ?? []),
    ...(shown ? { model: shown } : {}),
  };
}
