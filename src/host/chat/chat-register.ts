// Wires the chat into the window: sessions in the workspace database, the model host, the chat service
// (context files through the memory host's routing, the tools the agent's policy allows), the session
// tools, the chat view and its commands. The database opens on first use, never at activation.
import * as vscode from 'vscode';
import { ChatService } from '../../core/agent/chat-service';
import type { PincerRuntime } from '../../core/runtime';
import { SessionStore } from '../../core/sessions/session-store';
import { createSessionsHistoryTool } from '../../core/sessions/tools/sessions-history';
import { createSessionsListTool } from '../../core/sessions/tools/sessions-list';
import { createSessionsSendTool } from '../../core/sessions/tools/sessions-send';
import type { Tool } from '../../core/tools/types';
import { ModelHost, selectModelCommand, setModelKeyCommand } from '../agent/model-host';
import type { ExecHost } from '../exec/exec-host';
import type { MemoryHost } from '../memory/memory-host';
import type { ReviewHost } from '../review/review-host';
import type { StorageHost } from '../storage-host';
import { ChatView } from './chat-view';
import { editorChips } from './chat-context';

export interface ChatHost extends vscode.Disposable {
  view: ChatView;
  service: ChatService;
  models: ModelHost;
  sessions(): Promise<SessionStore | undefined>;
  /** Registers the session tools again and refreshes the model list (after settings changed). */
  rebuild(): void;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function registerChat(context: vscode.ExtensionContext, rt: PincerRuntime, storage: StorageHost, memory: MemoryHost, exec: ExecHost, review: ReviewHost): ChatHost {
  let store: Promise<SessionStore | undefined> | undefined;
  const sessions = () => (store ??= storage.database().then((db) => db && new SessionStore(db, undefined, (t) => rt.scrubber.scrub(t))));
  const models = new ModelHost(context, rt);
  const agents = memory.agents.registry;
  const service = new ChatService({
    rt, sessions, agent: (id) => agents.resolve(id),
    model: async (agent) => {
      const cur = await models.current();
      // An agent that names its model uses it through the chosen provider.
      return cur && { provider: cur.provider, model: agent.model ?? cur.model, contextTokens: cur.info?.contextTokens };
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
  });
  const view = new ChatView(context.extensionUri, {
    chat: service, sessions, models, agents,
    answerApproval: (id, answer) => exec.approvals.answer(id, answer),
    review: async (id, action) => {
      const p = review.diff.pending.get(id);
      if (!p) return;
      const cmd = action === 'accept' ? 'pincer.review.accept' : action === 'reject' ? 'pincer.review.reject' : 'pincer.review.open';
      await vscode.commands.executeCommand(cmd, p.proposedUri);
    },
  }, exec.approvals, review.diff);
  // Called after the runtime took new settings (host-core's settings watcher): a provider's base URL
  // may have changed, so the model list is posted again from the new configuration.
  const rebuild = () => {
    rt.replaceTools([
      createSessionsListTool(sessions), createSessionsHistoryTool(sessions), createSessionsSendTool(sessions, () => service.runner()),
    ] as Tool[]);
    models.changed();
  };
  rebuild();
  const pickerWatch = [models.onDidChange.event(() => view.visible && view.controller.refreshPickers())];

  /** Sends a message as if typed, with the editor's chips (the palette commands). */
  const ask = async (text: string) => {
    await view.reveal();
    await view.controller.send({ type: 'send', text, chips: editorChips() });
  };
  return {
    view, service, models, sessions, rebuild,
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
    },
    dispose: () => {
      pickerWatch.forEach((d) => d.dispose());
      view.dispose();
      models.dispose();
    },
  };
}
