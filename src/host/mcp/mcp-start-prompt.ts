// The question before a workspace-defined MCP server starts for the first time: a modal with the exact
// command or URL, Start / Don't Start (the default, so a stray key press starts nothing). Pending
// questions are answerable by server name too (the host tests use that); a modal cannot be closed
// from code, so a later click on it is ignored.
import * as vscode from 'vscode';
import type { McpServerDefinition } from '../../core/mcp/server-definition';

const START: vscode.MessageItem = { title: 'Start' };
const DONT: vscode.MessageItem = { title: "Don't Start", isCloseAffordance: true };

export class McpStartPrompt implements vscode.Disposable {
  private readonly pending = new Map<string, (yes: boolean) => void>();
  /** Declined in this window, by server: the launch line declined. */
  private readonly declined = new Map<string, string>();

  ask(def: McpServerDefinition, launch: string): Promise<boolean> {
    // "Don't Start" stands until the definition changes: a file saved twice, or any other reload,
    // must not put the same question up again (a second modal nobody expects would also hold every
    // later reload behind it).
    if (this.declined.get(def.name) === launch) return Promise.resolve(false);
    return new Promise((resolve) => {
      let settled = false;
      const settle = (yes: boolean) => {
        if (settled) return;
        settled = true;
        this.pending.delete(def.name);
        if (yes) this.declined.delete(def.name);
        else this.declined.set(def.name, launch);
        resolve(yes);
      };
      this.pending.set(def.name, settle);
      void vscode.window.showWarningMessage(
        `Start the MCP server "${def.name}" defined in ${vscode.workspace.asRelativePath(def.source.file)}?`,
        { modal: true, detail: `${launch}\n\nIt runs with your permissions. Pincer asks again if its definition changes.` },
        DONT, START,
      ).then((choice) => settle(choice === START));
    });
  }

  /** Asks again next time: the person chose Restart or Enable for a server they had declined. */
  reconsider(server: string): void {
    this.declined.delete(server);
  }

  /** Servers waiting for an answer. */
  waiting(): string[] {
    return [...this.pending.keys()];
  }

  answer(server: string, yes: boolean): boolean {
    const settle = this.pending.get(server);
    settle?.(yes);
    return !!settle;
  }

  dispose(): void {
    for (const settle of [...this.pending.values()]) settle(false);
  }
}
