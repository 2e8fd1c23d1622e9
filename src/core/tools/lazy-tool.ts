// A family of tools registered by what the policy needs (name, group, capability, owner-only) and
// built on first use: the first call to read_file must not pay for building every other tool (their
// zod schemas, descriptions, and the modules behind them, which a bundle evaluates only when the
// loader's require() runs). Anything else read from a member (its description or schema for a
// provider's list, execute for a call) builds the whole family once, through the one factory the
// family always had, so a lazy tool is the same tool as the eager one.
import type { Capability, Tool } from './types';

/** What the registry and the policy read from a tool without building it. */
export interface ToolStub {
  readonly name: string;
  readonly group: string;
  readonly capability: Capability;
  readonly ownerOnly?: boolean;
}

/**
 * The Tool fields a stub does not hold: reading one builds the family. A lazy tool is never an MCP
 * server's (mcpServer stays absent, which the policy reads at registration).
 */
const BUILT_FIELDS = ['description', 'parameters', 'timeoutMs', 'poll', 'interactive', 'deferred', 'execute'] as const;

/**
 * One Tool per stub, in the stubs' order; `build` runs at most once, when a member is first used, and
 * must return a tool for every stub with the stub's group, capability and owner-only flag (checked
 * then: a stub that drifted from its tool is an error the first use reports, and the toolset's test
 * builds every family).
 */
export function lazyTools(stubs: readonly ToolStub[], build: () => readonly Tool[]): Tool[] {
  let built: ReadonlyMap<string, Tool> | undefined;
  const isBuilt = () => built !== undefined;
  const real = (name: string): Tool => {
    built ??= checked(stubs, build());
    return built.get(name)!;
  };
  return stubs.map((stub) => {
    const tool: Record<string, unknown> = { name: stub.name, group: stub.group, capability: stub.capability };
    if (stub.ownerOnly) tool.ownerOnly = true;
    for (const field of BUILT_FIELDS) {
      Object.defineProperty(tool, field, {
        enumerable: true,
        get: () => {
          const value = (real(stub.name) as unknown as Record<string, unknown>)[field];
          return typeof value === 'function' ? value.bind(real(stub.name)) : value;
        },
      });
    }
    buildState.set(tool, isBuilt);
    return tool as unknown as Tool;
  });
}

const buildState = new WeakMap<object, () => boolean>();

/** Whether a lazy tool's family has been built (undefined: not a lazy tool). Tests and diagnostics read it. */
export function lazyToolBuilt(tool: Tool): boolean | undefined {
  return buildState.get(tool)?.();
}

function checked(stubs: readonly ToolStub[], tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const s of stubs) {
    const t = byName.get(s.name);
    const drift = !t ? 'is not built by its factory'
      : t.group !== s.group ? `is in group ${t.group}, its stub says ${s.group}`
        : t.capability !== s.capability ? `is ${t.capability}, its stub says ${s.capability}`
          : !!t.ownerOnly !== !!s.ownerOnly ? `is ${t.ownerOnly ? '' : 'not '}owner-only, its stub disagrees`
            : t.mcpServer !== undefined ? 'is an MCP server\'s tool, which is never built lazily' : undefined;
    if (drift) throw new Error(`Tool ${s.name} ${drift} (src/core/tool-stubs.ts).`);
  }
  return byName;
}
