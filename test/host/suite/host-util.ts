// Shared helpers for the in-host suites: the extension's API, the harness bridge, polling.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PincerApi } from '../../../src/extension';
import type { HostCore } from '../../../src/host/host-core';

export const EXT_ID = 'pincer.pincer';

export interface Harness {
  screenshot(name: string): Promise<string>;
  webviewText(selector: string, timeoutMs?: number): Promise<string>;
  pageText(selector: string, timeoutMs?: number): Promise<string>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const harness: Harness | undefined = process.env.HOST_HARNESS_CLIENT ? require(process.env.HOST_HARNESS_CLIENT) : undefined;

export async function api(): Promise<PincerApi> {
  const ext = vscode.extensions.getExtension<PincerApi>(EXT_ID);
  if (!ext) throw new Error(`${EXT_ID} is not installed in this host`);
  return ext.activate();
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
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
