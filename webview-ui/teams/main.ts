// The Team Board's script: renders the snapshot the extension posts (the team's tasks in five columns,
// the questions members and the lead wait on the person for, the mailbox, the audit trail, the lead's unread mail) and sends a person's actions back (add a task, cancel,
// retry, approve, reject with feedback, reassign). Every control is a native button, select or input, so the board
// works from the keyboard; colours are the theme's. Task text is data: it only ever becomes textContent.
import type { BoardSnapshot, PersonActionName, ToBoardPage } from '../../src/core/teams/board-protocol';
import type { BoardTask } from '../../src/core/teams/board-types';
import type { OpenQuestion } from '../../src/core/teams/open-questions';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;
let snapshot: BoardSnapshot | undefined;
let notice: { ok: boolean; text: string } | undefined;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function act(action: PersonActionName, id: number, extra: { assignee?: string; text?: string } = {}): void {
  vscode.postMessage({ type: 'action', action, id, ...extra });
}

function button(label: string, action: PersonActionName, t: BoardTask, extra?: () => { assignee?: string; text?: string }): HTMLButtonElement {
  const b = el('button', { type: 'button', class: `act act-${action}`, 'aria-label': `${label} task ${t.id}` }, label);
  b.addEventListener('click', () => act(action, t.id, extra?.()));
  return b;
}

function controls(t: BoardTask, s: BoardSnapshot): HTMLElement {
  const row = el('div', { class: 'actions' });
  if (t.status === 'pending' || t.status === 'in_progress') {
    const people = [s.team!.lead, ...s.team!.members];
    const pick = el('select', { class: 'assignee', 'aria-label': `New assignee of task ${t.id}` }, ...people.map((p) => el('option', { value: p }, p)));
    pick.value = t.assignee && people.includes(t.assignee) ? t.assignee : people[1] ?? people[0]!;
    row.append(pick, button('Reassign', 'assign', t, () => ({ assignee: pick.value })));
  }
  if (t.status === 'in_review') {
    const feedback = el('input', { type: 'text', class: 'feedback', placeholder: 'Feedback (to reject)', 'aria-label': `Feedback for task ${t.id}` });
    row.append(button('Approve', 'approve', t), feedback, button('Reject', 'reject', t, () => ({ text: feedback.value })));
  }
  if (t.status === 'pending' || t.status === 'in_progress' || t.status === 'in_review') row.append(button('Cancel', 'cancel', t));
  if (t.status === 'failed' || t.status === 'cancelled') row.append(button('Retry', 'retry', t));
  return row;
}

function card(t: BoardTask, s: BoardSnapshot): HTMLElement {
  const working = t.status === 'in_progress' || t.status === 'in_review';
  const who = t.owner ? (working ? `${t.owner} (working)` : `by ${t.owner}`) : t.assignee ? `for ${t.assignee}` : 'unassigned';
  const lines: (Node | string)[] = [
    el('h3', {}, el('span', { class: 'id' }, `#${t.id}`), ` ${t.subject}`),
    el('div', { class: 'meta' }, `P${t.priority} · ${who}${t.status === 'cancelled' ? ' · cancelled' : ''}`),
  ];
  if (t.blockedBy.length) {
    lines.push(el('div', { class: t.openBlockers.length ? 'blockers open' : 'blockers' },
      `Blocked by ${t.blockedBy.map((b) => `#${b}${t.openBlockers.includes(b) ? ' (open)' : ' (done)'}`).join(', ')}`));
  }
  if (t.status === 'in_progress') {
    lines.push(el('div', { class: 'progress' },
      el('progress', { max: '100', value: String(t.progress), 'aria-label': `Progress of task ${t.id}` }), ` ${t.progress}%${t.progressNote ? ` ${t.progressNote}` : ''}`));
  }
  if (t.gates.length) lines.push(el('div', { class: 'task-gates' }, `Gates: ${t.gates.map((g) => `${g.name} (${g.kind})`).join(', ')}`));
  if (t.gateFailures) lines.push(el('div', { class: 'gates' }, `Quality-gate failures: ${t.gateFailures}`));
  if (t.returns) lines.push(el('div', { class: 'returns' }, `Returned by the watchdog ${t.returns}×`));
  if (t.result) lines.push(el('div', { class: 'result' }, t.result));
  return el('article', { class: `card status-${t.status}`, 'data-task': String(t.id), 'aria-label': `Task ${t.id}: ${t.subject}` }, ...lines, controls(t, s));
}

/** An ask_user question: answered here or in the editor's prompt, whichever comes first. */
function question(q: OpenQuestion): HTMLElement {
  const answer = el('input', { type: 'text', class: 'answer-text', placeholder: 'Your answer', 'aria-label': `Answer to ${q.from}'s question ${q.id}` });
  const form = el('form', { class: 'answer' }, answer, el('button', { type: 'submit', class: 'act-answer' }, 'Answer'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (answer.value.trim()) vscode.postMessage({ type: 'answer', id: q.id, text: answer.value.trim() });
  });
  return el('article', { class: 'question', 'data-question': String(q.id), 'aria-label': `Question from ${q.from}` },
    el('div', { class: 'meta' }, `${q.from} asks${q.taskId !== undefined ? ` (task #${q.taskId})` : ''}`), el('p', {}, q.question), form);
}

function header(s: BoardSnapshot): HTMLElement {
  const head = el('header', {});
  if (s.teams.length > 1) {
    const pick = el('select', { class: 'team-pick', 'aria-label': 'Team' }, ...s.teams.map((t) => el('option', { value: t.id }, t.name)));
    pick.value = s.team!.id;
    pick.addEventListener('change', () => vscode.postMessage({ type: 'pick-team', team: pick.value }));
    head.append(pick);
  }
  const t = s.team!;
  head.append(el('h1', {}, `Team ${t.name}`), el('div', { class: 'meta' }, `Lead ${t.lead} · members ${t.members.join(', ')} · ${s.leadUnread} unread for the lead`));
  // A form, so Enter in the subject adds the task too.
  const subject = el('input', { type: 'text', class: 'new-subject', placeholder: 'New task for the lead to assign', 'aria-label': 'New task subject', maxlength: '200' });
  const form = el('form', { class: 'new-task' }, subject, el('button', { type: 'submit', class: 'act-create' }, 'Add task'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!subject.value.trim()) return;
    vscode.postMessage({ type: 'create', subject: subject.value.trim() });
    subject.value = '';
  });
  head.append(form);
  return head;
}

function render(): void {
  const s = snapshot;
  if (!s) return;
  const children: Node[] = [];
  if (notice) children.push(el('div', { class: notice.ok ? 'notice' : 'notice error', role: 'status' }, notice.text));
  for (const p of s.problems) children.push(el('div', { class: 'problem' }, p));
  if (!s.team) {
    children.push(el('p', { class: 'empty' }, 'No team is defined: add .pincer/teams/<id>.md (name, lead, members) or the pincer.teams setting.'));
    app.replaceChildren(...children);
    return;
  }
  children.push(header(s));
  if (s.questions.length) {
    children.push(el('section', { class: 'questions', 'aria-label': `Questions for you: ${s.questions.length}` }, el('h2', {}, 'Questions for you'), ...s.questions.map(question)));
  }
  const board = el('div', { class: 'columns' });
  for (const c of s.columns) {
    const tasks = s.tasks.filter((t) => c.statuses.includes(t.status));
    board.append(el('section', { class: 'column', 'data-column': c.id, 'aria-label': `${c.title}: ${tasks.length}` },
      el('h2', {}, `${c.title} `, el('span', { class: 'count' }, String(tasks.length))),
      ...tasks.map((t) => card(t, s))));
  }
  children.push(board);
  const audit = el('ol', { class: 'audit' }, ...s.events.slice(0, 50).map((e) => el('li', {},
    el('time', {}, new Date(e.at).toLocaleTimeString()), ` ${e.actor} ${e.action}${e.taskId ? ` #${e.taskId}` : ''}${e.detail ? `: ${e.detail}` : ''}`)));
  // The mailbox, newest first: what the lead, the members and the person told each other (read or not).
  const mail = el('ol', { class: 'mail' }, ...[...s.messages].reverse().slice(0, 50).map((m) => el('li', { class: m.readAt === undefined ? 'unread' : 'read', 'data-message': String(m.id) },
    el('time', {}, new Date(m.at).toLocaleTimeString()), ` ${m.sender} → ${m.recipient}${m.readAt === undefined ? ' (unread)' : ''}: `, el('span', { class: 'text' }, m.text))));
  children.push(el('details', { class: 'mailbox', open: '' }, el('summary', {}, `Mailbox (${s.messages.length})`), s.messages.length ? mail : el('p', { class: 'empty' }, 'No messages yet.')));
  children.push(el('details', { class: 'trail', open: '' }, el('summary', {}, 'Audit trail'), audit));
  // A re-render must not steal the keyboard focus from the control the person is on.
  const focused = document.activeElement instanceof HTMLElement && app.contains(document.activeElement) ? document.activeElement : undefined;
  const holder = focused?.closest('[data-task],[data-question]');
  const inCard = holder && (holder.hasAttribute('data-task') ? `[data-task="${holder.getAttribute('data-task')}"]` : `[data-question="${holder.getAttribute('data-question')}"]`);
  const cls = focused?.className ? `.${focused.className.split(' ').join('.')}` : undefined;
  const typed = focused instanceof HTMLInputElement ? focused.value : undefined;
  app.replaceChildren(...children);
  if (cls) {
    // Controls outside the cards (the team choice, the new task's subject) are one of a kind.
    const again = app.querySelector<HTMLElement>(inCard ? `${inCard} ${cls}` : cls);
    if (again instanceof HTMLInputElement && typed !== undefined) again.value = typed;
    again?.focus();
  }
}

window.addEventListener('message', (e: MessageEvent<ToBoardPage>) => {
  const m = e.data;
  if (m.type === 'snapshot') snapshot = m.snapshot;
  else if (m.type === 'result') notice = { ok: m.ok, text: m.text };
  render();
});
vscode.postMessage({ type: 'ready' });
