// The file tools' WorkspaceFs in a real window (src/host/vscode-fs.ts): a local path is read from the
// disk directly, without vscode.workspace.fs's round trip to the window, and must answer exactly as
// vscode.workspace.fs does — the same bytes, the same stat, and for what it cannot read (a folder, a
// missing file) VS Code's own error; a symbolic link is VS Code's answer too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { VscodeWorkspaceFs } from '../../../src/host/vscode-fs';

/** What vscode.workspace.fs says of a path, in the port's terms (undefined: not found). */
async function vscodeStat(abs: string): Promise<{ type: string; size: number; mtime: number } | undefined> {
  try {
    const s = await vscode.workspace.fs.stat(vscode.Uri.file(abs));
    const type = s.type & vscode.FileType.SymbolicLink ? 'symlink' : s.type & vscode.FileType.Directory ? 'directory' : s.type & vscode.FileType.File ? 'file' : 'other';
    return { type, size: s.size, mtime: s.mtime };
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
    throw e;
  }
}

/** The error code a read ends with (undefined: it succeeded). */
async function readError(read: () => Thenable<unknown>): Promise<string | undefined> {
  try {
    await read();
    return undefined;
  } catch (e) {
    return e instanceof vscode.FileSystemError ? e.code : `not a FileSystemError: ${String(e)}`;
  }
}

suite('workspace fs', () => {
  let dir: string;
  setup(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-wsfs-'));
  });
  teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a local file, folder, missing path and symbolic link read as vscode.workspace.fs reads them', async () => {
    const file = path.join(dir, 'notes — ünïcode.txt');
    fs.writeFileSync(file, 'first line\nsecond line — with a dash\n');
    const folder = path.join(dir, 'sub');
    fs.mkdirSync(folder);
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync(file, link);
    const missing = path.join(dir, 'missing.txt');
    const port = new VscodeWorkspaceFs();

    assert.deepStrictEqual(Buffer.from(await port.readFile(file)), Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(file))));
    assert.deepStrictEqual(Buffer.from(await port.readFile(link)), Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(link))));
    for (const p of [file, folder, link, missing]) assert.deepStrictEqual(await port.stat(p), await vscodeStat(p), p);
    assert.strictEqual((await port.stat(link))?.type, 'symlink');

    // What cannot be read fails with VS Code's own error, as before.
    for (const p of [folder, missing]) {
      const expected = await readError(() => vscode.workspace.fs.readFile(vscode.Uri.file(p)));
      assert.ok(expected, `vscode.workspace.fs refuses ${p}`);
      assert.strictEqual(await readError(() => port.readFile(p)), expected, p);
    }
  });
});
