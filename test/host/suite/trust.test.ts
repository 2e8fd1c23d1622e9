// Workspace trust: in Restricted Mode only read-only tools run. This suite runs in both harness
// modes (npm test runs it once more with --trust-workspace off) and asserts what each mode must do.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { z } from 'zod';
import type { PolicyDecision } from '../../../src/core/policy/policy-engine';
import type { ToolResult } from '../../../src/core/tools/types';
import { core } from './host-util';

suite('workspace trust', () => {
  test('mutating tools run only in a trusted workspace; read-only ones always', async () => {
    const pincer = await core();
    const rt = pincer.services.rt;
    let wrote = 0;
    if (!rt.registry.get('host_test_write')) {
      rt.registry.register({
        name: 'host_test_write', group: 'fs', capability: 'mutating', description: 'Test tool that pretends to write.',
        parameters: z.object({}), execute: async () => ({ forLLM: `wrote ${++wrote}`, isError: false }),
      });
    }
    const trusted = vscode.workspace.isTrusted;
    assert.strictEqual(trusted, process.env.HOST_TRUST_WORKSPACE !== 'off', 'the harness mode and the window agree');
    const d = await vscode.commands.executeCommand<PolicyDecision>('pincer.showEffectiveTools', { show: false });
    const write = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'host_test_write', {}, { show: false });
    const read = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'session_status', {}, { show: false });
    assert.strictEqual(read.isError, false);
    if (trusted) {
      assert.ok(d.allowed.includes('host_test_write'));
      assert.strictEqual(write.forLLM, 'wrote 1');
    } else {
      assert.ok(d.removed.some((r) => r.tool === 'host_test_write' && r.step === 'workspace trust'));
      assert.match(write.forLLM, /not allowed by policy here \(workspace trust: the workspace is not trusted/);
      assert.strictEqual(wrote, 0, 'the tool never ran');
      assert.match(read.forLLM, /not trusted: read-only tools only/);
      assert.ok(!pincer.sidebar.state().trusted);
    }
    rt.registry.unregister('host_test_write');
  });
});
