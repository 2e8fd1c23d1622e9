// Pincer: Serve Tools over MCP… — the window's own toolset served over streamable HTTP on 127.0.0.1,
// from the extension host, so an agent outside VS Code (Claude Code, Codex, Cursor, Cline) calls the
// same tools under the same settings, and the person answers its approvals and reviews its edits here
// (the window's approval prompt and diff review, which `pincer mcp` on the command line cannot show).
// The server is core's (src/core/serve); this file starts and stops it and hands over the config.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { clientConfigSnippets } from '../../core/serve/client-config';
import { serveHttp, type HttpServing } from '../../core/serve/http-server';
import { createToolServer } from '../../core/serve/tool-server';
import type { PincerRuntime } from '../../core/runtime';

export interface ServeAnswer {
  url: string;
  token: string;
  /** The configuration for Claude Code, Codex and Cursor/Cline, as copied to the clipboard. */
  config: string;
}

export interface McpServeHost extends vscode.Disposable {
  /** Starts the server (or, when it runs, offers to copy the config again or stop it). `quiet`: no UI (tests). */
  command(opts?: { quiet?: boolean; stop?: boolean }): Promise<ServeAnswer | undefined>;
}

export function createMcpServeHost(rt: PincerRuntime, version: string, workspaceRoot: () => string | undefined): McpServeHost {
  let serving: { http: HttpServing; answer: ServeAnswer } | undefined;
  const stop = async () => {
    const s = serving;
    serving = undefined;
    await s?.http.close();
  };
  const start = async (): Promise<ServeAnswer> => {
    // A new token at every start: a client configured for an earlier run must be given the new one.
    const token = randomBytes(32).toString('base64url');
    const http = await serveHttp({
      port: 0, token,
      newServer: (id) => createToolServer({
        rt, version,
        context: (signal) => rt.context({
          channel: 'mcp', sessionKey: `mcp:${id}`, signal, workspaceRoot: workspaceRoot(), workspaceTrusted: vscode.workspace.isTrusted,
        }),
      }),
    });
    const answer = { url: http.url, token, config: clientConfigSnippets(http.url, token) };
    serving = { http, answer };
    return answer;
  };
  return {
    async command(opts = {}) {
      if (opts.stop) return void (await stop());
      if (opts.quiet) return serving?.answer ?? start();
      if (serving) {
        const pick = await vscode.window.showQuickPick(['Copy the client configuration again', 'Stop serving'], { title: `Pincer serves its tools on ${serving.answer.url}` });
        if (pick === 'Stop serving') await stop();
        else if (pick) await vscode.env.clipboard.writeText(serving.answer.config);
        return serving?.answer;
      }
      const answer = await start();
      await vscode.env.clipboard.writeText(answer.config);
      void vscode.window.showInformationMessage(
        `Pincer serves its tools over MCP on ${answer.url} until the window closes. The configuration for Claude Code, Codex and Cursor/Cline (with this run's token) is on the clipboard.`,
      );
      return answer;
    },
    dispose: () => void stop(),
  };
}
