// `@file` completion for the input: `@pre` before the caret asks the host (`mention-query`), its
// answer (`mention-results` for the same prefix) fills a listbox under the input. The input stays
// focused (ARIA combobox: aria-activedescendant points at the highlighted option).
import type { MentionItem } from '../../src/core/chat/chat-protocol';
import { el } from './dom';
import { post } from './vscode-api';

const MENTION = /(^|\s)@([^\s@]{0,200})$/;

export class Mentions {
  readonly el: HTMLElement;
  private items: MentionItem[] = [];
  private active = 0;
  private prefix: string | undefined;
  private start = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly input: HTMLTextAreaElement, private readonly pick: (item: MentionItem) => void) {
    this.el = el('div', { class: 'mentions', id: 'mentions', role: 'listbox', 'aria-label': 'Files', hidden: '' });
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'mentions');
    input.setAttribute('aria-expanded', 'false');
    this.el.addEventListener('mousedown', (e) => e.preventDefault()); // keep the focus in the input
    this.el.addEventListener('click', (e) => {
      const i = Number((e.target as Element).closest('[data-index]')?.getAttribute('data-index'));
      if (Number.isInteger(i)) this.choose(i);
    });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** After every edit: is there an `@prefix` right before the caret? */
  update(): void {
    const before = this.input.value.slice(0, this.input.selectionStart ?? 0);
    const m = MENTION.exec(before);
    if (!m) return this.close();
    const prefix = m[2];
    this.start = before.length - prefix.length - 1;
    if (prefix === this.prefix) return;
    this.prefix = prefix;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => post({ type: 'mention-query', prefix }), 80);
  }

  results(prefix: string, items: readonly MentionItem[]): void {
    if (prefix !== this.prefix) return; // an answer to an older query
    this.items = [...items];
    this.active = 0;
    this.el.replaceChildren(...(items.length ? items.map((it, i) => el('div', {
      class: 'mention', role: 'option', id: `mention-${i}`, 'data-index': String(i), 'aria-selected': i === 0 ? 'true' : 'false', title: it.path,
    }, el('span', { class: 'mention-label' }, it.label ?? it.path), it.detail ? el('span', { class: 'mention-detail' }, ` ${it.detail}`) : null))
      : [el('div', { class: 'mention-none' }, `No file matches "${prefix}"`)]));
    this.el.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.highlight(0);
  }

  /** Arrow keys, Enter / Tab and Escape while the list is open; true when the key was used. */
  key(e: KeyboardEvent): boolean {
    if (!this.open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (this.items.length) this.highlight((this.active + (e.key === 'ArrowDown' ? 1 : -1) + this.items.length) % this.items.length);
      return true;
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && this.items.length) {
      this.choose(this.active);
      return true;
    }
    if (e.key === 'Escape') {
      this.close();
      return true;
    }
    return false;
  }

  close(): void {
    this.prefix = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.el.hidden = true;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private highlight(i: number): void {
    this.active = i;
    for (const o of this.el.querySelectorAll('[role=option]')) o.setAttribute('aria-selected', o.id === `mention-${i}` ? 'true' : 'false');
    if (this.items.length) {
      this.input.setAttribute('aria-activedescendant', `mention-${i}`);
      this.el.querySelector(`#mention-${i}`)?.scrollIntoView({ block: 'nearest' });
    }
  }

  /** Takes `@prefix` out of the text and hands the file on as a chip. */
  private choose(i: number): void {
    const item = this.items[i];
    if (!item) return;
    const v = this.input.value;
    const caret = this.input.selectionStart ?? v.length;
    this.input.value = v.slice(0, this.start) + v.slice(caret);
    this.input.setSelectionRange(this.start, this.start);
    this.close();
    this.pick(item);
  }
}
