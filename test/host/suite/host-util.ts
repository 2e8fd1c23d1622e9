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
