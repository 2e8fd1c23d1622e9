// Puts memory into the window: the agents' tool policies, the Memory view and the memory commands
// (the memory tools and the file tools' routing are in the toolset, over MemoryHost's services).
import * as vscode from 'vscode';
import { withAgentPolicies } from '../../core/agents/agent-policy';
import type { PincerConfig } from '../../core/config';
import {
  addMemoryToExplorerCommand, openContextFileCommand, reindexMemoryCommand, searchMemoryCommand, setEmbeddingsKeyCommand,
} from './memory-commands';
import type { MemoryHost } from './memory-host';
import { exportMemoryCommand, importMemoryCommand, type OnConflict } from './memory-transfer';
import { MemoryView } from './memory-view';
import { restoreRevisionCommand } from './memory-revisions';
import type { ResultDocuments } from '../result-documents';

export interface MemoryRegistration extends vscode.Disposable {
  withAgents(config: PincerConfig): PincerConfig;
  commands(context: vscode.ExtensionContext, docs: ResultDocuments): Record<string, (...args: never[]) => unknown>;
  view: MemoryView;
}

export function registerMemory(host: MemoryHost): MemoryRegistration {
  void host.agents.ready();
  const view = new MemoryView(host);
  return {
    view,
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
