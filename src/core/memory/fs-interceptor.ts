// The interceptors in front of the file tools (GoClaw's ContextFileInterceptor and
// MemoryInterceptor): a read_file, write_file, edit or list_files call whose path is one of
// Pincer's routed files is served from Pincer's store, for the calling agent and the current user;
// every other call goes to the original tool unchanged.
//
// Decisions:
// - The routed calls run the same tool code (createReadFileTool, …) against FsToolDeps over the
//   store (routed-fs-deps.ts), built once per agent, user and root. Tool names, schemas and
//   descriptions stay exactly as they were.
// - apply_patch is intercepted too, though the issue names only four tools: left alone, it would
//   write SOUL.md to the disk and undo the routing. A patch touching only routed files runs against
//   the store; one mixing routed and disk files is refused (it could not be applied atomically).
// - Results say where the file lives and at which level, added here, not in the tools. When a file
//   or folder of a routed name also exists on disk at the root, the first read of it for an agent
//   and user says so and names the setting that leaves it on disk.
// - list_files of the root is the real listing plus a section naming the routed files that exist.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { createApplyPatchTool } from '../fs/tools/apply-patch';
import { createEditTool } from '../fs/tools/edit';
import { createListFilesTool } from '../fs/tools/list-files';
import { createReadFileTool } from '../fs/tools/read-file';
import { createWriteFileTool } from '../fs/tools/write-file';
import { parsePatch } from '../fs/patch-parse';
import { fail, type Tool, type ToolContext, type ToolResult } from '../tools/types';
import { rootSection, writeNote } from './fs-interceptor-notes';
import type { RoutedFiles } from './routed-files';
import { routedFsDeps, type WriteOutcome } from './routed-fs-deps';
import { locateInput } from './routed-input';
import { onDiskToo, whereNote } from './routed-messages';
import { MEMORY_DIR } from './routed-paths';
import type { Scope } from './types';

export interface FsInterceptorDeps {
  /**
   * The routing service, or a function that opens it on first use (undefined when Pincer has no
   * store, e.g. no workspace storage: routed paths are then refused, never sent to the disk).
   */
  routed: RoutedFiles | (() => Promise<RoutedFiles | undefined>);
  /** The VS Code user (pincer.user, else the OS user name). */
  userId: () => string;
  /** Workspace roots; routed files live at the first. */
  roots: () => readonly string[];
  /** pincer.contextFiles.routed (default: all seven). */
  routedNames?: () => readonly string[];
  /** Whether a path exists on disk (default: node's lstat). */
  diskExists?: (abs: string) => Promise<boolean>;
  /** pincer.tools.maxResultChars, for read_file's paging of routed files. */
  maxResultChars?: number;
}

export const INTERCEPTED_TOOLS = ['read_file', 'write_file', 'edit', 'list_files', 'apply_patch'] as const;
type Intercepted = (typeof INTERCEPTED_TOOLS)[number];

interface Virtual {
  routed: RoutedFiles;
  tools: Record<Intercepted, Tool>;
  outcomes: Map<string, WriteOutcome>;
}

/** Enough scopes for every agent and user of a window; the oldest is rebuilt if needed. */
const MAX_SCOPES = 32;

async function lstatExists(abs: string): Promise<boolean> {
  return fsp.lstat(abs).then(() => true, () => false);
}

function withNote(r: ToolResult, note: string, details: Record<string, unknown>): ToolResult {
  const sep = r.forLLM.endsWith('\n') ? '' : '\n';
  return { ...r, forLLM: note ? `${r.forLLM}${sep}[${note}]` : r.forLLM, details: { ...r.details, routed: details } };
}

function unavailable(what: string): ToolResult {
  return fail(`${what}: Pincer's store for context files and memory is not available in this window (no workspace storage), so it cannot be read or changed here. ` +
    'Nothing was read from or written to the disk instead.', { details: { routed: { unavailable: true } } });
}

class Interceptor {
  private readonly virtual = new Map<string, Virtual>();
  private readonly noted = new Set<string>();

  constructor(private readonly deps: FsInterceptorDeps) {}

  async run(original: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const roots = this.deps.roots();
    if (!roots.length) return original.execute(args, ctx);
    // Asked only where a call is routed: finding the user costs ~0.3 ms on a process's first call
    // (os.userInfo), which an ordinary read of a workspace file should not pay.
    const scopeOf = (): Scope => ({ agentId: ctx.agentId, userId: this.deps.userId() });
    const name = original.name as Intercepted;
    if (name === 'apply_patch') return this.patch(original, args, ctx, scopeOf(), roots);
    const at = locateInput(args.path ?? (name === 'list_files' ? '.' : undefined), roots, this.names());
    if (name === 'list_files' && at.root) return this.listRoot(original, args, ctx, scopeOf());
    if (!at.route) return original.execute(args, ctx);
    const who = scopeOf();
    const route = at.route;
    const routed = await this.service();
    if (!routed) return unavailable(route.path);
    const v = this.scope(routed, who, roots[0]!);
    v.outcomes.delete(route.path);
    const result = await v.tools[name].execute(args, ctx);
    const agent = routed.agent(who.agentId);
    const facts = { kind: route.kind, path: route.path, agentId: who.agentId, userId: who.userId };
    if (name === 'write_file' || name === 'edit') {
      const outcome = v.outcomes.get(route.path);
      v.outcomes.delete(route.path);
      if (result.isError || !outcome) return withNote(result, result.isError ? '' : whereNote(route, agent, undefined), facts);
      return withNote(result, writeNote(route, agent, outcome), { ...facts, ...outcome });
    }
    const found = result.isError ? undefined : await routed.read(who, route.path).catch(() => undefined);
    const notes = [whereNote(route, agent, found?.level)];
    const disk = await this.diskNote(who, roots[0]!, route);
    if (disk) notes.push(disk);
    return withNote(result, result.isError && !disk ? '' : notes.join(' '), { ...facts, ...(found ? { level: found.level } : {}) });
  }

  private async service(): Promise<RoutedFiles | undefined> {
    const r = this.deps.routed;
    return typeof r === 'function' ? r() : r;
  }

  private names(): readonly string[] | undefined {
    return this.deps.routedNames?.();
  }

  /** The virtual tools for one agent, user and root, built on first use. */
  private scope(routed: RoutedFiles, who: Scope, root: string): Virtual {
    const key = JSON.stringify([who.agentId, who.userId, root]);
    let v = this.virtual.get(key);
    if (v && v.routed === routed) {
      this.virtual.delete(key);
      this.virtual.set(key, v);
      return v;
    }
    const outcomes = new Map<string, WriteOutcome>();
    const deps = routedFsDeps({
      routed, who, root, outcomes,
      locate: (input) => locateInput(input, this.deps.roots(), this.names()).route,
      routedNames: () => this.names(),
    });
    v = {
      routed,
      outcomes,
      tools: {
        read_file: createReadFileTool(deps, { maxResultChars: this.deps.maxResultChars }),
        write_file: createWriteFileTool(deps),
        edit: createEditTool(deps),
        list_files: createListFilesTool(deps),
        apply_patch: createApplyPatchTool(deps),
      },
    };
    this.virtual.delete(key);
    this.virtual.set(key, v);
    if (this.virtual.size > MAX_SCOPES) this.virtual.delete(this.virtual.keys().next().value!);
    return v;
  }

  /** Once per agent, user and path: a disk file of the same name exists and is not what the tools use. */
  private async diskNote(who: Scope, root: string, route: { kind: 'context' | 'memory'; path: string }): Promise<string | undefined> {
    // memory/a.md is shadowed by a disk folder named memory; MEMORY.md and SOUL.md by files.
    const top = route.path.split('/')[0]!;
    const key = JSON.stringify([who.agentId, who.userId, top]);
    if (this.noted.has(key)) return undefined;
    const exists = await (this.deps.diskExists ?? lstatExists)(path.join(root, top));
    if (!exists) return undefined;
    this.noted.add(key);
    return onDiskToo({ kind: route.kind, path: top }, top === MEMORY_DIR);
  }

  private async listRoot(original: Tool, args: Record<string, unknown>, ctx: ToolContext, who: Scope): Promise<ToolResult> {
    const real = await original.execute(args, ctx);
    if (real.isError) return real;
    const routed = await this.service();
    const entries = routed ? await routed.list(who, '').catch(() => []) : [];
    if (!routed || !entries.length) return real;
    const onDisk = new Set(((real.details?.entries ?? []) as { name: string }[]).map((e) => e.name));
    const section = rootSection(entries, routed.agent(who.agentId), onDisk);
    return { ...real, forLLM: `${real.forLLM}\n${section}`, details: { ...real.details, routed: entries } };
  }

  private async patch(original: Tool, args: Record<string, unknown>, ctx: ToolContext, who: Scope, roots: readonly string[]): Promise<ToolResult> {
    const parsed = typeof args.input === 'string' ? parsePatch(args.input) : undefined;
    if (!parsed?.ok) return original.execute(args, ctx);
    const paths = parsed.ops.flatMap((op) => (op.kind === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]));
    const routes = paths.map((p) => locateInput(p, roots, this.names()).route);
    const routed = routes.filter((r) => r !== undefined);
    if (!routed.length) return original.execute(args, ctx);
    const service = await this.service();
    if (!service) return unavailable(routed.map((r) => r.path).join(', '));
    const agent = service.agent(who.agentId);
    if (routed.length < paths.length) {
      const names = [...new Set(routed.map((r) => r.path))].join(', ');
      return fail(`This patch mixes Pincer's own files (${names}, kept in Pincer's store for agent "${agent.id}", not on disk) with files on disk, ` +
        'so it cannot be applied as one change. Send one apply_patch (or edit/write_file) for those files and another for the rest. No files were modified.',
      { details: { routed: routed.map((r) => r.path) } });
    }
    const result = await this.scope(service, who, roots[0]!).tools.apply_patch.execute(args, ctx);
    const list = [...new Set(routed.map((r) => r.path))].join(', ');
    return withNote(result, `${list}: kept in Pincer's store for agent "${agent.id}", not on disk.`, { paths: routed.map((r) => r.path), agentId: who.agentId, userId: who.userId });
  }
}

/**
 * The tool list with read_file, write_file, edit, list_files and apply_patch wrapped so calls on
 * routed files (context files, memory) are served from Pincer's store; other tools untouched.
 */
export function interceptFsTools(tools: Tool[], deps: FsInterceptorDeps): Tool[] {
  const interceptor = new Interceptor(deps);
  return tools.map((t) => {
    if (!(INTERCEPTED_TOOLS as readonly string[]).includes(t.name)) return t;
    const wrapped: Tool = { ...t, execute: (args, ctx) => interceptor.run(t, args as Record<string, unknown>, ctx) };
    return wrapped;
  });
}
