// From settings and files to the servers to start: read every source (the person's settings first,
// so a repository cannot replace their servers; then the workspace's settings and files), decide for
// each whether it may start (trust.ts), ask where a person can be asked, answer its `${input:…}`
// prompts, expand its variables. Everything that keeps a server from starting is said, with the
// file and the reason; nothing here starts a process.
import fs from 'node:fs';
import { expandServer, inputIdsOf, McpConfigError, type ResolvedServer } from './config-expand';
import { mergeMcpConfigs, readServersObject, readWorkspaceMcpFiles, type McpConfigRead } from './config-read';
import type { McpInput, McpServerDefinition } from './server-definition';
import { decideStart, type TrustState } from './trust';

export interface McpSetupPorts {
  /** The primary workspace folder on a local disk; undefined: no workspace files are read. */
  workspaceFolder?: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `pincer.mcp.servers` from the person's own settings, and where that is (for messages). */
  userServers?: { value: unknown; file: string };
  /** `pincer.mcp.servers` from the workspace's settings. */
  workspaceServers?: { value: unknown; file: string };
  trust: TrustState;
  /** Asks the person whether to start this workspace-defined server; true: start. */
  ask?: (def: McpServerDefinition, launch: string) => Promise<boolean>;
  /** Keeps a yes for this workspace (until the definition changes). */
  remember?: (server: string, fingerprint: string) => void;
  /** The answer to an input prompt (stored or asked for); undefined: not given. */
  input: (input: McpInput) => Promise<string | undefined>;
  readFile?: (file: string) => string;
}

export interface McpPlan {
  start: ResolvedServer[];
  skipped: { server: string; file: string; reason: string }[];
  /** Config problems: `<file>: <field>: <what>`. */
  problems: string[];
}

export function readMcpDefinitions(p: Pick<McpSetupPorts, 'workspaceFolder' | 'userServers' | 'workspaceServers'>): McpConfigRead {
  const reads: McpConfigRead[] = [];
  if (p.userServers?.value !== undefined) reads.push(readServersObject(p.userServers.value, { file: p.userServers.file, workspace: false }, 'pincer.mcp.servers'));
  if (p.workspaceServers?.value !== undefined) reads.push(readServersObject(p.workspaceServers.value, { file: p.workspaceServers.file, workspace: true }, 'pincer.mcp.servers'));
  if (p.workspaceFolder) reads.push(...readWorkspaceMcpFiles(p.workspaceFolder));
  return mergeMcpConfigs(reads);
}

export async function planMcpServers(p: McpSetupPorts): Promise<McpPlan> {
  const read = readMcpDefinitions(p);
  const plan: McpPlan = { start: [], skipped: [], problems: [...read.problems] };
  const skip = (def: McpServerDefinition, reason: string) => plan.skipped.push({ server: def.name, file: def.source.file, reason });
  for (const def of read.servers) {
    const d = decideStart(def, p.trust);
    if (d.kind === 'skip') {
      skip(def, d.reason);
      continue;
    }
    if (d.kind === 'ask') {
      if (!p.ask || !(await p.ask(def, d.launch))) {
        skip(def, 'you did not allow it to start');
        continue;
      }
      p.remember?.(def.name, d.fingerprint);
    }
    const answers = new Map<string, string | undefined>();
    for (const id of inputIdsOf(def)) {
      const declared = read.inputs.find((i) => i.id === id) ?? { id, password: true };
      answers.set(id, await p.input(declared));
    }
    try {
      plan.start.push(expandServer(def, {
        workspaceFolder: p.workspaceFolder, home: p.home, env: p.env, input: (id) => answers.get(id),
        readFile: p.readFile ?? ((f) => fs.readFileSync(f, 'utf8')),
      }));
    } catch (e) {
      if (!(e instanceof McpConfigError)) throw e;
      skip(def, e.message);
    }
  }
  return plan;
}
