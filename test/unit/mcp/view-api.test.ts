// What the MCP Servers view reads from the manager, against server-everything over stdio: a change
// event when a server starts, changes state or stops; its kept output (stderr and connection notes);
// its resources and prompts.
import assert from 'node:assert/strict';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, stdioServer } from './mcp-servers';

describe('MCP manager: what the MCP Servers view reads', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => mcp?.dispose());

  it('fires a change on start and stop, keeps the output of the server, lists its resources and prompts', async () => {
    const rt = runtimeWith({});
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => ['/tmp'], clientVersion: 'test' });
    let changes = 0;
    mcp.onDidChange.on(() => changes++);
    const failures = await mcp.start([stdioServer('everything', EVERYTHING, { args: ['stdio'] })]);
    assert.deepEqual(failures, []);
    assert.ok(changes > 0, 'the view hears the start');
    const [status] = mcp.status();
    assert.equal(status.state, 'connected');
    assert.ok(status.tools.includes('mcp_everything__echo'));
    const output = mcp.output('everything');
    assert.ok(output.length > 0, 'stderr and notes are kept');
    const resources = await mcp.resources('everything');
    assert.ok(resources && resources.length > 0, 'server-everything lists resources');
    assert.ok(resources.every((r) => r.uri && r.name));
    assert.equal(await mcp.resources('nobody'), undefined);
    const prompts = await mcp.prompts('everything');
    const simple = prompts?.find((p) => p.name === 'simple-prompt');
    assert.ok(simple, `server-everything lists its prompts: ${prompts?.map((p) => p.name).join(', ')}`);
    assert.deepEqual(simple.arguments, []);
    const withArgs = prompts!.find((p) => p.arguments.length > 0);
    assert.ok(withArgs && withArgs.arguments.every((a) => a.name && typeof a.required === 'boolean'), 'arguments come with whether they are required');
    assert.equal(await mcp.prompts('nobody'), undefined);
    const before = changes;
    await mcp.stop('everything');
    assert.ok(changes > before, 'the view hears the stop');
    assert.deepEqual(mcp.output('everything'), []);
  });
});
