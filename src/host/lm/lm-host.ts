// VS Code's own agent calling Pincer's tools: the runtime side of the tools the activation shell
// registers with vscode.lm.registerTool (lm-register.ts). What the calls mean is core's
// (src/core/lm): this file only reads VS Code's settings, trust and tokens and wraps the results.
import * as os from 'os';
import * as vscode from 'vscode';
import type { ApprovalStore } from '../../core/exec/exec-types';
import type { PathResolver } from '../../core/fs/types';
import { callFromLm } from '../../core/lm/lm-call';
import { prepareLmCall } from '../../core/lm/lm-prepare';
import { LM_OFFERED_SETTING, offeredLmTools, pincerToolName } from '../../core/lm/lm-tools';
import type { PincerRuntime } from '../../core/runtime';

export interface LmHost {
  invoke(lmName: string, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
  prepare(lmName: string, input: unknown): Promise<vscode.PreparedToolInvocation>;
}

export interface LmHostDeps {
  rt: PincerRuntime;
  guard: () => PathResolver;
  approvals: ApprovalStore;
  workspaceRoot: () => string | undefined;
  warn: (m: string) => void;
}

export function createLmHost(deps: LmHostDeps): LmHost {
  const { rt } = deps;
  const offered = () => offeredLmTools(vscode.workspace.getConfiguration().get(LM_OFFERED_SETTING), deps.warn);
  return {
    async invoke(lmName, input, token) {
      const controller = new AbortController();
      const cancel = () => controller.abort(new Error('cancelled in VS Code'));
      // A token cancelled before the call reached us never fires its event.
      if (token.isCancellationRequested) cancel();
      const cancelled = token.onCancellationRequested(cancel);
      try {
        const r = await callFromLm({ rt, offered, workspaceRoot: deps.workspaceRoot, trusted: () => vscode.workspace.isTrusted }, lmName, input, controller.signal);
        // A result's images (read_image, a screenshot) go as image data parts: VS Code's agent shows
        // them to a model that reads images.
        const images = (r.images ?? []).map((i) => vscode.LanguageModelDataPart.image(Buffer.from(i.data, 'base64'), i.mimeType));
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(r.forLLM), ...images]);
      } finally {
        cancelled.dispose();
      }
    },
    async prepare(lmName, input) {
      const tool = pincerToolName(lmName) ?? lmName;
      const c = rt.currentConfig;
      const p = await prepareLmCall(tool, input, {
        capability: rt.registry.get(tool)?.capability ?? 'external', guard: deps.guard(),
        review: { mode: c.edits.review, autoApprove: c.edits.autoApprove, home: os.homedir() },
        exec: { policy: c.exec.policy, host: c.exec.host, store: deps.approvals, home: os.homedir() },
      });
      const message = new vscode.MarkdownString(p.invocationMessage);
      return p.confirmation
        ? { invocationMessage: message, confirmationMessages: { title: p.confirmation.title, message: new vscode.MarkdownString(p.confirmation.message) } }
        : { invocationMessage: message };
    },
  };
}
