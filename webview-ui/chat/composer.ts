// The input: attached chips (the editor's current file and selection, @file mentions), the text box
// (Enter sends, Shift+Enter is a new line, Escape stops a running turn), Send / Stop. Images pasted
// into the text box or dropped on the chat wait as thumbnails until the message is sent; a message of
// images alone may be sent. Files dropped from VS Code's Explorer come as URIs: the host reads images
// among them and attaches the rest as file chips. VS Code lets a drag into any webview through only
// while Shift is held (without it the workbench takes the drop and opens the file), so the input says so.
import { CHAT_LIMITS, type ContextChip, type MentionItem, type PastedImage } from '../../src/core/chat/chat-protocol';
import { el, icon, textButton, toolButton } from './dom';
import { chipIcon, chipLabel, thumbnail } from './message-view';
import { Mentions } from './mentions';
import { blobOf, droppedUris, formatSize, readImages, type PendingImage } from './pasted-images';

export interface ComposerHooks {
  /** False: not sent (the draft stays as it is). True: the images' thumbnails are the transcript's now. */
  send(text: string, chips: ContextChip[], images: PendingImage[]): boolean;
  stop(): void;
  /** Why something pasted or dropped was not attached. */
  error(message: string): void;
  /** The draft or the chips changed (saved with the view's state). */
  changed(): void;
  /** Files dropped from VS Code, by URI, for the host to attach. */
  dropped(uris: string[]): void;
}

/** What a drag carries that the chat takes: files from the desktop, resources from VS Code (types come lower-cased). */
const DROPPABLE = ['Files', 'application/vnd.code.uri-list', 'resourceurls', 'text/uri-list'];

const chipKey = (c: ContextChip) => `${c.kind}:${c.server ?? ''}:${c.path}:${c.range?.startLine ?? ''}-${c.range?.endLine ?? ''}`;

export class Composer {
  readonly el: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly chipsEl: HTMLElement;
  private readonly sendButton: HTMLElement;
  private readonly stopButton: HTMLElement;
  private readonly mentions: Mentions;
  private editorChips: ContextChip[] = [];
  private userChips: ContextChip[] = [];
  /** Not kept in the view's state: megabytes of base64 do not belong there. */
  private images: PendingImage[] = [];
  /** Editor chips the person removed; they stay away until the editor shows something else. */
  private readonly dismissed = new Set<string>();
  private running = false;

  constructor(private readonly hooks: ComposerHooks) {
    this.input = el('textarea', { class: 'input', rows: '1', 'aria-label': 'Message to Pincer', placeholder: 'Ask Pincer… (@ attaches a file; hold Shift to drop files or images here)' });
    this.mentions = new Mentions(this.input, (item) => this.addMention(item));
    this.chipsEl = el('div', { class: 'chips', role: 'list', 'aria-label': 'Attached context' });
    this.sendButton = textButton('Send', () => this.submit(), { icon: 'send', label: 'Send (Enter)', action: 'send' });
    this.stopButton = textButton('Stop', () => this.hooks.stop(), { icon: 'debug-stop', label: 'Stop (Escape)', secondary: true, action: 'stop' });
    this.stopButton.hidden = true;
    this.el = el('div', { class: 'composer' },
      this.chipsEl, this.mentions.el, this.input,
      el('div', { class: 'composer-actions' },
        el('span', { class: 'hint', 'aria-hidden': 'true' }, 'Enter to send · Shift+Enter new line'), this.stopButton, this.sendButton));
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      this.mentions.update();
      this.hooks.changed();
    });
    this.input.addEventListener('click', () => this.mentions.update());
    this.input.addEventListener('paste', (e) => this.onFiles(e, e.clipboardData));
    // The whole page is the drop zone (marked while something droppable is over it).
    const zone = (on: boolean) => document.body.classList.toggle('dropping', on);
    document.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.some((t) => DROPPABLE.includes(t))) return;
      e.preventDefault();
      zone(true);
    });
    document.addEventListener('dragleave', (e) => zone(!!e.relatedTarget));
    // A drag that VS Code took back (Shift let go) never leaves or drops here: the next pointer over the page ends the mark.
    document.addEventListener('pointerover', () => zone(false));
    document.addEventListener('drop', (e) => {
      zone(false);
      const uris = e.dataTransfer?.files.length ? [] : droppedUris(e.dataTransfer!);
      if (!uris.length) return this.onFiles(e, e.dataTransfer);
      e.preventDefault();
      this.hooks.dropped(uris);
    });
    this.input.addEventListener('blur', () => setTimeout(() => {
      if (document.activeElement !== this.input) this.mentions.close();
    }, 150));
  }

  get draft(): string {
    return this.input.value;
  }

  set draft(v: string) {
    this.input.value = v;
  }

  get chips(): ContextChip[] {
    return [...this.editorChips.filter((c) => !this.dismissed.has(chipKey(c))), ...this.userChips];
  }

  get savedChips(): ContextChip[] {
    return this.userChips;
  }

  setUserChips(chips: readonly ContextChip[]): void {
    this.userChips = chips.map((c) => ({ ...c, origin: 'user' as const }));
    this.renderChips();
  }

  /** The host's chips for the active editor replace the previous ones. */
  setEditorChips(chips: readonly ContextChip[]): void {
    this.editorChips = chips.map((c) => ({ ...c, origin: 'editor' as const }));
    const keys = new Set(this.editorChips.map(chipKey));
    for (const k of this.dismissed) if (!keys.has(k)) this.dismissed.delete(k);
    this.renderChips();
  }

  mentionResults(prefix: string, items: readonly MentionItem[]): void {
    this.mentions.results(prefix, items);
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.stopButton.hidden = !running;
    this.sendButton.hidden = running;
  }

  focus(): void {
    this.input.focus();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (this.mentions.key(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      this.submit();
    } else if (e.key === 'Escape' && this.running) {
      e.preventDefault();
      this.hooks.stop();
    }
  }

  /** Sends what is in the input, as Enter does (a handoff that says `send`). */
  submit(): void {
    const text = this.input.value;
    const images = [...this.images];
    if (this.running || (!text.trim() && !images.length) || !this.hooks.send(text, this.chips, images)) return;
    this.input.value = '';
    this.userChips = [];
    this.images = [];
    this.mentions.close();
    this.renderChips();
    this.hooks.changed();
  }

  private addMention(item: MentionItem): void {
    this.attach([{ kind: 'file', path: item.path, origin: 'user' }]);
  }

  /** Chips the person attached (an @file mention, an MCP resource the host attached): each once. */
  attach(chips: readonly ContextChip[]): void {
    for (const chip of chips) {
      const all = this.chips;
      if (all.length < CHAT_LIMITS.chips && !all.some((c) => chipKey(c) === chipKey(chip))) this.userChips.push({ ...chip, origin: 'user' });
    }
    this.renderChips();
    this.hooks.changed();
  }

  private remove(chip: ContextChip): void {
    if (chip.origin === 'editor') this.dismissed.add(chipKey(chip));
    else this.userChips = this.userChips.filter((c) => c !== chip);
    this.renderChips();
    this.hooks.changed();
    this.input.focus();
  }

  /** A paste or drop with files: they become image chips (text is pasted as usual). */
  private onFiles(e: Event, data: DataTransfer | null): void {
    const files = [...(data?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    this.addFiles(files);
  }

  private addFiles(files: File[]): void {
    void readImages(files, CHAT_LIMITS.images - this.images.length).then(({ images, refused }) => {
      this.images.push(...images);
      this.renderChips();
      if (refused.length) this.hooks.error(refused.join(' '));
    });
  }

  /** Images the host read for the person (image files dropped from the Explorer): checked and shown like pasted ones. */
  addImages(images: readonly PastedImage[]): void {
    this.addFiles(images.map((i) => new File([blobOf(i.mimeType, i.data)], i.name, { type: i.mimeType })));
  }

  /** Images of a message that was not sent after all, back in the input (their thumbnails with them). */
  restoreImages(images: readonly PendingImage[]): void {
    const all = [...images, ...this.images];
    for (const dropped of all.slice(CHAT_LIMITS.images)) URL.revokeObjectURL(dropped.url);
    this.images = all.slice(0, CHAT_LIMITS.images);
    this.renderChips();
  }

  private removeImage(image: PendingImage): void {
    URL.revokeObjectURL(image.url);
    this.images = this.images.filter((i) => i !== image);
    this.renderChips();
    this.input.focus();
  }

  private renderChips(): void {
    const chips = this.chips;
    const images = this.images.map((i) => el('span', { class: 'chip chip-image', role: 'listitem', title: i.name },
      thumbnail(i.url, i.name), ' ', i.name, el('span', { class: 'chip-note' }, ` image · ${formatSize(i.size)}`),
      toolButton('close', `Remove ${i.name}`, 'remove-image', () => this.removeImage(i))));
    this.chipsEl.replaceChildren(...chips.map((c) => el('span', { class: `chip chip-${c.origin ?? 'user'}`, role: 'listitem', title: c.path },
      icon(chipIcon(c)), ' ', chipLabel(c), c.origin === 'editor' ? el('span', { class: 'chip-note' }, c.kind === 'selection' ? ' selection' : ' current file') : null,
      toolButton('close', `Remove ${chipLabel(c)}`, 'remove-chip', () => this.remove(c)))), ...images);
    this.chipsEl.hidden = chips.length === 0 && images.length === 0;
  }
}
