// The seam between the runtime (dist/host-core.js) and the chat stack (dist/host-chat.js, see
// chat-stack.ts). The tools must not wait for the model SDKs, markdown and the chat view to load:
// at host-core's load this sets up only what the window needs at once — the session store (for the
// toolset's session tools) and the chat's command ids — and requires the chat bundle on the first chat use (the view opening, a
// chat command, sessions_send needing a model). Module identity across the two bundles: the chat
// bundle has its own copies of shared core modules, so objects crossing the seam are checked by
// shape (error names and codes), never with instanceof against a class from the other side.
import * as vscode from 'vscode';
import type { PincerRuntime } from '../../core/runtime';
import { HandoffStore } from '../../core/sessions/handoff-store';
import { SessionStore } from '../../core/sessions/session-store';
import { SubagentStore } from '../../core/subagents/subagent-store';
import type { SubagentManager } from '../../core/subagents/subagent-manager';
import type { ChatTeamPort } from '../../core/teams/team-choices';
import type { ExecHost } from '../exec/exec-host';
import type { MemoryHost } from '../memory/memory-host';
import type { ReviewHost } from '../review/review-host';
import type { StorageHost } from '../storage-host';
import type { ChatService } from '../../core/agent/chat-service';
import type { ModelHost } from '../agent/model-host';
import type { LoadedChat } from './chat-register';
import type { ChatView } from './chat-view';
import { CHAT_COMMAND_IDS } from './chat-commands';
import { requireCachedBundle } from '../cached-bundle';

type ChatStack = typeof import('./chat-stack');

let stack: ChatStack | undefined;

/** The chat bundle, required once per extension host. */
export function chatStack(context: vscode.ExtensionContext): ChatStack {
  // A runtime path, not an import: esbuild keeps the chat stack out of host-core.
  return (stack ??= requireCachedBundle<ChatStack>(context, 'dist/host-chat.js'));
}

export interface ChatHost extends vscode.Disposable {
  /** The chat view, service and model host: the first access to any of them loads the chat bundle. */
  readonly view: ChatView;
  readonly service: ChatService;
  readonly models: ModelHost;
  /** The window's subagents (loads the chat bundle: children are chat turns). */
  readonly subagents: SubagentManager;
  /** The window's subagents once their stored records are loaded (loads the chat bundle). */
  loadedSubagents(): Promise<SubagentManager>;
  /** Whether the chat bundle has been loaded (nothing of it runs before). */
  isLoaded(): boolean;
  sessions(): Promise<SessionStore | undefined>;
  /** The sessions handed to another agent (the handoff tool, and the turns it routes). */
  handoffs(): Promise<HandoffStore | undefined>;
  /** Once loaded, refreshes the model list (after settings changed). */
  rebuild(): void;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function registerChatLazily(
  context: vscode.ExtensionContext, rt: PincerRuntime, storage: StorageHost, memory: MemoryHost, exec: ExecHost, review: ReviewHost,
  teams?: ChatTeamPort,
): ChatHost {
  let store: Promise<SessionStore | undefined> | undefined;
  const sessions = () => (store ??= storage.database().then((db) => db && new SessionStore(db, undefined, (t) => rt.scrubber.scrub(t))));
  const subagentStore = () => storage.database().then((db) => db && new SubagentStore(db));
  const handoffs = () => storage.database().then((db) => db && new HandoffStore(db));
  let chat: LoadedChat | undefined;
  const load = (): LoadedChat => (chat ??= chatStack(context).registerChat(context, { rt, sessions, subagentStore, handoffs, memory, exec, review, teams }));
  // The session tools are in the toolset (host-core); sessions_send's runner loads the chat here.
  const rebuild = () => chat?.models.changed();
  return {
    get view() { return load().view; },
    get service() { return load().service; },
    get models() { return load().models; },
    get subagents() { return load().subagents; },
    loadedSubagents: async () => {
      const c = load();
      await c.subagentsLoaded;
      return c.subagents;
    },
    isLoaded: () => chat !== undefined,
    sessions, handoffs, rebuild,
    commands: Object.fromEntries(CHAT_COMMAND_IDS.map((id) => [id, (...args: unknown[]) => (load().commands[id] as (...a: unknown[]) => unknown)(...args)])),
    dispose: () => chat?.dispose(),
  };
}
