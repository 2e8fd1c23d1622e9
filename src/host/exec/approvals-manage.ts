// Pincer: Manage Command Approvals — the workspace's "Always allow" rules (edit the argument pattern,
// revoke) and, read-only, the allowlist from user settings (a button opens the setting).
import * as path from 'path';
import * as vscode from 'vscode';
import { validateRule } from '../../core/exec/judge-lazy';
import type { AllowlistEntry } from '../../core/exec/command-policy';
import type { ApprovalStore, StoredApproval } from '../../core/exec/exec-types';

type Item = vscode.QuickPickItem & { approval?: StoredApproval; setting?: AllowlistEntry };

const EDIT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Edit the argument pattern' };
const REVOKE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Revoke' };
const SETTINGS: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('gear'), tooltip: 'Open the pincer.exec.allowlist setting' };

export async function manageApprovalsCommand(store: ApprovalStore, settingsAllowlist: () => AllowlistEntry[]): Promise<void> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Command Approvals (this workspace)';
  qp.placeholder = 'Commands that run without asking. Use the buttons to edit or revoke.';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const refresh = async () => {
    qp.busy = true;
    qp.items = items(await store.list(), settingsAllowlist());
    qp.busy = false;
  };
  qp.onDidTriggerItemButton(async ({ item, button }) => {
    if (button === SETTINGS) return void vscode.commands.executeCommand('workbench.action.openSettings', 'pincer.exec.allowlist');
    if (!item.approval) return;
    if (button === REVOKE) {
      await store.remove(item.approval.id);
      await refresh();
    } else if (button === EDIT) {
      qp.hide();
      await editApproval(store, item.approval);
      await manageApprovalsCommand(store, settingsAllowlist);
    }
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    if (!item?.approval) return;
    qp.hide();
    await editApproval(store, item.approval);
    await manageApprovalsCommand(store, settingsAllowlist);
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
  await refresh();
}

function items(stored: StoredApproval[], settings: AllowlistEntry[]): Item[] {
  const out: Item[] = [];
  out.push({ label: 'Always allowed in this workspace', kind: vscode.QuickPickItemKind.Separator });
  if (!stored.length) out.push({ label: '$(info) None yet', description: 'Answer "Always Allow" to an approval prompt to add one.' });
  for (const a of stored) {
    out.push({
      label: `${path.basename(a.executable)} ${argsLabel(a.args)}`,
      description: a.executable,
      detail: `first approved for: ${a.example} · ${when(a.createdAt)}${a.lastUsedAt ? ` · last used ${when(a.lastUsedAt)}` : ''}`,
      buttons: [EDIT, REVOKE],
      approval: a,
    });
  }
  if (settings.length) {
    out.push({ label: 'From your settings (pincer.exec.allowlist)', kind: vscode.QuickPickItemKind.Separator });
    for (const s of settings) out.push({ label: `${path.basename(s.executable)} ${argsLabel(s.args)}`, description: s.executable, buttons: [SETTINGS], setting: s });
  }
  return out;
}

async function editApproval(store: ApprovalStore, a: StoredApproval): Promise<void> {
  // What is typed is the pattern itself: empty means "no arguments", `*` any (never for interpreters
  // and package managers) — so leaving the field as it was never widens a rule.
  const args = await vscode.window.showInputBox({
    title: `Arguments allowed for ${a.executable}`,
    prompt: 'A glob over the arguments joined by spaces: * any run, ? one character, \\* a literal star. Empty: no arguments at all.',
    value: a.args ?? '*',
    validateInput: (v) => validateRule({ executable: a.executable, args: v }),
  });
  if (args === undefined || args === (a.args ?? '*')) return;
  try {
    await store.update(a.id, args);
  } catch (e) {
    void vscode.window.showErrorMessage(`Pincer: ${(e as Error).message}`);
  }
}

function argsLabel(args: string | undefined): string {
  return args === undefined ? '(any arguments)' : args === '' ? '(no arguments)' : args;
}

function when(ms: number): string {
  return new Date(ms).toLocaleString();
}
