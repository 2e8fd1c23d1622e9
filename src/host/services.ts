// What the commands and views share: the runtime and the host's view of the window around it.
import * as vscode from 'vscode';
import type { PincerRuntime } from '../core/runtime';
import type { ToolContext, ToolResult } from '../core/tools/types';
import type { ResultDocuments } from './result-documents';
import type { ToolLog } from './tool-log';

export interface HostServices {
  rt: PincerRuntime;
  docs: ResultDocuments;
  log: ToolLog;
}

export function workspaceRoot(): string | undefined {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f?.uri.scheme === 'file' ? f.uri.fsPath : f?.uri.toString();
}

let turns = 0;

/**
 * The context for calls a person starts from this window (palette, sidebar). Each such call is a turn
 * of its own, so "Restore Checkpoint" can undo exactly one Run Tool.
 */
export function hostContext(rt: PincerRuntime, channel: 'palette' | 'chat', signal: AbortSignal): ToolContext {
  return rt.context({
    channel, sessionKey: `${channel}:${vscode.env.sessionId}`, turnId: `${channel}:${vscode.env.sessionId}:${++turns}`, agentId: 'default', isOwner: true,
    workspaceRoot: workspaceRoot(), workspaceTrusted: vscode.workspace.isTrusted, signal,
  });
}

/** A person's own call from this window (Run Tool, a view's button), on the palette channel: see PincerRuntime.personCall. */
export function personCall(rt: PincerRuntime, name: string, args: unknown, signal: AbortSignal = new AbortController().signal): Promise<ToolResult> {
  return rt.personCall(name, args, hostContext(rt, 'palette', signal));
}
