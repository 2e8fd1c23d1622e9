// The model and agent pickers (VS Code-styled selects from @vscode-elements/elements). A pick is
// posted at once (`pick-model` / `pick-agent`); the host answers with `pickers` when its lists change.
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { AgentChoice, ModelChoice } from '../../src/core/chat/chat-protocol';
import { el } from './dom';
import { post } from './vscode-api';

type Select = HTMLElementTagNameMap['vscode-single-select'];

function select(label: string, onPick: (id: string) => void): Select {
  const s = el('vscode-single-select', { class: 'picker', label, title: label });
  // Only a person's pick fires `change` (setting `value` from code does not).
  s.addEventListener('change', () => {
    if (s.value) onPick(s.value);
  });
  return s;
}

function fillOptions(s: Select, options: { value: string; label: string; description?: string }[], selected: string | undefined): void {
  s.replaceChildren(...options.map((o) => {
    const opt = el('vscode-option', { value: o.value, description: o.description }, o.label);
    if (o.value === selected) opt.setAttribute('selected', '');
    return opt;
  }));
  if (selected) s.value = selected;
}

export class Pickers {
  readonly el: HTMLElement;
  private readonly model: Select;
  private readonly agent: Select;

  constructor() {
    this.model = select('Model', (id) => post({ type: 'pick-model', id }));
    this.agent = select('Agent', (id) => post({ type: 'pick-agent', id }));
    this.model.setAttribute('combobox', ''); // a long list (Copilot, OpenRouter): typing filters it
    this.el = el('div', { class: 'pickers' }, this.model, this.agent);
  }

  set(models: readonly ModelChoice[], agents: readonly AgentChoice[], model?: string, agent?: string): void {
    fillOptions(this.model, models.map((m) => ({ value: m.id, label: m.name, description: m.source })), model);
    fillOptions(this.agent, agents.map((a) => ({ value: a.id, label: a.name, description: a.description })), agent);
    this.model.hidden = models.length === 0;
    this.agent.hidden = agents.length <= 1;
  }
}
