// Real Tool objects for tests of the policy and the pipeline: each does a small real thing (echo,
// sleep, throw) so tests observe the pipeline, not a mock of it.
import { z } from 'zod';
import { defineTool, ok, type Capability, type Tool, type ToolContext } from '../../src/core/tools/types';
import { readConfig, type PincerConfig } from '../../src/core/config';
import { PincerRuntime } from '../../src/core/runtime';
import type { Clock } from '../../src/core/clock';

export function stubTool(name: string, group: string, capability: Capability, extra: Partial<Tool> = {}): Tool {
  return defineTool({
    name, group, capability, description: `${name} for tests.`,
    parameters: z.object({}).loose(),
    async execute(args) {
      return ok(`${name} ran with ${JSON.stringify(args)}`);
    },
    ...extra,
  }) as Tool;
}

/** A tool set shaped like Pincer's real one, across groups, capabilities and MCP servers. */
export function policyTools(): Tool[] {
  return [
    stubTool('read_file', 'fs', 'read-only'),
    stubTool('write_file', 'fs', 'mutating'),
    stubTool('exec', 'runtime', 'external'),
    stubTool('memory_search', 'memory', 'read-only'),
    stubTool('spawn', 'sessions', 'external'),
    stubTool('sessions_list', 'sessions', 'read-only'),
    stubTool('session_status', 'sessions', 'read-only'),
    stubTool('cron', 'automation', 'mutating', { ownerOnly: true }),
    stubTool('datetime', 'automation', 'read-only'),
    stubTool('message', 'messaging', 'external'),
    stubTool('web_fetch', 'web', 'external'),
    stubTool('mcp_github__search', 'mcp', 'external', { mcpServer: 'github' }),
    stubTool('mcp_jira__get', 'mcp', 'external', { mcpServer: 'jira' }),
  ];
}

export const echoTool = defineTool({
  name: 'echo', group: 'fs', capability: 'read-only', description: 'Echoes text back.',
  parameters: z.object({ text: z.string().describe('What to echo.'), times: z.number().int().min(1).max(5).optional() }).strict(),
  async execute(args) {
    return ok(args.text.repeat(args.times ?? 1), { forUser: `**${args.text}**` });
  },
});

/** Sleeps `ms`, honouring the abort signal unless `ignoreAbort` is set. */
export const sleepTool = defineTool({
  name: 'sleep', group: 'fs', capability: 'read-only', description: 'Sleeps.',
  parameters: z.object({ ms: z.number().min(0), ignoreAbort: z.boolean().optional(), tag: z.string().optional() }),
  async execute(args, ctx: ToolContext) {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, args.ms);
      if (!args.ignoreAbort) ctx.signal.addEventListener('abort', () => { clearTimeout(t); reject(ctx.signal.reason); }, { once: true });
    });
    return ok(`slept ${args.ms} ${args.tag ?? ''}`.trim());
  },
});

export function configWith(settings: Record<string, unknown> = {}): PincerConfig {
  return readConfig((k) => settings[k]);
}

export function runtimeWith(settings: Record<string, unknown> = {}, tools: Tool[] = [], clock?: Clock, warnings: string[] = []): PincerRuntime {
  const rt = new PincerRuntime({ config: configWith({ 'tools.profile': 'full', ...settings }), clock, warn: (m) => warnings.push(m) });
  for (const t of tools) rt.registry.register(t);
  return rt;
}
