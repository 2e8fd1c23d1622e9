// The chat view's page. Every message from the host is validated against the protocol before it
// is used (parseToWebview); everything shown is built from DOM nodes and text. The page's own state
// (draft, attached files, scroll position, which panels are open) is saved with vscode.setState and
// restored when VS Code re-creates the page; the host re-sends the rest with `init`.
import * as z from 'zod/mini';
import { CHAT_LIMITS, parseToWebview, pastedImageSource, type HandedTo, type LiveEvent, type ToWebview } from '../../src/core/chat/chat-protocol';
import { Composer } from './composer';
import { el, toolButton } from './dom';
import { handoffButtons } from './handoff-buttons';
import type { PendingImage } from './pasted-images';
import { Pickers } from './pickers';
import { approvalCard, reviewCard, settleApproval, settleReview } from './prompt-cards';
import { SessionList } from './sessions';
import { subagentCard, updateSubagentCard } from './subagent-card';
import { setupCard } from './setup-card';
import { Transcript } from './transcript';
import { flushState, loadState, post, saveState, type SavedState } from './vscode-api';

// zod compiles fast paths with `new Function` unless told not to; the page's CSP forbids eval.
z.config({ jitless: true });

const saved = loadState();
let sessionsOpen = saved?.sessionsOpen ?? false;
let firstInit = true;
/** A message was sent and its turn has not started yet. */
let awaitingTurn = false;
/** The last message sent: back in the input when it could not be answered (no model yet). */
let lastSent = '';
let lastImages: PendingImage[] = [];

const transcript = new Transcript();
const sessionList = new SessionList();
const pickers = new Pickers();
const composer = new Composer({
  send: (text, chips, images) => {
    if (text.length > CHAT_LIMITS.sendText) {
      showError(`The message is ${text.length.toLocaleString('en')} characters long; ${CHAT_LIMITS.sendText.toLocaleString('en')} is the most one message may have. Attach long text as a file (@) instead.`);
      return false;
    }
    transcript.addUser(text, chips, images.map((i) => ({ source: pastedImageSource(i.name), url: i.url })));
    lastSent = text;
    lastImages = images;
    awaitingTurn = true;
    post({ type: 'send', text, chips, ...(images.length ? { images: images.map(({ name, mimeType, data }) => ({ name, mimeType, data })) } : {}) });
    updateRunning();
    announce('Sent.');
    return true;
  },
  stop: () => post({ type: 'stop' }),
  error: (message) => showError(message),
  changed: () => save(),
  dropped: (uris) => post({ type: 'drop-uris', uris }),
});

const title = el('span', { class: 'title' }, 'New chat');
const sessionsToggle = toolButton('history', 'Sessions', 'toggle-sessions', () => setSessionsOpen(!sessionsOpen));
sessionsToggle.setAttribute('toggleable', '');
// New Chat lives in the view's title bar (pincer.chat.new), where VS Code's own chat has it.
/** Who has the chat now when it was handed to another agent than the chat's own. */
const handed = el('span', { class: 'handed', hidden: '' });
const header = el('header', { class: 'bar' }, sessionsToggle, title, handed);
/** Approvals and reviews of turns running in another session than the one shown. */
const pending = el('div', { class: 'pending', role: 'region', 'aria-label': 'Waiting for you in other sessions', hidden: '' });
const errorBar = el('div', { class: 'error-bar', role: 'alert', hidden: '' });
const status = el('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });

const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
app.replaceChildren(header, pickers.el, sessionList.el, errorBar, transcript.el, pending, composer.el, status);

if (saved) {
  composer.draft = saved.draft;
  composer.setUserChips(saved.chips);
}
setSessionsOpen(sessionsOpen);

function snapshot(): SavedState {
  return { v: 1, draft: composer.draft, chips: composer.savedChips, sessionKey: transcript.sessionKey ?? undefined, position: transcript.position, sessionsOpen };
}

function save(now = false): void {
  saveState(snapshot, now);
}

function setSessionsOpen(open: boolean): void {
  sessionsOpen = open;
  sessionList.el.hidden = !open;
  if (open) sessionsToggle.setAttribute('checked', '');
  else sessionsToggle.removeAttribute('checked');
  save();
}

function announce(text: string): void {
  status.textContent = text;
}

function updateRunning(): void {
  composer.setRunning(awaitingTurn || transcript.runningTurn !== undefined);
}

function showError(message: string): void {
  errorBar.replaceChildren(el('span', {}, message), toolButton('close', 'Dismiss', 'dismiss-error', () => {
    errorBar.hidden = true;
    composer.focus();
  }));
  errorBar.hidden = false;
}

function setTitle(key: string | undefined, fallback?: string): void {
  title.textContent = sessionList.titleOf(key) ?? fallback ?? 'New chat';
  document.body.dataset.sessionKey = key ?? '';
}

function setHanded(to: HandedTo | undefined): void {
  handed.textContent = to ? `Agent: ${to.name} (handed over)` : '';
  handed.title = to ? `${to.name} (${to.agent}) answers your next message` : '';
  handed.hidden = !to;
}

function byData(attr: string, id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${attr}="${CSS.escape(id)}"]`);
}

/** A prompt card goes into its turn when that turn is on screen, else into the strip above the input. */
function placeCard(card: HTMLElement, turnId: string | undefined): void {
  const turn = turnId === undefined ? transcript.runningTurn : transcript.elsewhere(turnId) ? undefined : transcript.turnFor(turnId);
  if (turn) turn.card(card);
  else {
    pending.append(card);
    pending.hidden = false;
  }
}

function settled(card: HTMLElement | null, settle: (c: HTMLElement) => void): void {
  if (!card) return;
  settle(card);
  if (card.parentElement === pending) {
    card.remove();
    pending.hidden = pending.childElementCount === 0;
  }
}

function live(m: LiveEvent): void {
  switch (m.type) {
    case 'assistant-start':
      transcript.startTurn(m.turnId, m.sessionKey);
      if (m.sessionKey === transcript.sessionKey) awaitingTurn = false;
      announce('Pincer is answering…');
      break;
    case 'text-delta':
      if (!transcript.elsewhere(m.turnId)) transcript.turnFor(m.turnId)?.text(m.text);
      break;
    case 'tool-call':
      if (!transcript.elsewhere(m.turnId)) transcript.turnFor(m.turnId)?.toolCall(m.call);
      if (m.call.status !== 'running') announce(`Tool ${m.call.name}: ${m.call.status}`);
      break;
    case 'approval':
      if (!byData('data-approval-id', m.id)) placeCard(approvalCard(m), m.turnId);
      announce(`Approval needed: ${m.command}`);
      break;
    case 'approval-settled':
      settled(byData('data-approval-id', m.id), (c) => settleApproval(c, m.answer, m.note));
      break;
    case 'review':
      if (!byData('data-review-id', m.id)) placeCard(reviewCard(m), m.turnId);
      announce(`Review the change to ${m.path}`);
      break;
    case 'review-settled':
      settled(byData('data-review-id', m.id), (c) => settleReview(c, m.outcome));
      break;
    case 'subagent': {
      // Updated where it is; a new child goes into its turn when that turn is on screen.
      const card = byData('data-subagent-id', m.child.id);
      if (card) updateSubagentCard(card, m.child);
      else if (m.turnId !== undefined && !transcript.elsewhere(m.turnId)) transcript.turnFor(m.turnId)?.card(el('div', { class: 'msg tool' }, subagentCard(m.child)));
      if (m.child.status !== 'queued' && m.child.status !== 'running') announce(`Subagent ${m.child.label ?? m.child.id}: ${m.child.status}`);
      break;
    }
  }
}

function handle(m: ToWebview): void {
  switch (m.type) {
    case 'init': {
      pickers.set(m.models, m.agents, m.model, m.agent);
      sessionList.set(m.sessions, m.session?.key);
      composer.setEditorChips(m.chips);
      const restore = firstInit && saved && saved.sessionKey === m.session?.key ? saved.position : undefined;
      transcript.show(m.session, restore);
      setTitle(m.session?.key, m.session?.title);
      setHanded(m.session?.handedTo);
      awaitingTurn = false;
      for (const e of m.live ?? []) live(e);
      firstInit = false;
      break;
    }
    case 'session':
      transcript.show(m.session);
      sessionList.setCurrent(m.session.key);
      setTitle(m.session.key, m.session.title);
      setHanded(m.session.handedTo);
      for (const e of m.live ?? []) live(e);
      save();
      break;
    case 'older':
      transcript.older(m.key, m.messages, m.hasOlder);
      break;
    case 'turn-end': {
      const turn = transcript.elsewhere(m.turnId) ? undefined : transcript.turnFor(m.turnId);
      turn?.end(m.usage, m.stopReason, m.message);
      if (turn && m.handoffs?.length) turn.el.append(handoffButtons(m.handoffs));
      awaitingTurn = false;
      announce(m.stopReason === 'end' ? 'Answer complete.' : `Turn stopped: ${m.stopReason}.`);
      break;
    }
    case 'sessions':
      sessionList.set(m.sessions, m.current);
      setTitle(transcript.sessionKey ?? undefined);
      break;
    case 'handed':
      if (m.key === transcript.sessionKey) setHanded(m.to);
      break;
    case 'pickers':
      pickers.set(m.models, m.agents, m.model, m.agent);
      break;
    case 'prefill':
      // A handoff taken: its prompt in the input, sent as the person's message when it says so.
      composer.draft = m.text;
      if (m.send) composer.submit();
      else composer.focus();
      save();
      break;
    case 'context':
      composer.setEditorChips(m.chips);
      break;
    case 'attach':
      composer.attach(m.chips);
      break;
    case 'attach-images':
      composer.addImages(m.images);
      break;
    case 'mention-results':
      composer.mentionResults(m.prefix, m.items);
      break;
    case 'setup':
      transcript.takeBackLast();
      if (!composer.draft.trim()) composer.draft = lastSent;
      composer.restoreImages(lastImages);
      lastImages = [];
      transcript.note(setupCard(m.servers));
      awaitingTurn = false;
      announce('No model is set up yet: choose one on the card.');
      save();
      break;
    case 'error':
      showError(m.message);
      if (m.turnId === undefined || !transcript.find(m.turnId)?.running) awaitingTurn = false;
      break;
    default:
      live(m);
  }
  updateRunning();
}

window.addEventListener('message', (e: MessageEvent) => {
  const r = parseToWebview(e.data);
  if (!r.ok) {
    console.warn(`chat: ignored a message (${r.error})`);
    return;
  }
  handle(r.message);
});

transcript.el.addEventListener('scroll', () => save(), { passive: true });
transcript.el.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && (awaitingTurn || transcript.runningTurn)) post({ type: 'stop' });
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') {
    save(true);
    flushState();
  }
});
window.addEventListener('pagehide', () => {
  save(true);
  flushState();
});

post({ type: 'ready' });
