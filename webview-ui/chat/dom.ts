// DOM helpers for the chat page. Every text from the host or the model goes in through `append`
// (text nodes) or `textContent`, never as markup: a message is data, whatever it contains.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c) e.append(c);
  return e;
}

/** A codicon in the light DOM (codicon.css is the page's own stylesheet); hidden from screen readers. */
export function icon(name: string, extra = ''): HTMLElement {
  return el('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

/**
 * An icon button (VS Code's toolbar button: a real <button> inside, named by `label`). `action` lands
 * in data-action so one delegated listener can serve thousands of them.
 */
export function toolButton(iconName: string, label: string, action?: string, onClick?: (e: MouseEvent) => void): HTMLElement {
  const b = el('vscode-toolbar-button', { icon: iconName, label, title: label, 'data-action': action });
  if (onClick) b.addEventListener('click', onClick);
  return b;
}

/** A text button (primary, or `secondary`). */
export function textButton(text: string, onClick: () => void, opts: { secondary?: boolean; icon?: string; label?: string; action?: string } = {}): HTMLElement {
  const b = el('vscode-button', { 'aria-label': opts.label, icon: opts.icon, 'data-action': opts.action }, text);
  if (opts.secondary) b.setAttribute('secondary', '');
  b.addEventListener('click', () => {
    if (!b.hasAttribute('disabled')) onClick();
  });
  return b;
}

export function disable(e: Element, on = true): void {
  if (on) e.setAttribute('disabled', '');
  else e.removeAttribute('disabled');
}

/** The last part of a path, for chips and cards (the full path goes into the title). */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
