// The conversation on screen. A long session is rendered from the newest message backwards in
// chunks: the first chunk at once (the bottom is what is visible), older chunks when the person
// scrolls up to them (or to fill the view), and a further page from the host (`load-older`) when the
// local ones run out. (No `content-visibility: auto`: its estimated heights would make scroll
// positions drift, and chunking already keeps what is laid out small.)
// One click listener serves every link and code-block button.
import type { ChatMessage, ContextChip, SessionPage } from '../../src/core/chat/chat-protocol';
import { codeOf } from './code-block';
import { el } from './dom';
import { handoffButtons } from './handoff-buttons';
import { onNextFrame } from './frame';
import { LiveTurn } from './live-turn';
import { messageElement, userMessage, type SentImage } from './message-view';
import { blobOf } from './pasted-images';
import { post } from './vscode-api';

const CHUNK = 30;

export interface ScrollAnchor {
  id: string;
  offset: number;
}
/** Render older chunks while the view is this close to their edge (px). */
const FILL_MARGIN = 600;
const STICK_MARGIN = 40;

export class Transcript {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly olderStatus: HTMLElement;
  private key: string | null = null;
  private messages: ChatMessage[] = [];
  private renderedFrom = 0;
  private hasOlder = false;
  private loadingOlder = false;
  private stick = true;
  private localIds = 0;
  /**
   * The blob: URLs of the thumbnails on screen (revoked when their messages leave it), and those of the
   * message sent last: a new session's first page repeats that message (id "pending"), thumbnails and all.
   */
  private thumbnails = new Set<string>();
  private lastThumbnails: string[] = [];
  private readonly turns = new Map<string, LiveTurn>();
  /** Which session each turn belongs to (turns of other sessions are not drawn here). */
  private readonly turnSession = new Map<string, string>();
  private readonly fillJob = () => this.fill();
  private readonly stickJob = () => {
    if (this.stick) this.el.scrollTop = this.el.scrollHeight;
  };

  constructor() {
    this.list = el('div', { class: 'messages' });
    this.olderStatus = el('div', { class: 'older-status', hidden: '' }, 'Loading earlier messages…');
    this.el = el('div', { class: 'transcript', tabindex: '0', role: 'region', 'aria-label': 'Conversation' },
      this.olderStatus, this.list,
      el('div', { class: 'empty-hint' }, 'Ask about your code. Type @ to attach a file; Enter sends, Shift+Enter starts a new line.'));
    this.el.addEventListener('scroll', () => {
      this.stick = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < STICK_MARGIN;
      if (this.el.scrollTop < FILL_MARGIN) onNextFrame(this.fillJob);
    }, { passive: true });
    this.el.addEventListener('click', (e) => this.onClick(e));
    this.el.addEventListener('keydown', (e) => {
      const link = (e.target as Element).closest?.('[data-url]');
      if (link && e.key === 'Enter') this.onClick(e);
    });
  }

  get sessionKey(): string | null {
    return this.key;
  }

  /**
   * Where the view is, for the saved state: undefined at the bottom, else the first message in view
   * and how far its top is from the view's top. (A pixel distance would not survive: messages out of
   * view have estimated heights until they are drawn.)
   */
  get position(): ScrollAnchor | undefined {
    if (this.stick) return undefined;
    const top = this.el.getBoundingClientRect().top;
    for (const m of this.list.children) {
      const r = m.getBoundingClientRect();
      const id = m.getAttribute('data-id');
      if (r.bottom > top && id) return { id, offset: r.top - top };
    }
    return undefined;
  }

  /** Another session (or the same one afresh): its newest page replaces everything shown. */
  show(page: SessionPage | null, at?: ScrollAnchor): void {
    this.key = page?.key ?? null;
    this.messages = page ? [...page.messages] : [];
    this.hasOlder = page?.hasOlder ?? false;
    this.loadingOlder = false;
    this.olderStatus.hidden = true;
    this.turns.clear();
    this.list.replaceChildren();
    const kept = this.messages.some((m) => m.id === 'pending') ? this.lastThumbnails : [];
    for (const url of this.thumbnails) if (!kept.includes(url)) URL.revokeObjectURL(url);
    this.thumbnails = new Set(kept);
    this.lastThumbnails = kept;
    this.renderedFrom = this.messages.length;
    this.renderChunk();
    // The buttons its last answer showed live (the host sends them only while they can be taken).
    if (page?.handoffs?.length) this.list.append(handoffButtons(page.handoffs));
    this.el.scrollTop = this.el.scrollHeight;
    this.stick = true;
    if (at && this.messages.some((m) => m.id === at.id)) this.restore(at);
    onNextFrame(this.fillJob);
  }

  /** Back to a saved position: the chunks down to that message drawn, then that message in its place. */
  private restore(at: ScrollAnchor): void {
    const find = () => this.list.querySelector<HTMLElement>(`:scope > [data-id="${CSS.escape(at.id)}"]`);
    while (!find() && this.renderChunk());
    const target = find();
    if (!target) return;
    this.el.scrollTop += target.getBoundingClientRect().top - this.el.getBoundingClientRect().top - at.offset;
    this.stick = false;
  }

  /** A page of earlier messages from the host. */
  older(key: string, messages: readonly ChatMessage[], hasOlder: boolean): void {
    if (key !== this.key) return;
    this.loadingOlder = false;
    this.olderStatus.hidden = true;
    this.messages = [...messages, ...this.messages];
    this.renderedFrom += messages.length;
    this.hasOlder = hasOlder;
    onNextFrame(this.fillJob);
  }

  /** The person's message, shown as soon as it is sent. */
  addUser(text: string, chips: readonly ContextChip[], images: readonly SentImage[] = []): void {
    this.lastThumbnails = images.flatMap((i) => (i.url ? [i.url] : []));
    for (const url of this.lastThumbnails) this.thumbnails.add(url);
    this.list.append(userMessage(`local-${++this.localIds}`, text, chips, images));
    this.stick = true;
    this.stickJob();
  }

  /** The person's last message as it was shown before any turn took it (it was not sent after all). */
  takeBackLast(): void {
    const last = this.list.lastElementChild;
    if (!last?.getAttribute('data-id')?.startsWith('local-')) return;
    last.remove();
    // Its images go back into the input, thumbnails and all.
    for (const url of this.lastThumbnails) this.thumbnails.delete(url);
    this.lastThumbnails = [];
  }

  /** A card of the page's own (the first-run card): one at a time, at the end. */
  note(card: HTMLElement): void {
    this.list.querySelector(':scope > .note')?.remove();
    this.list.append(el('div', { class: 'msg note' }, card));
    this.stick = true;
    this.stickJob();
  }

  // ---- the running turn ----

  startTurn(turnId: string, sessionKey: string): void {
    this.turnSession.set(turnId, sessionKey);
    if (sessionKey === this.key) this.turnFor(turnId);
  }

  /** The turn's view, created when it belongs here; undefined for a turn of another session. */
  turnFor(turnId: string | undefined): LiveTurn | undefined {
    if (turnId === undefined) return [...this.turns.values()].reverse().find((t) => t.running);
    const known = this.turns.get(turnId);
    if (known) return known;
    const session = this.turnSession.get(turnId);
    if (session !== undefined && session !== this.key) return undefined;
    const turn = new LiveTurn(turnId, this.key ?? '', () => onNextFrame(this.stickJob));
    this.turns.set(turnId, turn);
    this.list.append(turn.el);
    onNextFrame(this.stickJob);
    return turn;
  }

  /** The turn's view if it is on screen (never creates one). */
  find(turnId: string): LiveTurn | undefined {
    return this.turns.get(turnId);
  }

  /** Whether the turn is in another session than the one shown. */
  elsewhere(turnId: string): boolean {
    const s = this.turnSession.get(turnId);
    return s !== undefined && s !== this.key;
  }

  get runningTurn(): LiveTurn | undefined {
    return this.turnFor(undefined);
  }

  /** A message's thumbnails: those of the message just sent, else blob: URLs of the stored ones (revoked with the rest). */
  private thumbnailsOf(m: ChatMessage): (string | undefined)[] {
    if (m.id === 'pending') return this.lastThumbnails;
    return m.role === 'user' ? (m.thumbnails ?? []).map((t) => {
      const url = t ? URL.createObjectURL(blobOf(t.mimeType, t.data)) : undefined;
      if (url) this.thumbnails.add(url);
      return url;
    }) : [];
  }

  private renderChunk(): boolean {
    if (this.renderedFrom <= 0) return false;
    const from = Math.max(0, this.renderedFrom - CHUNK);
    const frag = document.createDocumentFragment();
    for (let i = from; i < this.renderedFrom; i++) frag.append(messageElement(this.messages[i], this.thumbnailsOf(this.messages[i])));
    // Keep what the person looks at in place: the new chunk grows the content above it. The
    // browser's scroll anchoring may already have done so, so correct only by how far the old first
    // message actually moved.
    const anchor = this.list.firstElementChild;
    const before = anchor?.getBoundingClientRect().top ?? 0;
    this.list.prepend(frag);
    this.renderedFrom = from;
    if (anchor) this.el.scrollTop += anchor.getBoundingClientRect().top - before;
    return true;
  }

  /** Near the top: the next local chunk, else the next page from the host. One step per frame. */
  private fill(): void {
    if (this.el.scrollTop >= FILL_MARGIN && this.el.scrollHeight > this.el.clientHeight) return;
    if (this.renderChunk()) {
      onNextFrame(this.fillJob);
    } else if (this.hasOlder && !this.loadingOlder && this.key && this.messages.length) {
      this.loadingOlder = true;
      this.olderStatus.hidden = false;
      post({ type: 'load-older', key: this.key, before: this.messages[0].id });
    }
  }

  private onClick(e: Event): void {
    const target = e.target as Element;
    const link = target.closest('[data-url]');
    if (link) {
      e.preventDefault();
      e.stopPropagation();
      post({ type: 'open-link', url: link.getAttribute('data-url') ?? '' });
      return;
    }
    const button = target.closest('[data-action]');
    const action = button?.getAttribute('data-action');
    if (!button || (action !== 'copy-code' && action !== 'insert-code' && action !== 'open-code')) return;
    const code = codeOf(button);
    if (!code) return;
    if (action === 'open-code') post({ type: 'open-code', text: code.text, language: code.language });
    else post({ type: action, text: code.text });
    if (action === 'copy-code') flash(button, 'Copied');
  }
}

/** A short confirmation on a button (its label says what happened, for a moment). */
function flash(button: Element, label: string): void {
  const before = button.getAttribute('label') ?? '';
  button.setAttribute('label', label);
  button.classList.add('flash');
  setTimeout(() => {
    button.setAttribute('label', before);
    button.classList.remove('flash');
  }, 1200);
}
