// Wires the chat into the window: the model host, the chat service (sessions from the workspace
// database, context files through the memory host's routing, the tools the agent's policy allows),
// the chat view and its commands. Part of dist/host-chat.js, loaded on the first chat use through
// chat-lazy.ts, which also owns the session store and the session tools.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ChatService } from '../../core/agent/chat-service';
import { systemClock } from '../../core/clock';
import { callerAgentIds, modelFor } from '../../core/subagents/child-model';
import { confirmThrough } from '../../core/subagents/spawn-approval';
import { originLabel } from '../../core/subagents/subagent-format';
import { SubagentManager } from '../../core/subagents/subagent-manager';
import type { SubagentStore } from '../../core/subagents/subagent-store';
import type { PincerRuntime } from '../../core/runtime';
import type { HandoffStore } from '../../core/sessions/handoff-store';
import type { SessionStore } from '../../core/sessions/session-store';
import type { ChatTeamPort } from '../../core/teams/team-choices';
import { ModelHost, selectModelCommand, setModelKeyCommand } from '../agent/model-host';
import { connectLocalModelCommand, useVscodeModelsCommand, type ConnectLocalOptions } from '../agent/model-setup';
import type { ExecHost } from '../exec/exec-host';
import type { MemoryHost } from '../memory/memory-host';
import type { ReviewHost } from '../review/review-host';
import { ChatView } from './chat-view';
import { editorChips } from './chat-context';
import type { ChatCommandId } from './chat-commands';

export interface LoadedChat extends vscode.Disposable {
  view: ChatView;
  service: ChatService;
  models: ModelHost;
  /** The window's subagents: children run as chat turns of this service. */
  subagents: SubagentManager;
  /** Resolves once the stored children are loaded (the Subagents view waits for it). */
  subagentsLoaded: Promise<void>;
  commands: Record<ChatCommandId, (...args: never[]) => unknown>;
}

export interface ChatDeps {
  rt: PincerRuntime;
  sessions(): Promise<SessionStore | undefined>;
  handoffs(): Promise<HandoffStore | undefined>;
  subagentStore(): Promise<SubagentStore | undefined>;
  memory: MemoryHost;
  exec: ExecHost;
  review: ReviewHost;
  /** TEAM.md for a lead's turn, and the teams in the agent picker (teams-host.ts). */
  teams?: ChatTeamPort;
}

/**
 * This window's id for the subagents' records: kept in the workspace's state, so a reload of the
 * window keeps it (its children come back as its own) while a window on another workspace that shares
 * the database folder has its own.
 */
function windowId(context: vscode.ExtensionContext): string {
  const key = 'pincer.subagents.windowId';
  let id = context.workspaceState.get<string>(key);
  if (!id) {
    id = randomUUID();
    void context.workspaceState.update(key, id);
  }
  return id;
}

export function registerChat(context: vscode.ExtensionContext, { rt, sessions, subagentStore, handoffs, memory, exec, review, teams }: ChatDeps): LoadedChat {
  const models = new ModelHost(context, rt);
  const agents = memory.agents.registry;
  const service = new ChatService({
    rt, sessions, agent: (id) => agents.resolve(id),
    model: async (agent, sessionKey) => {
      const cur = await models.current();
      if (!cur) return undefined;
      // A child runs on the model its definition names, else on its caller's (child-model.ts).
      const callers = callerAgentIds(sessionKey, (key) => subagents.childOfSession(key)).map((id) => agents.resolve(id));
      const model = await modelFor({ agent, callers, chosen: cur.model, offered: () => cur.provider.listModels() });
      return { provider: cur.provider, model, contextTokens: cur.info?.contextTokens };
    },
    contextFiles: { read: async (scope, p) => (await memory.services())?.routed.read(scope, p) },
    user: () => memory.userId(),
    workspace: () => {
      const f = vscode.workspace.workspaceFolders?.find((x) => x.uri.scheme === 'file');
      return f && { root: f.uri.fsPath, name: f.name };
    },
    toolContext: () => ({
      workspaceRoot: vscode.workspace.workspaceFolders?.find((x) => x.uri.scheme === 'file')?.uri.fsPath,
      workspaceTrusted: vscode.workspace.isTrusted, isOwner: true,
    }),
    subagents: () => subagents,
    teamMd: teams && ((key, agentId) => teams.teamMd(key, agentId)),
    handedTo: async (key) => (await (await handoffs())?.get(key))?.agent,
  });
  const subagents: SubagentManager = new SubagentManager({
    runner: (req) => service.turn(req), sessions, store: subagentStore, agents,
    config: () => rt.currentConfig.subagents, maxDepth: () => rt.currentConfig.policy.subagentMaxDepth, clock: systemClock,
    confirm: confirmThrough(exec.approvals, { cwd: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', host: rt.currentConfig.exec.host }),
    endJobs: async (key) => { await Promise.all(exec.jobs.list(key).map((j) => j.kill())); },
    windowId: windowId(context),
  });
  // A child's approvals and reviews name the child wherever the person sees them (dialog, diff, lists).
  const origin = (key: string) => {
    const child = subagents.childOfSession(key);
    return child && originLabel(child);
  };
  exec.approvals.origin = origin;
  review.diff.origin = origin;
  // Children that were running when the window closed come back interrupted, never re-run.
  const subagentsLoaded = subagents.load().catch((e: unknown) => {
    void vscode.window.showWarningMessage(`Pincer could not load the stored subagents: ${(e as Error).message}`);
  });
  const view = new ChatView(context.extensionUri, {
    chat: service, sessions, models, agents, subagents, teams, handoffs,
    answerApproval: (id, answer) => exec.approvals.answer(id, answer),
    review: async (id, action) => {
      const p = review.diff.pending.get(id);
      if (!p) return;
      const cmd = action === 'accept' ? 'pincer.review.accept' : action === 'reject' ? 'pincer.review.reject' : 'pincer.review.open';
      await vscode.commands.executeCommand(cmd, p.proposedUri);
    },
  }, exec.approvals, review.diff, exec.guard);
  const pickerWatch = [models.onDidChange.event(() => view.visible && view.controller.refreshPickers())];

  /** Sends a message as if typed, with the editor's chips (the palette commands). */
  const ask = async (text: string) => {
    await view.reveal();
    await view.controller.send({ type: 'send', text, chips: editorChips() });
  };
  return {
    view, service, models, subagents, subagentsLoaded,
    commands: {
      'pincer.chat.new': async () => {
        await view.reveal();
        await view.controller.handle({ type: 'new-session' });
      },
      'pincer.chat.stop': () => view.controller.handle({ type: 'stop' }),
      'pincer.chat.askAboutSelection': async (question?: string) => {
        if (!vscode.window.activeTextEditor || vscode.window.activeTextEditor.selection.isEmpty) {
          return void vscode.window.showInformationMessage('Pincer: select some code first, then ask about it.');
        }
        const q = question ?? await vscode.window.showInputBox({ title: 'Ask Pincer about the selection', prompt: 'Your question (the selection goes with it)' });
        if (q) await ask(q);
      },
      'pincer.chat.explainFile': () => (vscode.window.activeTextEditor
        ? ask('Explain this file: what it is for, how it works, and anything surprising in it.')
        : void vscode.window.showInformationMessage('Pincer: open a file first.')),
      'pincer.selectModel': () => selectModelCommand(models),
      'pincer.setModelApiKey': (pre?: { provider: 'openai' | 'anthropic'; key: string }) => setModelKeyCommand(context, pre),
      'pincer.useVscodeModels': () => useVscodeModelsCommand(models),
      'pincer.connectLocalModel': (o?: ConnectLocalOptions) => connectLocalModelCommand(models, o),
    },
    dispose: () => {
      pickerWatch.forEach((d) => d.dispose());
      void subagents.dispose();
      view.dispose();
      models.dispose();
    },
  };
}
