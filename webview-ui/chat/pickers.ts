// The model and agent pickers (VS Code-styled selects from @vscode-elements/elements). A pick is
// posted at once (`pick-model` / `pick-agent`); the host answers with `pickers` when its lists change.
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { AgentChoice, ModelChoice } from '../../src/core/chat/chat-protocol';
import { el } from './dom';
import { post } from './vscode-api';

type Select = HTMLElementTagNameMap['vscode-single-select'];

type Option = { value: string; label: string; description?: string };

/** The whole name of the chosen entry (and where it comes from) as the picker's tooltip: a narrow view cuts it short. */
function describe(s: Select, label: string, options: readonly Option[], value = s.value): void {
  const o = options.find((x) => x.value === value);
  s.title = o ? `${label}: ${o.label}${o.description ? ` — ${o.description}` : ''}` : label;
}

function select(label: string, onPick: (id: string) => void, options: () => readonly Option[]): Select {
  const s = el('vscode-single-select', { class: 'picker', label, title: label });
  // Only a person's pick fires `change` (setting `value` from code does not).
  s.addEventListener('change', () => {
    describe(s, label, options());
    if (s.value) onPick(s.value);
  });
  return s;
}

function fillOptions(s: Select, label: string, options: Option[], selected: string | undefined): void {
  s.replaceChildren(...options.map((o) => {
    const opt = el('vscode-option', { value: o.value, description: o.description, title: o.description ? `${o.label} — ${o.description}` : o.label }, o.label);
    if (o.value === selected) opt.setAttribute('selected', '');
    return opt;
  }));
  if (selected) s.value = selected;
  // The element takes its new options a moment later: the tooltip goes by what was asked for.
  describe(s, label, options, selected);
}

export class Pickers {
  readonly el: HTMLElement;
  private readonly model: Select;
  private readonly agent: Select;
  private models: Option[] = [];
  private agents: Option[] = [];

  constructor() {
    this.model = select('Model', (id) => post({ type: 'pick-model', id }), () => this.models);
    this.agent = select('Agent', (id) => post({ type: 'pick-agent', id }), () => this.agents);
    this.model.setAttribute('combobox', ''); // a long list (Copilot, OpenRouter): typing filters it
    this.el = el('div', { class: 'pickers' }, this.model, this.agent);
  }

  set(models: readonly ModelChoice[], agents: readonly AgentChoice[], model?: string, agent?: string): void {
    this.models = models.map((m) => ({ value: m.id, label: m.name, description: m.source }));
    this.agents = agents.map((a) => ({ value: a.id, label: a.name, description: a.description }));
    fillOptions(this.model, 'Model', this.models, model);
    fillOptions(this.agent, 'Agent', this.agents, agent);
    this.model.hidden = models.length === 0;
    this.agent.hidden = agents.length <= 1;
  }
}
