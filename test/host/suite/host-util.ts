// Shared helpers for the in-host suites: the extension's API, the harness bridge, polling, a loopback model.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PincerApi } from '../../../src/extension';
import type { HostCore } from '../../../src/host/host-core';
import type { Script } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';

export const EXT_ID = 'pincer.pincer';

export interface Harness {
  screenshot(name: string): Promise<string>;
  webviewText(selector: string, timeoutMs?: number): Promise<string>;
  /** The images matching `selector` in a webview: their alt text, URL scheme, whether drawn, natural size. */
  webviewImages(selector: string, timeoutMs?: number): Promise<{ alt: string; scheme: string; complete: boolean; width: number; height: number }[]>;
  pageText(selector: string, timeoutMs?: number): Promise<string>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const harness: Harness | undefined = process.env.HOST_HARNESS_CLIENT ? require(process.env.HOST_HARNESS_CLIENT) : undefined;

export async function api(): Promise<PincerApi> {
  const ext = vscode.extensions.getExtension<PincerApi>(EXT_ID);
  if (!ext) throw new Error(`${EXT_ID} is not installed in this host`);
  return ext.activate();
}

/** When the running test times out (published by inhost/mocha-runner.cjs); Infinity outside a test. */
function testDeadline(): number {
  const t = (globalThis as { __pincerHostTest?: { startedAt: number; timeout(): number } }).__pincerHostTest;
  const ms = t ? t.timeout() : 0;
  return t && ms > 0 ? t.startedAt + ms : Infinity;
}

/**
 * Polls `fn` until it gives a value. No budget of its own: a slow machine only makes it slower. It
 * gives up just before the test's own timeout, so the failure names what it waited for.
 */
export async function waitFor<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > testDeadline() - 2000) throw new Error(`the test's time ran out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The runtime side of the extension (loads it if no command has yet). */
export async function core(): Promise<HostCore> {
  return (await api()).core();
}

/** Facts the suite measured (activation time …), written beside the results for benchmarks. */
export function recordFact(name: string, value: unknown): void {
  const out = process.env.HOST_TEST_ARTIFACTS;
  if (!out) return;
  const file = path.join(out, 'facts.json');
  const facts = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  facts[name] = value;
  fs.writeFileSync(file, JSON.stringify(facts, null, 2));
}

/**
 * Inside a suite: a loopback OpenAI-compatible model ("test-model") answering by `script`, set as the
 * window's OpenAI base URL with `settings` (user settings under `pincer.`) for the suite, all cleared
 * after it. Returns the server (available once the suite has started).
 */
export function suiteChatModel(script: Script, settings: Record<string, unknown> = {}): () => ModelServer {
  let server: ModelServer | undefined;
  const keys = ['providers.openai.baseUrl', 'rateLimit.enabled', ...Object.keys(settings)];
  const update = (k: string, v: unknown) => vscode.workspace.getConfiguration('pincer').update(k, v, vscode.ConfigurationTarget.Global);
  suiteSetup(async () => {
    server = await startOpenAiChatServer(script, { models: ['test-model'] });
    const values: Record<string, unknown> = { 'rateLimit.enabled': false, ...settings, 'providers.openai.baseUrl': server.url };
    for (const k of keys) await update(k, values[k]);
  });
  suiteTeardown(async () => {
    for (const k of keys) await update(k, undefined);
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the suite has not started its model server yet');
    return server;
  };
}
