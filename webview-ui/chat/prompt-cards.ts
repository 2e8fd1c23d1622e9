// The cards that wait for the person, inline in the turn: a command approval (the same request the
// native prompt shows: command, where, why, every part with its verdict) and an edit review (the
// diff itself opens in VS Code's diff editor). Their buttons post `approve` / `review`; the card
// stays until the host says the prompt is settled (answered here, in the native prompt, or by time).
// A reloaded transcript shows the settled cards again, with their outcome and without buttons.
import type { ApprovalAnswerChoice, MessageOf, ReviewAction, ReviewOutcome, SettledApproval, SettledReview, ToWebview } from '../../src/core/chat/chat-protocol';
import { disable, el, icon, textButton } from './dom';
import { post } from './vscode-api';

type Approval = MessageOf<ToWebview, 'approval'>;
type Review = MessageOf<ToWebview, 'review'>;

const ANSWERED: Record<ApprovalAnswerChoice, string> = { once: 'Allowed once', always: 'Always allowed', deny: 'Denied' };
const OUTCOME: Record<ReviewOutcome, string> = {
  accepted: 'Accepted', 'accepted-with-changes': 'Accepted with your changes', rejected: 'Rejected', cancelled: 'Cancelled',
};

function buttons(card: HTMLElement): HTMLElement[] {
  return [...card.querySelectorAll<HTMLElement>('.prompt-actions vscode-button')];
}

export function approvalCard(a: Approval): HTMLElement {
  const card = el('div', { class: 'prompt-card approval', role: 'group', 'aria-label': `Approval needed: ${a.command}`, 'data-approval-id': a.id });
  const answer = (answer: ApprovalAnswerChoice) => {
    for (const b of buttons(card)) disable(b);
    card.classList.add('answering');
    post({ type: 'approve', id: a.id, answer });
  };
  const parts = a.parts.length > 1 || a.parts.some((p) => p.decision !== 'ask')
    ? el('ul', { class: 'approval-parts' }, ...a.parts.map((p) => el('li', { class: `verdict-${p.decision}` },
      el('span', { class: 'verdict' }, p.decision), ' ', el('code', {}, p.text), ` — ${p.reason}${p.group ? ` (${p.group})` : ''}`)))
    : null;
  const children: (Node | null | false | undefined)[] = [
    ...approvalHead(a),
    parts,
    el('div', { class: 'prompt-actions' },
      textButton('Run once', () => answer('once'), { action: 'approve-once' }),
      a.alwaysOffered && textButton('Always allow', () => answer('always'), { secondary: true, action: 'approve-always' }),
      textButton('Deny', () => answer('deny'), { secondary: true, action: 'approve-deny' })),
    !a.alwaysOffered && a.alwaysUnavailable ? el('div', { class: 'prompt-meta' }, `"Always allow" is not offered: ${a.alwaysUnavailable}`) : null,
  ];
  for (const c of children) if (c) card.append(c);
  return card;
}

function approvalHead(a: { command: string; cwd: string; host: string; reason: string; from?: string }): HTMLElement[] {
  return [
    el('div', { class: 'prompt-title' }, icon('terminal'), ' Run this command?'),
    // A child's request names the child: several may be asking at once.
    ...(a.from ? [el('div', { class: 'prompt-from' }, icon('hubot'), ` Asked by ${a.from}`)] : []),
    el('pre', { class: 'approval-command' }, a.command),
    el('div', { class: 'prompt-meta' }, `in ${a.cwd} · ${a.host}`),
    el('div', { class: 'prompt-reason' }, a.reason),
  ];
}

/** An approval as a reloaded transcript shows it: what was asked and how it was answered. */
export function settledApprovalCard(a: SettledApproval): HTMLElement {
  const card = el('div', { class: 'prompt-card approval', role: 'group', 'aria-label': `Approval: ${a.command}` }, ...approvalHead(a), el('div', { class: 'prompt-actions' }));
  settleApproval(card, a.answer, a.note);
  return card;
}

export function settleApproval(card: HTMLElement, answer: ApprovalAnswerChoice, note?: string): void {
  card.classList.remove('answering');
  card.classList.add('settled', `answer-${answer}`);
  card.querySelector('.prompt-actions')?.replaceWith(el('div', { class: 'prompt-outcome', role: 'status' }, ANSWERED[answer], note ? ` — ${note}` : ''));
}

export function reviewCard(r: Review): HTMLElement {
  const card = el('div', { class: 'prompt-card review', role: 'group', 'aria-label': `Review the change to ${r.path}`, 'data-review-id': r.id });
  const act = (action: ReviewAction) => {
    if (action !== 'open') {
      for (const b of buttons(card)) disable(b);
      card.classList.add('answering');
    }
    post({ type: 'review', id: r.id, action });
  };
  card.append(
    ...reviewHead(r),
    el('div', { class: 'prompt-actions' },
      textButton('Accept', () => act('accept'), { action: 'review-accept' }),
      textButton('Reject', () => act('reject'), { secondary: true, action: 'review-reject' }),
      textButton('Open diff', () => act('open'), { secondary: true, action: 'review-open' })),
  );
  return card;
}

function reviewHead(r: { path: string; summary: string; added: number; removed: number }): HTMLElement[] {
  return [
    el('div', { class: 'prompt-title' }, icon('diff'), ' ', el('span', { class: 'review-path', title: r.path }, r.path), ' ',
      el('span', { class: 'diff-added', 'aria-label': `${r.added} lines added` }, `+${r.added}`), ' ',
      el('span', { class: 'diff-removed', 'aria-label': `${r.removed} lines removed` }, `−${r.removed}`)),
    el('div', { class: 'prompt-reason' }, r.summary),
  ];
}

/** A review as a reloaded transcript shows it: the change and what became of it. */
export function settledReviewCard(r: SettledReview): HTMLElement {
  const card = el('div', { class: 'prompt-card review', role: 'group', 'aria-label': `Review of ${r.path}` }, ...reviewHead(r), el('div', { class: 'prompt-actions' }));
  settleReview(card, r.outcome);
  return card;
}

export function settleReview(card: HTMLElement, outcome: ReviewOutcome): void {
  card.classList.remove('answering');
  card.classList.add('settled', `outcome-${outcome}`);
  card.querySelector('.prompt-actions')?.replaceWith(el('div', { class: 'prompt-outcome', role: 'status' }, OUTCOME[outcome]));
}
