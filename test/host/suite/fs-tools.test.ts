// The file tools in a real window: reads and listings through vscode.workspace.fs, grep through the
// ripgrep inside VS Code, and the path guard's refusals, with settings applied without a reload.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { waitFor } from './host-util';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const run = (tool: string, args: unknown) =>
  vscode.commands.executeCommand<ToolResult>('pincer.runTool', tool, args, { show: false }) as Promise<ToolResult>;

suite('file tools', () => {
  teardown(async () => {
    await vscode.workspace.getConfiguration('pincer.fs').update('denyPaths', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('read_file numbers the lines of a workspace file', async () => {
    const r = await run('read_file', { path: 'src/util/slugify.ts', limit: 3 });
    assert.strictEqual(r.isError, false, r.forLLM);
    const first = fs.readFileSync(path.join(root(), 'src/util/slugify.ts'), 'utf8').split('\n')[0];
    assert.ok(r.forLLM.includes(`1\t${first}`), r.forLLM);
    assert.match(r.forLLM, /offset=4/);
  });

  test('list_files and glob see the workspace; grep runs the ripgrep inside VS Code', async () => {
    const list = await run('list_files', { path: '.' });
    assert.match(list.forLLM, /src\//);
    const glob = await run('glob', { pattern: '**/*.ts' });
    assert.match(glob.forLLM, /src\/util\/slugify\.ts/);
    const grep = await run('grep', { pattern: 'export function slugify', path: 'src' });
    assert.strictEqual(grep.isError, false, grep.forLLM);
    assert.match(grep.forLLM, /slugify\.ts/);
    assert.strictEqual(grep.details?.engine, 'ripgrep', 'VS Code ships ripgrep under its appRoot');
  });

  test('paths outside the workspace, .git internals and configured deny paths are refused', async () => {
    const outside = await run('read_file', { path: '/etc/hostname' });
    assert.strictEqual(outside.isError, true);
    assert.match(outside.forLLM, /pincer\.fs\.allowPaths/);
    fs.mkdirSync(path.join(root(), '.git'), { recursive: true });
    fs.writeFileSync(path.join(root(), '.git', 'config'), '[core]\n');
    assert.match((await run('read_file', { path: '.git/config' })).forLLM, /pincer\.fs\.denyPaths/);
    fs.mkdirSync(path.join(root(), 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(root(), 'secrets', 'token.txt'), 'not for the model\n');
    assert.strictEqual((await run('read_file', { path: 'secrets/token.txt' })).isError, false);
    await vscode.workspace.getConfiguration('pincer.fs').update('denyPaths', ['**/.git/**', 'secrets/**'], vscode.ConfigurationTarget.Workspace);
    const denied = await waitFor('the new deny rule', async () => {
      const r = await run('read_file', { path: 'secrets/token.txt' });
      return r.isError ? r : undefined;
    });
    assert.match(denied.forLLM, /pincer\.fs\.denyPaths/);
    const listing = await run('list_files', { path: '.' });
    assert.ok(!/secrets/.test(listing.forLLM), 'denied folders are invisible');
  });
});
