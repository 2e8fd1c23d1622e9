// "Pincer: Run Tool…": pick a tool this window may use, fill its arguments from its schema, run it
// through the one pipeline with progress and cancel, and show the result rendered (the raw text the
// model would get is one click away).
// Tests and other extensions may pass (name, args) to skip the prompts; the result is returned.
import * as vscode from 'vscode';
import type { ToolResult } from '../../core/tools/types';
import { hostContext, personCall, type HostServices } from '../services';
import { promptArguments } from './args-prompt';

export interface RunToolOptions {
  /** Open the result documents (default true); tests turn it off. */
  show?: boolean;
}

export async function runToolCommand(s: HostServices, name?: string, args?: unknown, opts: RunToolOptions = {}): Promise<ToolResult | undefined> {
  const { rt } = s;
  if (!name) {
    const ctx = rt.personContext(hostContext(rt, 'palette', new AbortController().signal));
    const allowed = rt.effectiveTools(rt.registry.policyRequest(ctx)).allowed;
    const items = allowed.map((n) => rt.registry.get(n)!).map((t) => ({
      label: t.name, description: `${t.group} · ${t.capability}`, detail: t.description.split(/(?<=\.)\s/)[0],
    }));
    if (!items.length) {
      void vscode.window.showWarningMessage('Pincer: no tools are allowed here. Check the allow and deny lists in pincer.tools, or run "Pincer: Show Effective Tools".');
      return undefined;
    }
    // Kept open when focus moves: the previous run's terminal or result preview can take focus a
    // moment after this picker opened, and the picker must not vanish under the person's typing.
    const pick = await vscode.window.showQuickPick(items, { title: 'Pincer: Run Tool', placeHolder: 'Pick a tool to run', matchOnDetail: true, ignoreFocusOut: true });
    if (!pick) return undefined;
    name = pick.label;
  }
  const tool = rt.registry.resolve(name)?.tool;
  if (args === undefined && tool) {
    args = await promptArguments(tool, rt.registry.jsonSchema(tool));
    if (args === undefined) return undefined;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Pincer: running ${name}…`, cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort(new Error('cancelled by the user')));
      return personCall(rt, name!, args, controller.signal);
    },
  );
  if (opts.show !== false) void showResult(s, name, result);
  return result;
}

async function showResult(s: HostServices, name: string, result: ToolResult): Promise<void> {
  const userText = result.forUser ?? result.forLLM;
  const header = `# ${name} — ${result.isError ? 'failed' : 'result'}\n\n`;
  const uri = s.docs.put(name, 'md', header + userText + '\n');
  const llmUri = s.docs.put(`${name}-for-model`, 'txt', result.forLLM);
  await s.docs.preview(uri);
  const show = 'Show What the Model Sees';
  const pick = result.isError
    ? await vscode.window.showErrorMessage(`Pincer: ${name} failed: ${result.forLLM.split('\n', 1)[0].slice(0, 200)}`, show, 'Show Tool Log')
    : await vscode.window.showInformationMessage(`Pincer: ${name} finished.`, show);
  if (pick === show) await s.docs.open(llmUri, true);
  else if (pick === 'Show Tool Log') s.log.channel.show(true);
}
