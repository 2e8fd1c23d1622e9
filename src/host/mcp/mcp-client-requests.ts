// The person's side of a server's requests, in VS Code: an elicitation field as an input box (text,
// numbers, checked as typed) or a quick pick (yes/no, one choice, several), Escape cancelling the
// whole request; a sampling request as a modal showing what the server wants the chat model to
// answer (Allow Once / Always Allow for that server / Deny); and the tools a person allowed always.
import * as vscode from 'vscode';
import type { McpAlwaysAllowed } from '../../core/mcp/destructive-ask';
import type { ElicitationAsker, ElicitField, FieldAnswer } from '../../core/mcp/elicitation';
import type { SamplingAnswer } from '../../core/mcp/sampling';

export const elicitationAsker: ElicitationAsker = {
  async ask(server, message, field, check): Promise<FieldAnswer> {
    const title = `MCP server "${server}": ${message}`;
    const placeHolder = [field.title, field.description].filter(Boolean).join(' — ');
    if (field.options) return pick(title, placeHolder, field);
    return vscode.window.showInputBox({
      title, prompt: placeHolder + (field.required ? '' : ' (optional)'), ignoreFocusOut: true,
      ...(field.default === undefined ? {} : { value: String(field.default) }),
      validateInput: (text) => check(text),
    });
  },
};

async function pick(title: string, placeHolder: string, field: ElicitField): Promise<FieldAnswer> {
  const defaults = new Set((Array.isArray(field.default) ? field.default : field.default === undefined ? [] : [String(field.default)]).map(String));
  const items = field.options!.map((o) => ({ label: o.label, description: o.label === o.value ? undefined : o.value, value: o.value, picked: defaults.has(o.value) }));
  if (field.kind === 'choices') {
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder, canPickMany: true, ignoreFocusOut: true });
    return picked?.map((p) => p.value);
  }
  // An optional choice may be left out: an explicit item for it, so Escape still means cancel.
  const skip = { label: '(leave empty)', description: undefined, value: '', picked: false };
  const chosen = await vscode.window.showQuickPick(field.required ? items : [...items, skip], { title, placeHolder, ignoreFocusOut: true });
  return chosen?.value;
}

const ONCE: vscode.MessageItem = { title: 'Allow Once' };
const ALWAYS: vscode.MessageItem = { title: 'Always Allow This Server' };
const DENY: vscode.MessageItem = { title: 'Deny', isCloseAffordance: true };

export async function askSampling(server: string, shown: string): Promise<SamplingAnswer> {
  const choice = await vscode.window.showWarningMessage(
    `Let the MCP server "${server}" use your chat model?`, { modal: true, detail: shown }, DENY, ONCE, ALWAYS,
  );
  return choice === ONCE ? 'once' : choice === ALWAYS ? 'always' : 'deny';
}

/** A set of names kept in the workspace state under `key`. */
export function workspaceSet(memento: vscode.Memento, key: string): { has(name: string): boolean; add(name: string): void } {
  const read = () => memento.get<string[]>(key, []);
  return {
    has: (name) => read().includes(name),
    add: (name) => void memento.update(key, [...new Set([...read(), name])]),
  };
}

/** "Always allow" for destructive tools, per workspace. */
export function alwaysAllowedTools(memento: vscode.Memento): McpAlwaysAllowed {
  const set = workspaceSet(memento, 'pincer.mcp.alwaysAllowedTools');
  return { has: (server, tool) => set.has(`${server}/${tool}`), add: (server, tool) => set.add(`${server}/${tool}`) };
}
