// Puts memory into the window: the memory tools and the file tools' interceptors (both wait for the
// store on first use), the agents' tool policies, and the memory commands.
import * as vscode from 'vscode';
import { withAgentPolicies } from '../../core/agents/agent-policy';
import type { PincerConfig } from '../../core/config';
import { interceptFsTools } from '../../core/memory/fs-interceptor';
import { createMemoryTools } from '../../core/memory/memory-tools';
import type { Tool } from '../../core/tools/types';
import {
  addMemoryToExplorerCommand, openContextFileCommand, reindexMemoryCommand, searchMemoryCommand, setEmbeddingsKeyCommand,
} from './memory-commands';
import type { MemoryHost } from './memory-host';
import { exportMemoryCommand, importMemoryCommand, type OnConflict } from './memory-transfer';
import { MemoryView } from './memory-view';
import { restoreRevisionCommand } from './memory-revisions';
import type { ResultDocuments } from '../result-documents';

export interface MemoryRegistration extends vscode.Disposable {
  intercept(tools: Tool[], roots: () => readonly string[]): Tool[];
  withAgents(config: PincerConfig): PincerConfig;
  commands(context: vscode.ExtensionContext, docs: ResultDocuments): Record<string, (...args: never[]) => unknown>;
  view: MemoryView;
}

export function registerMemory(host: MemoryHost): MemoryRegistration {
  const userId = () => host.userId();
  host.rt.replaceTools(createMemoryTools({ store: () => host.memoryStore(), userId }));
  void host.agents.ready();
  const view = new MemoryView(host);
  return {
    view,
    intercept: (tools, roots) => interceptFsTools(tools, {
      routed: () => host.routed(), userId, roots, routedNames: () => host.rt.currentConfig.memory.routedContextFiles,
      maxResultChars: host.rt.currentConfig.limits.maxResultChars,
    }),
    withAgents: (config) => ({ ...config, policy: withAgentPolicies(config.policy, host.agents.registry.all()) }),
    commands: (context, docs) => ({
      'pincer.memory.restoreRevision': (opts?: { agent?: string; path?: string; id?: number; confirm?: boolean }) => restoreRevisionCommand(host, docs, opts),
      'pincer.memory.search': (query?: string, opts?: { open?: boolean; agent?: string; limit?: number }) => searchMemoryCommand(host, context, query, opts),
      'pincer.memory.openContextFile': (name?: string, opts?: { agent?: string; level?: 'effective' | 'agent'; show?: boolean }) => openContextFileCommand(host, name, opts),
      'pincer.memory.reindex': () => reindexMemoryCommand(host),
      'pincer.memory.export': (folder?: string, opts?: { onConflict?: OnConflict }) => exportMemoryCommand(host, folder, opts),
      'pincer.memory.import': (folder?: string, opts?: { onConflict?: OnConflict; agent?: string }) => importMemoryCommand(host, folder, opts),
      'pincer.memory.setEmbeddingsKey': (value?: string) => setEmbeddingsKeyCommand(host, value),
      'pincer.memory.addToExplorer': (agent?: string) => addMemoryToExplorerCommand(host, agent),
      'pincer.memory.refresh': () => view.refresh(),
    }),
    dispose: () => view.dispose(),
  };
}
