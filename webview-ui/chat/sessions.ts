// The session list: switch, rename (in place: Enter keeps, Escape cancels), delete (the host asks
// for confirmation with a native dialog: webviews cannot show one), and a new session.
import type { SessionSummary } from '../../src/core/chat/chat-protocol';
import { el, toolButton } from './dom';
import { post } from './vscode-api';

function when(ms: number): string {
  const d = new Date(ms);
  const today = new Date();
  return d.toDateString() === today.toDateString() ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString();
}

export class SessionList {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private sessions: SessionSummary[] = [];
  private current: string | undefined;

  constructor() {
    this.list = el('ul', { class: 'session-list', 'aria-label': 'Sessions' });
    this.el = el('nav', { class: 'sessions', id: 'sessions', 'aria-label': 'Chat sessions', hidden: '' }, this.list);
  }

  set(sessions: readonly SessionSummary[], current?: string): void {
    this.sessions = [...sessions];
    if (current !== undefined) this.current = current;
    this.render();
  }

  setCurrent(key: string | undefined): void {
    this.current = key;
    this.render();
  }

  titleOf(key: string | undefined): string | undefined {
    return this.sessions.find((s) => s.key === key)?.title;
  }

  private render(): void {
    if (!this.sessions.length) {
      this.list.replaceChildren(el('li', { class: 'muted' }, 'No sessions yet.'));
      return;
    }
    this.list.replaceChildren(...this.sessions.map((s) => this.item(s)));
  }

  private item(s: SessionSummary): HTMLElement {
    const isCurrent = s.key === this.current;
    const open = el('button', { class: 'session-open', 'aria-current': isCurrent ? 'true' : undefined, title: s.title },
      el('span', { class: 'session-title' }, s.title || 'Untitled'),
      el('span', { class: 'session-meta' }, `${when(s.updatedAt)} · ${s.messageCount} messages`));
    open.addEventListener('click', () => {
      if (!isCurrent) post({ type: 'switch-session', key: s.key });
    });
    const li = el('li', { class: `session${isCurrent ? ' current' : ''}`, 'data-key': s.key }, open,
      toolButton('edit', `Rename ${s.title}`, 'rename-session', () => this.rename(li, s)),
      toolButton('trash', `Delete ${s.title}`, 'delete-session', () => post({ type: 'delete-session', key: s.key })));
    return li;
  }

  private rename(li: HTMLElement, s: SessionSummary): void {
    const input = el('input', { class: 'session-rename', type: 'text', 'aria-label': `New title for ${s.title}`, maxlength: '200' });
    input.value = s.title;
    let done = false;
    const finish = (keep: boolean) => {
      if (done) return;
      done = true;
      const title = input.value.trim();
      if (keep && title && title !== s.title) {
        s.title = title;
        post({ type: 'rename-session', key: s.key, title });
      }
      this.render();
      (this.list.querySelector(`[data-key="${CSS.escape(s.key)}"] .session-open`) as HTMLElement | null)?.focus();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') finish(true);
      else if (e.key === 'Escape') {
        e.stopPropagation();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    li.replaceChildren(input);
    input.focus();
    input.select();
  }
}
