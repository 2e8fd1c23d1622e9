// Credentials for credentialed_exec live in SecretStorage, one secret per binary and variable
// (`pincer.credential.gh.GH_TOKEN`), never in settings. Every value in use is registered with the
// scrubber, so no result, log line or error can carry it.
import * as vscode from 'vscode';
import type { CredentialedBinary } from '../../core/exec/credentialed-config';

const key = (binary: string, envName: string) => `pincer.credential.${binary}.${envName}`;

export class CredentialSecrets {
  constructor(private readonly secrets: vscode.SecretStorage, private readonly scrubber: { register(v: string): void }) {}

  async get(binary: string, envName: string): Promise<string | undefined> {
    const v = (await this.secrets.get(key(binary, envName))) || undefined;
    if (v) this.scrubber.register(v);
    return v;
  }

  async set(binary: string, envName: string, value: string | undefined): Promise<void> {
    if (value) {
      this.scrubber.register(value);
      await this.secrets.store(key(binary, envName), value);
    } else {
      await this.secrets.delete(key(binary, envName));
    }
  }
}

/** Pincer: Set Credential… — pick the program and the variable, then type the value (hidden). */
export async function setCredentialCommand(secrets: CredentialSecrets, binaries: CredentialedBinary[], pre?: { binary: string; envName: string; value: string }): Promise<boolean> {
  if (pre) {
    await secrets.set(pre.binary, pre.envName, pre.value || undefined);
    return true;
  }
  const names = (b: CredentialedBinary) => [...b.env, ...(b.optionalEnv ?? [])];
  const withEnv = binaries.filter((b) => names(b).length);
  if (!withEnv.length) {
    void vscode.window.showInformationMessage('Pincer: no program for credentialed_exec takes credentials; add one in pincer.exec.credentialed.');
    return false;
  }
  const bin = await vscode.window.showQuickPick(withEnv.map((b) => ({ label: b.name, description: names(b).join(', '), detail: b.description, b })), {
    title: 'Set Credential: which program?', placeHolder: 'credentialed_exec runs it with the credential as an environment variable',
  });
  if (!bin) return false;
  const all = names(bin.b);
  const envName = all.length === 1 ? all[0] : (await vscode.window.showQuickPick(all.map((n) => ({ label: n, description: bin.b.env.includes(n) ? 'required' : 'optional' })), { title: `Set Credential: which variable for ${bin.b.name}?` }))?.label;
  if (!envName) return false;
  const value = await vscode.window.showInputBox({
    title: `${envName} for ${bin.b.name}`, password: true, ignoreFocusOut: true,
    prompt: 'Kept in VS Code\'s secret storage and scrubbed from every result. Leave empty to remove it.',
  });
  if (value === undefined) return false;
  await secrets.set(bin.b.name, envName, value || undefined);
  void vscode.window.showInformationMessage(value ? `Pincer: ${envName} for ${bin.b.name} is set.` : `Pincer: ${envName} for ${bin.b.name} is removed.`);
  return true;
}
