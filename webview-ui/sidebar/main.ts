// The sidebar's script: renders the state the extension posts (allowed tools, removed tools with the
// step that removed them, recent calls) and appends calls live. Builds DOM nodes with textContent
// only: tool arguments and messages are data and never become markup.
interface CallEnd {
  id: string; tool: string; calledAs: string; sessionKey: string; channel: string;
  startedAt: number; durationMs: number; outcome: string; args: string; message?: string;
}
interface State {
  profile: string; trusted: boolean;
  allowed: { name: string; group: string; capability: string }[];
  removed: { tool: string; step: string; detail: string }[];
  calls: CallEnd[];
}
declare function acquireVsCodeApi(): { postMessage(m: unknown): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;
let state: State | undefined;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function callRow(c: CallEnd): HTMLElement {
  const ms = c.durationMs < 10 ? c.durationMs.toFixed(1) : String(Math.round(c.durationMs));
  const time = new Date(c.startedAt).toLocaleTimeString();
  const li = el('li', { class: `call outcome-${c.outcome}`, 'data-tool': c.tool, title: `${c.args}${c.message ? `\n${c.message}` : ''}` },
    el('span', { class: 'badge' }, c.outcome),
    el('span', { class: 'name' }, c.calledAs === c.tool ? c.tool : `${c.tool} (${c.calledAs})`),
    el('span', { class: 'muted' }, ` ${ms} ms · ${c.channel} · ${time}`));
  if (c.message) li.append(el('div', { class: 'message' }, c.message));
  return li;
}

function render(): void {
  if (!state) return;
  const s = state;
  const tools = el('ul', { id: 'tools', class: 'tools' }, ...s.allowed.map((t) => {
    const b = el('button', { class: 'tool', 'data-tool': t.name, title: `Run ${t.name}…` }, t.name);
    b.addEventListener('click', () => vscode.postMessage({ type: 'runTool', name: t.name }));
    return el('li', {}, b, el('span', { class: 'muted' }, ` ${t.group} · ${t.capability}`));
  }));
  const removed = el('details', { id: 'removed' }, el('summary', {}, `Not available (${s.removed.length})`),
    el('ul', {}, ...s.removed.map((r) => el('li', {}, el('code', {}, r.tool), ` — ${r.step}: ${r.detail}`))));
  const calls = el('ol', { id: 'calls', class: 'calls', reversed: '' }, ...[...s.calls].reverse().map(callRow));
  const effective = el('button', { class: 'link' }, 'Explain…');
  effective.addEventListener('click', () => vscode.postMessage({ type: 'showEffectiveTools' }));
  const log = el('button', { class: 'link' }, 'Open log');
  log.addEventListener('click', () => vscode.postMessage({ type: 'showLog' }));
  app.replaceChildren(
    el('h2', { id: 'title' }, 'Pincer tools'),
    el('p', { class: 'muted', id: 'profile' }, `Profile ${s.profile}`, ' ', effective),
    ...(s.trusted ? [] : [el('p', { class: 'warning', id: 'untrusted' }, 'Restricted Mode: only read-only tools run until you trust this workspace.')]),
    el('h3', {}, `Allowed (${s.allowed.length})`), tools, removed,
    el('h3', {}, 'Recent calls ', log),
    s.calls.length ? calls : el('p', { class: 'muted', id: 'no-calls' }, 'No tool calls yet. Run one from the list above or with "Pincer: Run Tool…".'),
  );
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type: string; state?: State; call?: CallEnd };
  if (m.type === 'state' && m.state) {
    state = m.state;
    render();
  } else if (m.type === 'call' && m.call && state) {
    state.calls.push(m.call);
    if (state.calls.length > 50) state.calls.shift();
    render();
  }
});

vscode.postMessage({ type: 'ready' });
