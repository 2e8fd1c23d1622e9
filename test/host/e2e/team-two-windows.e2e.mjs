// Two editors on one PostgreSQL team store: two VS Code windows — two browser pages, each its own
// workbench and extension host, on two checkouts of the project, as two people would have — point
// their user settings at one real server (test/support/postgres-server.ts). Both boards show the same
// tasks; a task one window adds appears on the other's board without a reload (LISTEN/NOTIFY); both
// leads ask to claim one task at the same moment and exactly one claim wins (the server says so, and
// the other lead is told it is taken); a cancel in the losing window reaches the winner's board live.
// Not in the default host run (its name does not end in .e2e.mjs) until the command palette's closing
// after Pick Team… in a fresh clone is understood; run it with --e2e naming this file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatWithModel } from './chat-with-model.mjs';
import { makeHelpers } from './helpers.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { startPostgres } = require(path.join(ROOT, 'out', 'test', 'support', 'postgres-server.js'));
const { startOpenAiChatServer } = require(path.join(ROOT, 'out', 'test', 'support', 'openai-chat-server.js'));
const { reply, text, toolCall } = require(path.join(ROOT, 'out', 'test', 'support', 'model-script.js'));
const { Client } = require('pg');
/** Longer than any --e2e-timeout: the harness ends the script first. */
const SCRIPT_BOUND_MS = 60 * 60_000;

const lastUser = (messages) => messages.map((m) => m.role).lastIndexOf('user');
const userText = (body) => String(body.messages[lastUser(body.messages)]?.content ?? '');
const resultsAfterUser = (body) => body.messages.slice(lastUser(body.messages) + 1).filter((m) => m.role === 'tool');

/** Each window's lead: "Window A: claim task #7" calls team_tasks claim 7, then reports what the tool said. */
function model(req) {
  const said = userText(req.body);
  const id = Number(/claim task #(\d+)/.exec(said)?.[1]);
  const results = resultsAfterUser(req.body);
  if (!Number.isInteger(id)) return reply(text('I only claim tasks here.'));
  if (results.length === 0) return reply(toolCall('team_tasks', { action: 'claim', id }));
  return reply(text(`${said.slice(0, 8)} heard: ${String(results[0].content).slice(0, 120)}`));
}

/** The team board's frame in a window (the only webview with the new-task form). */
const boardFrame = (helpers) => helpers.webviewFrame('.new-subject');
const cardIn = (frame, column, subject) => frame.locator(`[data-column="${column}"] [data-task]`, { hasText: subject });
/** The card titles on a board, every column, sorted (the two boards may order a column differently). */
const boardSubjects = async (frame) => (await frame.locator('[data-task] h3').allInnerTexts()).map((s) => s.trim()).sort();

async function pickTeamAndOpenBoard(page, helpers) {
  await helpers.runCommand('Pincer: Pick Team…');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Duo' }).first().click();
  await helpers.runCommand('Pincer: Open Team Board');
  const board = await boardFrame(helpers);
  await board.locator('h1', { hasText: 'Team Duo' }).waitFor();
  return board;
}

/** Types into a window's chat input (sent with Enter by the caller, so two windows can send at once). */
async function type(chat, words) {
  const input = chat.locator('textarea.input');
  await input.click();
  await input.fill(words);
}

/**
 * A server started where its system user can reach it: the harness's TMPDIR lies inside its run
 * folder, which only root may enter, and PostgreSQL (which refuses to run as root) runs as the
 * `postgres` user when the tests run as root; the cluster goes next to the run folder instead.
 */
async function startReachablePostgres(workspace) {
  const harnessTmp = process.env.TMPDIR;
  process.env.TMPDIR = path.dirname(path.dirname(workspace));
  try {
    return await startPostgres();
  } finally {
    process.env.TMPDIR = harnessTmp;
  }
}

export default async function ({ page, helpers, log, outDir, userDataDir, workspace }) {
  const pg = await startReachablePostgres(workspace);
  const server = await startOpenAiChatServer(model, { models: ['e2e-model'] });
  // The password as a person's password manager would hand it over (pincer.teamStore.passwordCommand).
  const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-pw-'));
  const pwFile = path.join(secretDir, 'pw');
  fs.writeFileSync(pwFile, pg.password, { mode: 0o600 });
  const db = new Client({ host: pg.host, port: pg.port, database: pg.database, user: pg.user, password: pg.password });
  let restore = () => {};
  try {
    // Window A: the person's user settings name the server, the team and the model.
    // The test server speaks no TLS (a real one would keep the default, verify).
    const settings = `"pincer.teamStore.url": "${pg.url}", "pincer.teamStore.tls": {"mode": "disable"}, "pincer.teamStore.passwordCommand": ["cat", "${pwFile}"], `
      + '"pincer.teams": {"duo": {"name": "Duo", "lead": "default", "members": ["ann"]}}, ';
    const opened = await chatWithModel({ page, helpers, userDataDir }, server.url, settings);
    restore = opened.restore;
    const chatA = opened.chat;
    const boardA = await pickTeamAndOpenBoard(page, helpers);
    await boardA.locator('.new-subject').fill('Seeded by window A');
    await boardA.locator('.new-subject').press('Enter');
    await cardIn(boardA, 'pending', 'Seeded by window A').waitFor();

    // Window B: a second page is a second window with its own extension host; it opens another
    // checkout of the project, so nothing is shared with A but the user settings and the server.
    const workspaceB = `${workspace}-b`;
    fs.cpSync(workspace, workspaceB, { recursive: true });
    const url = new URL(page.url());
    url.searchParams.set('folder', workspaceB);
    const pageB = await page.context().newPage();
    // B's waits end with the script (its --e2e-timeout stops it), not on a budget of their own.
    const waitLeft = () => SCRIPT_BOUND_MS;
    pageB.setDefaultTimeout(SCRIPT_BOUND_MS);
    pageB.setDefaultNavigationTimeout(SCRIPT_BOUND_MS);
    await pageB.goto(url.href);
    await pageB.locator('.monaco-workbench').waitFor();
    const helpersB = makeHelpers(pageB, { outDir, log, timeLeft: waitLeft });
    await helpersB.openActivity('Pincer');
    const chatB = await helpersB.webviewFrame('textarea.input');
    // The full model list first (the quick one the page opens with has only the chosen model, shared
    // with A): a click while the full list replaces the options can land on another model, and a
    // model chosen in B is the choice of A too (one user's state).
    await chatB.locator('vscode-single-select[label=Model] vscode-option').nth(1).waitFor({ state: 'attached' });
    await chatB.locator('vscode-option', { hasText: 'e2e-model' }).first().waitFor({ state: 'attached' });
    await chatB.locator('vscode-single-select[label=Model]').click();
    await chatB.locator('vscode-single-select[label=Model] [role=option]', { hasText: 'e2e-model' }).first().click();
    const boardB = await pickTeamAndOpenBoard(pageB, helpersB);

    // The same board in both: B opened with A's task on it.
    await cardIn(boardB, 'pending', 'Seeded by window A').waitFor();

    // Live from A to B: a task A adds appears on B's open board without a reload.
    await boardA.locator('.new-subject').fill('Shared task');
    await boardA.locator('.new-subject').press('Enter');
    const sharedB = cardIn(boardB, 'pending', 'Shared task');
    await sharedB.waitFor();
    // A's own board shows it after its add's reply, B's after the server's notice: either may be first.
    await cardIn(boardA, 'pending', 'Shared task').waitFor();
    const id = Number(await sharedB.getAttribute('data-task'));
    assert.ok(id > 0, 'the card carries the task id');
    assert.deepEqual(await boardSubjects(boardB), await boardSubjects(boardA), 'both windows show the same tasks');

    // Both leads claim it at the same moment: one claim wins, the other lead hears it is taken.
    await type(chatA, `Window A: claim task #${id}`);
    await type(chatB, `Window B: claim task #${id}`);
    await Promise.all([chatA.locator('textarea.input').press('Enter'), chatB.locator('textarea.input').press('Enter')]);
    const answers = await helpers.until('both windows\' claim results at the model', () => {
      const byWindow = ['Window A', 'Window B'].map((w) => server.requests.find((b) => userText(b).startsWith(w) && resultsAfterUser(b).length));
      return byWindow.every(Boolean) && byWindow.map((b) => String(resultsAfterUser(b)[0].content));
    });
    log(`claim results: ${JSON.stringify(answers)}`);
    const won = answers.filter((a) => /^Claimed #/.test(a));
    assert.equal(won.length, 1, `exactly one window's claim wins: ${JSON.stringify(answers)}`);
    assert.match(answers.find((a) => !/^Claimed #/.test(a)), /Refused:/, 'the other is refused');
    // Both boards move it to In progress without a reload.
    await cardIn(boardA, 'in_progress', 'Shared task').waitFor();
    await cardIn(boardB, 'in_progress', 'Shared task').waitFor();
    await db.connect();
    const claims = await db.query("SELECT count(*)::int AS n FROM pincer.team_events WHERE task_id = $1 AND action = 'claim'", [id]);
    assert.equal(claims.rows[0].n, 1, 'the server recorded one claim of the task');
    await helpers.screenshot('e2e-team-two-windows-a');
    await helpersB.screenshot('e2e-team-two-windows-b');

    // Live from B to A: the losing window cancels the task; A's board shows it under Failed.
    const loser = /^Claimed #/.test(answers[0]) ? boardB : boardA;
    const winner = loser === boardA ? boardB : boardA;
    await cardIn(loser, 'in_progress', 'Shared task').locator('button', { hasText: 'Cancel' }).click();
    await cardIn(winner, 'failed', 'Shared task').waitFor();
    const row = await db.query('SELECT status FROM pincer.team_tasks WHERE id = $1', [id]);
    assert.equal(row.rows[0].status, 'cancelled');
  } finally {
    restore();
    await db.end().catch(() => {});
    await server.close();
    await pg.remove();
    fs.rmSync(secretDir, { recursive: true, force: true });
    fs.rmSync(`${workspace}-b`, { recursive: true, force: true });
  }
}
