// The chat view's host side: every message the page sends (already validated), answered through the
// chat service, the session store, the model host, the approval prompt and the diff review. Keeps the
// one turn that runs (its live events are replayed when the view comes back) and the session on screen.
import { randomUUID } from 'crypto';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentRegistry } from '../../core/agents/agent-registry';
import { DEFAULT_AGENT_ID } from '../../core/agents/types';
import type { ChatService } from '../../core/agent/chat-service';
import type { TurnEvent } from '../../core/agent/agent-types';
import { chatIdSeq, lastAnswerBy, preview, toChatMessages } from '../../core/chat/chat-history';
import { fillStoredThumbnails } from '../../core/chat/stored-thumbnails';
import { pastedImageSource, type ChatStopReason, type ChatUsage, type ContextChip, type LiveEvent, type MessageOf, type SessionPage, type ToHost, type ToWebview } from '../../core/chat/chat-protocol';
import { probeLocalServers } from '../../core/agent/local-model-probe';
import type { SessionMark, SessionStore } from '../../core/sessions/session-store';
import type { SubagentControl } from '../../core/subagents/types';
import { teamChoiceId, teamOfChoice, type ChatTeamPort } from '../../core/teams/team-choices';
import type { ModelHost } from '../agent/model-host';
import { connectLocalModelCommand, useVscodeModelsCommand } from '../agent/model-setup';
import { chipsToText } from '../../core/chat/chips-text';
import { editorChips } from './chat-context';
import { chatChoices } from './chat-choices';
import { ChatHandoffs } from './chat-handoffs';
import { ChatSubagentCards } from './chat-subagent-cards';
import type { HandoffStore } from '../../core/sessions/handoff-store';

/** Messages a session page carries at first; older ones come with `load-older`. */
const PAGE = 200;

export interface ChatControllerDeps {
  post(m: ToWebview): void;
  chat: ChatService;
  sessions: () => Promise<SessionStore | undefined>;
  models: ModelHost;
  agents: AgentRegistry;
  /** Runs the review command behind a review card. */
  review(id: string, action: 'accept' | 'reject' | 'open'): Promise<void>;
  answerApproval(id: string, answer: 'once' | 'always' | 'deny'): boolean;
  /** The window's subagents: children of a turn show as cards in it. */
  subagents?: SubagentControl;
  /** The teams, offered in the agent picker beside the agents. */
  teams?: ChatTeamPort;
  /** The sessions handed to another agent (handoff buttons hand them over too). */
  handoffs?: () => Promise<HandoffStore | undefined>;
}

interface Running {
  turnId: string;
  sessionKey: string;
  /** The seq of the turn's user message: a page of the session stops there (the rest is replayed live). */
  userSeq: number;
  abort: AbortController;
  live: LiveEvent[];
}

/** An approval or review card on screen: the mark that keeps it, filled in when it settles. */
interface ShownCard {
  sessionKey: string;
  shown: MessageOf<LiveEvent, 'approval' | 'review'>;
  mark: Promise<number | undefined>;
}

export class ChatController {
  private current?: string;
  private agentId = DEFAULT_AGENT_ID;
  private running?: Running;
  /** Chips attached for the person since the last message (attach()). */
  private attached: ContextChip[] = [];
  private readonly cards = new Map<string, ShownCard>();
  private readonly children?: ChatSubagentCards;
  /** Counts the pickers' answers asked for: see refreshPickers. */
  private pickerSeq = 0;

  private readonly handoffs: ChatHandoffs;

  constructor(private readonly d: ChatControllerDeps) {
    this.handoffs = new ChatHandoffs(d);
    if (d.subagents) {
      this.children = new ChatSubagentCards(d.subagents, {
        running: () => this.running, current: () => this.current, post: (e) => this.d.post(e),
        mark: (key, data) => void this.mark(key, 'subagent', data),
      });
    }
  }

  /** What a stored page needs beyond its messages: the children's cards as they stand now. */
  private get history() {
    return { subagentCard: (id: string) => this.children?.card(id) };
  }

  /** The session key of the turn running now (approvals and reviews of it show inline). */
  get runningSession(): string | undefined {
    return this.running?.sessionKey;
  }

  get currentSession(): string | undefined {
    return this.current;
  }

  /** A live event of the running turn: posted, and kept for a view that comes back. */
  live(e: LiveEvent): void {
    this.running?.live.push(e);
    this.d.post(e);
    this.keep(e);
  }

  /** What a reloaded transcript needs of a live event, stored as a mark of its session. */
  private keep(e: LiveEvent): void {
    const store = this.d.sessions();
    const key = this.running?.sessionKey;
    if ((e.type === 'approval' || e.type === 'review') && key) {
      this.cards.set(e.id, { sessionKey: key, shown: e, mark: store.then((s) => s?.mark(key, e.type, { pending: e.id })).catch(() => undefined) });
    } else if (e.type === 'tool-call' && e.call.status !== 'running' && key) {
      void this.mark(key, 'tool', { callId: e.call.callId, status: e.call.status, durationMs: e.call.durationMs });
    } else if (e.type === 'approval-settled' || e.type === 'review-settled') {
      const card = this.cards.get(e.id);
      this.cards.delete(e.id);
      if (!card) return;
      const { shown } = card;
      const data = shown.type === 'approval' && e.type === 'approval-settled'
        ? { command: shown.command, cwd: shown.cwd, host: shown.host, reason: shown.reason, ...(shown.from ? { from: shown.from } : {}), answer: e.answer, ...(e.note ? { note: e.note } : {}) }
        : shown.type === 'review' && e.type === 'review-settled'
          ? { path: shown.path, summary: shown.summary, added: shown.added, removed: shown.removed, outcome: e.outcome }
          : undefined;
      if (data) void Promise.all([store, card.mark]).then(([s, id]) => (id === undefined ? undefined : s?.updateMark(id, data))).catch(() => undefined);
    }
  }

  private mark(key: string, kind: SessionMark['kind'], data: unknown): Promise<unknown> {
    return this.d.sessions().then((s) => s?.mark(key, kind, data)).catch(() => undefined);
  }

  /**
   * Chips attached for the person from outside the page (an MCP resource from the MCP Servers view):
   * added to the composer's, and posted again when the page loads anew, until the next message.
   */
  attach(chips: readonly ContextChip[]): void {
    this.attached.push(...chips.map((c) => ({ ...c, origin: 'user' as const })));
    this.d.post({ type: 'attach', chips: this.attached });
  }

  async handle(m: ToHost): Promise<void> {
    switch (m.type) {
      case 'ready': return this.init();
      case 'send': return this.send(m);
      case 'stop': return void this.running?.abort.abort(new Error('stopped by the person'));
      case 'new-session': return this.newSession();
      case 'switch-session': return this.switchTo(m.key);
      case 'rename-session': return this.rename(m.key, m.title);
      case 'delete-session': return this.remove(m.key);
      case 'load-older': return this.older(m.key, m.before);
      case 'pick-model': return this.pickModel(m.id);
      case 'pick-agent': return this.pickAgent(m.id);
      case 'approve': return void this.d.answerApproval(m.id, m.answer);
      case 'review': return this.d.review(m.id, m.action);
      case 'copy-code': return vscode.env.clipboard.writeText(m.text);
      case 'insert-code': return insertAtCursor(m.text);
      case 'open-code': return void vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: m.text, language: m.language || 'plaintext' }));
      case 'open-link': return void vscode.env.openExternal(vscode.Uri.parse(m.url, true));
      case 'mention-query': return this.mentions(m.prefix);
      case 'setup-action': return this.setup(m.action);
      case 'subagent-stop': return this.children?.cancel(m.id);
      case 'subagent-open': return void vscode.commands.executeCommand('pincer.subagents.open', m.id);
      case 'handoff': return this.takeHandoff(m.agent, m.label);
    }
  }

  /** Local servers that answer now, for the first-run card (a short probe: nothing found is fine). */
  private async localServers() {
    return (await probeLocalServers()).map((s) => ({ name: s.name, baseUrl: s.baseUrl, models: s.models.length }));
  }

  private async setup(action: 'vscode-lm' | 'local' | 'api-key'): Promise<void> {
    if (action === 'vscode-lm') await useVscodeModelsCommand(this.d.models);
    else if (action === 'local') await connectLocalModelCommand(this.d.models);
    else await vscode.commands.executeCommand('pincer.setModelApiKey');
  }

  async init(): Promise<void> {
    const store = await this.d.sessions();
    const sessions = store ? await store.list(this.agentId, { withoutChildren: true }) : [];
    if (!this.current && sessions.length) this.current = sessions[0].key;
    const { models, agents, model, agent } = await this.choices(true);
    this.d.post({
      type: 'init', sessions: sessions.map(summary), session: await this.page(this.current), models, agents, model, agent,
      chips: editorChips(), ...(this.running ? { live: this.running.live } : {}),
    });
    if (this.attached.length) this.d.post({ type: 'attach', chips: this.attached });
    // The full model list can take a network round trip per provider: it follows when ready.
    this.refreshPickers();
  }

  /**
   * The pickers' lists and choices: the agent picker shows the team while the session on screen was
   * started for a team its agent leads, else the agent.
   */
  private async choices(quick: boolean) {
    const teams = this.d.teams;
    const c = await chatChoices(this.d.models, this.d.agents, { quick, teams: teams?.teams() ?? [] });
    const team = teams && this.current ? await teams.sessionTeam(this.current, this.agentId).catch(() => undefined) : undefined;
    return { ...c, agent: team ? teamChoiceId(team) : this.agentId };
  }

  /** The lists again (a provider's settings or key changed, the teams changed, a team's session opened). */
  refreshPickers(): void {
    // Only the latest answer is posted: an earlier one, slower to list the models, would show an old choice.
    const seq = ++this.pickerSeq;
    void this.choices(false).then((c) => seq === this.pickerSeq && this.d.post({ type: 'pickers', ...c }), () => undefined);
  }

  /** Sends one message: the session is created on the first one; the turn streams live events. */
  async send(m: MessageOf<ToHost, 'send'>): Promise<void> {
    if (this.running) return this.d.post({ type: 'error', message: 'A reply is still being written: stop it first, or wait.' });
    this.attached = [];
    const store = await this.d.sessions();
    if (!store) return this.d.post({ type: 'error', message: 'The workspace database could not be opened, so the chat cannot keep its history.' });
    // No model at all: the first-run card instead of a turn that fails before it starts.
    if (!(await this.d.models.current())) return this.d.post({ type: 'setup', servers: await this.localServers() });
    if (!this.current) {
      const s = await store.create(this.agentId);
      this.current = s.key;
      await this.postSessions(store);
      this.d.post({ type: 'session', session: { key: s.key, title: s.title, hasOlder: false, messages: [{ role: 'user', id: 'pending', text: m.text, chips: m.chips, ...(m.images ? { images: m.images.map((i) => pastedImageSource(i.name)) } : {}) }] } });
    }
    const sessionKey = this.current;
    const userSeq = ((await store.find(sessionKey))?.messageCount ?? 0) + 1;
    const running: Running = { turnId: randomUUID(), sessionKey, userSeq, abort: new AbortController(), live: [] };
    this.running = running;
    this.live({ type: 'assistant-start', turnId: running.turnId, sessionKey });
    const started = Date.now();
    // The agent that answers (the session may have been handed to another): its handoffs go under the answer.
    const answering = await this.handoffs.answering(sessionKey, this.agentId);
    const footer = (end: { stopReason: ChatStopReason; usage?: ChatUsage; message?: string }) => {
      const buttons = end.stopReason === 'end' ? this.handoffs.buttons(answering) : [];
      this.d.post({ type: 'turn-end', turnId: running.turnId, ...end, ...(buttons.length ? { handoffs: buttons } : {}) });
      // The mark names who answered: a reopened page shows the buttons only while that agent has the chat.
      return this.mark(sessionKey, 'turn-end', { ...end, durationMs: Math.max(0, Date.now() - started), agent: answering });
    };
    try {
      const r = await this.d.chat.turn({
        sessionKey, agentId: this.agentId, text: m.text, attachments: chipsToText(m.chips as ContextChip[]), images: m.images,
        signal: running.abort.signal, onEvent: (e) => this.onEvent(running.turnId, e),
      });
      await footer({
        stopReason: r.stopReason, ...(r.message ? { message: preview(r.message, 1000) } : {}),
        usage: { input: r.usage.input, output: r.usage.output, cached: r.usage.cached, ...(r.usage.costUsd !== undefined ? { costUsd: r.usage.costUsd } : {}) },
      });
    } catch (e) {
      // Failed before or outside the model's answer: no usage line, since no model counted anything.
      await footer({ stopReason: 'error', message: preview((e as Error).message, 1000) });
    } finally {
      this.running = undefined;
      // The turn may have handed the chat on (the handoff tool): the header follows.
      this.d.post(await this.handoffs.handed(sessionKey, this.agentId));
      await this.postSessions(store);
    }
  }

  private onEvent(turnId: string, e: TurnEvent): void {
    if (e.type === 'text') this.live({ type: 'text-delta', turnId, text: e.text });
    else if (e.type === 'tool-start') this.live({ type: 'tool-call', turnId, call: { callId: e.id, name: e.name, args: preview(e.args, 2000), status: 'running' } });
    else if (e.type === 'tool-progress') {
      const done = e.total !== undefined ? `${e.progress} of ${e.total}` : String(e.progress);
      this.live({ type: 'tool-call', turnId, call: { callId: e.id, name: e.name, args: preview(e.args, 2000), status: 'running', progress: preview(e.message ? `${done} — ${e.message}` : done, 200) } });
    }
    else if (e.type === 'tool-end') {
      this.live({ type: 'tool-call', turnId, call: { callId: e.id, name: e.name, args: preview(e.args, 2000), status: e.outcome === 'denied' || e.outcome === 'rejected-by-user' ? 'denied' : e.isError ? 'error' : 'ok', durationMs: Math.round(e.durationMs), result: preview(e.preview, 4000) } });
    }
  }

  private async page(key: string | undefined): Promise<SessionPage | null> {
    const store = await this.d.sessions();
    const s = key && store ? await store.find(key) : undefined;
    if (!s || !store) return null;
    // A turn still running is shown by replaying its live events: the page ends at its user message,
    // or its tool cards would be there twice (once stored, without results, and once live).
    const userSeq = this.running?.sessionKey === s.key ? this.running.userSeq : undefined;
    const last = userSeq === undefined ? s.messageCount : Math.min(s.messageCount, userSeq);
    const from = Math.max(1, last - PAGE + 1);
    const msgs = await store.messages(s.key, { fromSeq: from, limit: Math.max(0, last - from + 1) });
    await fillStoredThumbnails(msgs, (seq, parts) => store.replaceParts(s.key, seq, parts));
    const marks = await store.marks(s.key, { fromSeq: from, ...(userSeq === undefined ? {} : { toSeq: userSeq - 1 }) });
    const handoffs = await this.handoffs.page(s.key, this.agentId, userSeq === undefined ? lastAnswerBy(marks, last) : undefined);
    return { key: s.key, title: s.title, hasOlder: from > 1, messages: toChatMessages(msgs, this.history, marks), ...handoffs };
  }

  private async postSessions(store: SessionStore): Promise<void> {
    this.d.post({ type: 'sessions', sessions: (await store.list(this.agentId, { withoutChildren: true })).map(summary), ...(this.current ? { current: this.current } : {}) });
  }

  private async newSession(): Promise<void> {
    const store = await this.d.sessions();
    if (!store) return;
    const s = await store.create(this.agentId);
    this.current = s.key;
    await this.postSessions(store);
    this.d.post({ type: 'session', session: { key: s.key, title: s.title, hasOlder: false, messages: [] } });
    if (this.d.teams?.teams().length) this.refreshPickers();
  }

  async switchTo(key: string): Promise<void> {
    const page = await this.page(key);
    if (!page) return this.d.post({ type: 'error', message: 'That session no longer exists.' });
    this.current = key;
    this.d.post({ type: 'session', session: page, ...(this.running?.sessionKey === key ? { live: this.running.live } : {}) });
    // A session started for a team shows the team in the agent picker, another one the agent.
    if (this.d.teams?.teams().length) this.refreshPickers();
  }

  private async rename(key: string, title: string): Promise<void> {
    const store = await this.d.sessions();
    if (!store) return;
    await store.owned(key, this.agentId);
    await store.rename(key, title);
    await this.postSessions(store);
  }

  private async remove(key: string): Promise<void> {
    const store = await this.d.sessions();
    const s = store && await store.find(key);
    if (!store || !s) return;
    const ok = await vscode.window.showWarningMessage(`Delete the chat "${s.title}" and its ${s.messageCount} messages?`, { modal: true }, 'Delete');
    if (ok !== 'Delete') return;
    if (this.running?.sessionKey === key) this.running.abort.abort(new Error('the session was deleted'));
    await store.delete(key);
    if (this.current === key) this.current = (await store.list(this.agentId, { limit: 1, withoutChildren: true }))[0]?.key;
    await this.postSessions(store);
    const page = await this.page(this.current);
    if (page) this.d.post({ type: 'session', session: page });
    else await this.newSession();
  }

  private async older(key: string, before: string): Promise<void> {
    const store = await this.d.sessions();
    const seq = chatIdSeq(before);
    if (!store || seq === undefined) return;
    const from = Math.max(1, seq - PAGE);
    const msgs = await store.messages(key, { fromSeq: from, limit: seq - from });
    await fillStoredThumbnails(msgs, (at, parts) => store.replaceParts(key, at, parts));
    const marks = await store.marks(key, { fromSeq: from, toSeq: seq - 1 });
    this.d.post({ type: 'older', key, messages: toChatMessages(msgs, this.history, marks), hasOlder: from > 1 });
  }

  private async pickModel(id: string): Promise<void> {
    const slash = id.indexOf('/');
    const provider = id.slice(0, slash) as 'vscode-lm' | 'openai' | 'anthropic';
    await this.d.models.choose({ provider, model: id.slice(slash + 1) });
    this.d.post({ type: 'pickers', ...(await this.choices(true)) });
  }

  async pickAgent(id: string): Promise<void> {
    // A team: its lead becomes the chat's agent in a new session started for the team.
    const team = teamOfChoice(id);
    if (team !== undefined) {
      if (!this.d.teams) return this.d.post({ type: 'error', message: 'Teams are not available in this window.' });
      const picked = await this.d.teams.pickCommand(team);
      // Not picked (no longer defined, its lead gone): the picker goes back to what the chat is on.
      if (!picked) this.refreshPickers();
      return;
    }
    this.agentId = this.d.agents.resolve(id).id;
    this.current = undefined;
    await this.init();
  }

  /** A handoff button under an answer: the session goes to its agent, its prompt into the input. */
  private async takeHandoff(agent: string, label: string): Promise<void> {
    if (this.running) return this.d.post({ type: 'error', message: 'A reply is still being written: stop it first, or wait.' });
    if (!this.current) return this.d.post({ type: 'error', message: 'There is no chat to hand over.' });
    const r = await this.handoffs.take(this.current, this.agentId, agent, label);
    if (typeof r !== 'string') this.d.post(await this.handoffs.handed(this.current, this.agentId));
    this.d.post(typeof r === 'string' ? { type: 'error', message: r } : { type: 'prefill', ...r });
  }

  private async mentions(prefix: string): Promise<void> {
    const safe = prefix.replace(/[[\]{}*?!]/g, '');
    const files = await vscode.workspace.findFiles(`**/*${safe}*`, '**/{node_modules,.git}/**', 20);
    this.d.post({
      type: 'mention-results', prefix,
      items: files.map((f) => {
        const rel = vscode.workspace.asRelativePath(f, false);
        return { path: rel, label: path.basename(rel), detail: path.dirname(rel) === '.' ? undefined : path.dirname(rel) };
      }),
    });
  }
}

function summary(s: { key: string; title: string; updatedAt: number; messageCount: number; agentId: string }) {
  return { key: s.key, title: s.title, updatedAt: s.updatedAt, messageCount: s.messageCount, agentId: s.agentId };
}

async function insertAtCursor(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return void vscode.window.showInformationMessage('Pincer: open an editor to insert the code at its cursor.');
  await editor.edit((b) => editor.selections.forEach((s) => b.replace(s, text)));
}
