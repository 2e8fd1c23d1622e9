// The Team Board page in a real browser (Chromium through playwright-core), without VS Code: the bundle
// built from webview-ui/teams with esbuild, the page the host ships (boardHtml: same CSP and nonce
// rule) served from a loopback server, a recording `acquireVsCodeApi` in front of the bundle. The
// snapshots are real ones (boardSnapshot over a real board), so what the page draws is what ships.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { BoardSnapshot } from '../../../src/core/teams/board-protocol';
import { boardHtml, boardSnapshot } from '../../../src/core/teams/board-view';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { OpenQuestions } from '../../../src/core/teams/open-questions';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { parseTeamFile } from '../../../src/core/teams/team-definition';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from '../chat/chat-page-server';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { TEAM_FILE } from './team-rig';

const STUB = String.raw`(() => {
  const board = window.__board = { posted: [], violations: [], errors: [] };
  document.addEventListener('securitypolicyviolation', (e) => board.violations.push(e.violatedDirective));
  window.addEventListener('error', (e) => board.errors.push(String(e.message)));
  window.acquireVsCodeApi = () => ({ postMessage(m) { board.posted.push(JSON.parse(JSON.stringify(m))); }, getState() { return null; }, setState() {} });
})();`;

/** The page's globals the test reads inside page.evaluate (the test itself compiles without the DOM's types). */
interface PageGlobals {
  __board: { posted: Record<string, unknown>[]; violations: string[]; errors: string[] };
  postMessage(m: unknown, origin: string): void;
  document: { activeElement: { className: string; closest(s: string): { getAttribute(n: string): string | null } | null } | null };
}

const team = parseTeamFile('/ws/.pincer/teams/web.md', TEAM_FILE).team!;
const ops = parseTeamFile('/ws/.pincer/teams/ops.md', '---\nname: Ops\nlead: sre\nmembers: [ann]\n---\n').team!;

/** A board in a new workspace database (the database the editor opens), closed by the caller. */
async function localBoard() {
  const db = await Database.open({ dir: tempDir('team-board'), workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
  let at = 1_700_000_000_000;
  return { board: new SqlBoardStore(db), as: (name: string) => ({ name, at: ++at }), close: () => db.close() };
}

/** A board with one task in each column (and a blocked one, a failed one) and its snapshot. */
async function boardOfEveryKind(): Promise<BoardSnapshot> {
  const f = await localBoard();
  try {
    const b = f.board;
    await b.create('web', { subject: 'Design the API', priority: 5, gates: [{ name: 'npm test', kind: 'command', command: 'npm test', blockOnFailure: true, maxRetries: 2 }] }, f.as('default'));
    await b.create('web', { subject: 'Build the <UI>', blockedBy: [1], assignee: 'bob' }, f.as('default'));
    await b.create('web', { subject: 'Write docs', requireReview: true, assignee: 'ann' }, f.as('default'));
    await b.create('web', { subject: 'Fix the build' }, f.as('default'));
    await b.create('web', { subject: 'Deploy' }, f.as('default'));
    await b.claim('web', 1, 'run-1', f.as('ann'));
    await b.progress('web', 1, 40, 'schema drafted', f.as('ann'));
    await b.claim('web', 3, 'run-2', f.as('ann'));
    await b.submitForReview('web', 3, 'docs written', f.as('ann'));
    await b.claim('web', 4, 'run-3', f.as('bob'));
    await b.complete('web', 4, 'green again', f.as('bob'));
    await b.cancel('web', 5, 'not needed', f.as('default'));
    await b.send('web', 'ann', ['default'], '[ann] docs are ready for review', Date.now());
    await b.send('web', 'default', ['bob'], 'use <b>flexbox</b>', Date.now());
    await b.readUnread('web', 'bob', Date.now());
    return await boardSnapshot(b, [team, ops], 'web', []);
  } finally {
    await f.close();
  }
}

/** The same board while ann's ask_user question waits for the person (a real open question, then settled). */
async function withQuestion(snapshot: BoardSnapshot): Promise<BoardSnapshot> {
  const questions = new OpenQuestions();
  const stop = new AbortController();
  const waiting = questions.ask({ teamId: 'web', taskId: 3, from: 'ann', question: 'Which <b>format</b> for the docs?', at: 1 }, async () => undefined, stop.signal);
  const shown = { ...snapshot, questions: questions.list('web') };
  await waiting;
  return shown;
}

describe('teams: the Team Board page in a browser', function () {
  this.timeout(120_000);
  let dir = '';
  let server: http.Server | undefined;
  let url = '';
  let browser: Browser | undefined;
  let page: Page;
  let snapshot: BoardSnapshot;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-team-board-'));
    await esbuild.build({ entryPoints: [path.join(ROOT, 'webview-ui', 'teams', 'main.ts')], outfile: path.join(dir, 'team-board.js'), bundle: true, platform: 'browser', format: 'iife', target: 'chrome120', logLevel: 'warning' });
    fs.copyFileSync(path.join(ROOT, 'webview-ui', 'teams', 'style.css'), path.join(dir, 'team-board.css'));
    server = http.createServer((req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').pathname;
      if (name === '/') {
        const nonce = randomBytes(18).toString('base64');
        const html = boardHtml({ cspSource: url, nonce, script: '/team-board.js', style: '/team-board.css' }).replace('<script nonce=', `<script nonce="${nonce}" src="/stub.js"></script>\n<script nonce=`);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      } else if (name === '/stub.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(STUB);
      } else if (name === '/team-board.js' || name === '/team-board.css') {
        res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/css' }).end(fs.readFileSync(path.join(dir, name.slice(1))));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    snapshot = await boardOfEveryKind();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
    removeTempDirs();
  });
  beforeEach(async () => {
    page = await browser!.newPage();
    await page.goto(url);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__board.posted.some((m) => m.type === 'ready'));
  });
  afterEach(() => page.close());

  const post = (m: unknown) => page.evaluate((msg) => (globalThis as unknown as PageGlobals).postMessage(msg, '*'), m);
  const posted = () => page.evaluate(() => (globalThis as unknown as PageGlobals).__board.posted.filter((m) => m.type !== 'ready'));
  const column = (id: string) => page.locator(`[data-column="${id}"]`);

  it('draws each task in its column with owner, blockers, progress and result; task text stays text', async () => {
    await post({ type: 'snapshot', snapshot });
    await page.locator('[data-task="1"]').waitFor();
    assert.equal(await page.locator('h1').textContent(), 'Team Web');
    assert.equal(await page.locator('header .meta').textContent(), 'Lead default · members ann, bob · 1 unread for the lead');
    const titles = async (id: string) => (await column(id).locator('h3').allTextContents()).map((t) => t.trim());
    assert.deepEqual(await titles('pending'), ['#2 Build the <UI>']);
    assert.deepEqual(await titles('in_progress'), ['#1 Design the API']);
    assert.deepEqual(await titles('in_review'), ['#3 Write docs']);
    assert.deepEqual(await titles('done'), ['#4 Fix the build']);
    assert.deepEqual(await titles('failed'), ['#5 Deploy']);
    assert.equal(await column('pending').getAttribute('aria-label'), 'Pending: 1');
    assert.equal(await page.locator('[data-task="2"] .blockers').textContent(), 'Blocked by #1 (open)');
    assert.equal(await page.locator('[data-task="2"] .meta').textContent(), 'P0 · for bob');
    assert.equal(await page.locator('[data-task="1"] .meta').textContent(), 'P5 · ann (working)');
    assert.equal(await page.locator('[data-task="4"] .meta').textContent(), 'P0 · by bob', 'a finished task names who did it');
    assert.equal(await page.locator('[data-task="1"] progress').getAttribute('value'), '40');
    assert.match((await page.locator('[data-task="1"] .progress').textContent())!, /40% schema drafted/);
    assert.equal(await page.locator('[data-task="4"] .result').textContent(), 'green again');
    assert.equal(await page.locator('[data-task="2"] h3 *').count(), 1, 'the subject\'s <UI> is not markup');
    assert.equal(await page.locator('[data-task="1"] .task-gates').textContent(), 'Gates: npm test (command)');
    assert.equal(await page.locator('[data-task="2"] .task-gates').count(), 0);
    // The mailbox, newest first; unread mail says so; message text is text.
    assert.equal(await page.locator('.mailbox summary').textContent(), 'Mailbox (2)');
    const mail = await page.locator('.mail li').evaluateAll((items) => items.map((li) => li.textContent!.slice(li.querySelector('time')!.textContent!.length)));
    assert.deepEqual(mail, [' default → bob: use <b>flexbox</b>', ' ann → default (unread): [ann] docs are ready for review']);
    assert.equal(await page.locator('.mail li.unread').count(), 1);
    assert.equal(await page.locator('.mail b').count(), 0, 'a message\'s <b> is not markup');
    const trail = await page.locator('.audit li').allTextContents();
    assert.equal(trail.length, snapshot.events.length);
    assert.match(trail[0]!, /default cancel #5: not needed$/);
    const state = await page.evaluate(() => (globalThis as unknown as PageGlobals).__board);
    assert.deepEqual([state.violations, state.errors], [[], []], 'no CSP violation, no script error');
  });

  it('the controls fit each status, and each sends its action: cancel, reassign, approve, reject with feedback, retry', async () => {
    await post({ type: 'snapshot', snapshot });
    await page.locator('[data-task="1"]').waitFor();
    const buttons = async (id: number) => page.locator(`[data-task="${id}"] .actions button`).allTextContents();
    assert.deepEqual(await buttons(1), ['Reassign', 'Cancel']);
    assert.deepEqual(await buttons(3), ['Approve', 'Reject', 'Cancel']);
    assert.deepEqual(await buttons(4), [], 'a completed task is final');
    assert.deepEqual(await buttons(5), ['Retry']);
    await page.locator('[data-task="1"] select.assignee').selectOption('bob');
    await page.locator('[data-task="1"] .act-assign').click();
    await page.locator('[data-task="3"] .act-approve').click();
    await page.locator('[data-task="3"] input.feedback').fill('Add an example');
    await page.locator('[data-task="3"] .act-reject').click();
    await page.locator('[data-task="5"] .act-retry').click();
    await page.locator('[data-task="2"] .act-cancel').click();
    assert.deepEqual(await posted(), [
      { type: 'action', action: 'assign', id: 1, assignee: 'bob' },
      { type: 'action', action: 'approve', id: 3 },
      { type: 'action', action: 'reject', id: 3, text: 'Add an example' },
      { type: 'action', action: 'retry', id: 5 },
      { type: 'action', action: 'cancel', id: 2 },
    ]);
  });

  it('works from the keyboard, keeps the focus across a live update, and shows the answer to an action', async () => {
    await post({ type: 'snapshot', snapshot });
    await page.locator('[data-task="5"]').waitFor();
    await page.locator('[data-task="5"] .act-retry').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'action', action: 'retry', id: 5 }]);
    await post({ type: 'result', ok: false, text: 'Refused: only a failed or cancelled task can be retried; #5 is not.' });
    await post({ type: 'snapshot', snapshot: { ...snapshot, leadUnread: 2 } });
    await page.locator('header .meta', { hasText: '2 unread' }).waitFor();
    assert.equal(await page.locator('.notice.error[role="status"]').textContent(), 'Refused: only a failed or cancelled task can be retried; #5 is not.');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.closest('[data-task]')?.getAttribute('data-task')), '5', 'the focus stayed on the card it was on');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.className), 'act act-cancel', 'Shift+Tab reaches the previous card with controls (#3 in review)');
  });

  it('adds a task from the header (Enter or the button), never an empty one, and keeps a half-typed subject across a live update', async () => {
    await post({ type: 'snapshot', snapshot });
    const subject = page.locator('input.new-subject');
    await subject.fill('   ');
    await subject.press('Enter');
    await subject.fill('Check the links');
    await subject.press('Enter');
    assert.equal(await subject.inputValue(), '', 'the field is cleared once sent');
    await subject.fill('Update the changelog');
    await page.locator('.act-create').click();
    await subject.fill('Half typ');
    await post({ type: 'snapshot', snapshot: { ...snapshot, leadUnread: 3 } });
    await page.locator('header .meta', { hasText: '3 unread' }).waitFor();
    assert.equal(await page.locator('input.new-subject').inputValue(), 'Half typ');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.className), 'new-subject');
    assert.deepEqual(await posted(), [{ type: 'create', subject: 'Check the links' }, { type: 'create', subject: 'Update the changelog' }]);
  });

  it('shows the questions waiting for the person; an answer is sent from the keyboard, never an empty one, and survives a live update half typed', async () => {
    const asked = await withQuestion(snapshot);
    await post({ type: 'snapshot', snapshot: asked });
    const q = page.locator(`[data-question="${asked.questions[0]!.id}"]`);
    await q.waitFor();
    assert.equal(await q.locator('.meta').textContent(), 'ann asks (task #3)');
    assert.equal(await q.locator('p').textContent(), 'Which <b>format</b> for the docs?');
    assert.equal(await q.locator('p *').count(), 0, 'the question is text, not markup');
    assert.equal(await page.locator('.questions').getAttribute('aria-label'), 'Questions for you: 1');
    const answer = q.locator('input.answer-text');
    await answer.fill('  ');
    await answer.press('Enter');
    await answer.fill('Markdown');
    await answer.press('Enter');
    await answer.fill('Half');
    await post({ type: 'snapshot', snapshot: { ...asked, leadUnread: 4 } });
    await page.locator('header .meta', { hasText: '4 unread' }).waitFor();
    assert.equal(await page.locator('input.answer-text').inputValue(), 'Half');
    assert.deepEqual(await posted(), [{ type: 'answer', id: asked.questions[0]!.id, text: 'Markdown' }]);
    await post({ type: 'snapshot', snapshot });
    await page.locator('.questions').waitFor({ state: 'detached' });
  });

  it('a second team is one choice away, and no team says how to define one', async () => {
    await post({ type: 'snapshot', snapshot });
    await page.locator('select.team-pick').selectOption('ops');
    assert.deepEqual(await posted(), [{ type: 'pick-team', team: 'ops' }]);
    await post({ type: 'snapshot', snapshot: { ...snapshot, teams: [], team: undefined, tasks: [], events: [], problems: ['pincer.teams.x: field lead: required'] } });
    await page.locator('.empty').waitFor();
    assert.match((await page.locator('.empty').textContent())!, /add \.pincer\/teams\/<id>\.md/);
    assert.equal(await page.locator('.problem').textContent(), 'pincer.teams.x: field lead: required');
  });
});
