// The tool log: every call, one line in the "Pincer Tool Log" output channel (tool, session,
// duration, outcome, scrubbed arguments), a ring of recent calls for the sidebar, and the durable
// copy in the workspace database once storage is open.
import * as vscode from 'vscode';
import type { CallEnd, SlowNotice } from '../core/tools/call-record';
import type { PincerRuntime } from '../core/runtime';
import type { ToolLogStore } from '../core/storage/tool-log-store';
import { Emitter } from '../core/events';

const RING = 200;

export function formatCall(c: CallEnd): string {
  const ms = c.durationMs < 10 ? c.durationMs.toFixed(1) : Math.round(c.durationMs).toString();
  const alias = c.calledAs !== c.tool ? ` (as ${c.calledAs})` : '';
  const parts = [`[${c.outcome}]`, `${c.tool}${alias}`, `${ms} ms`, `session=${c.sessionKey}`, `channel=${c.channel}`, `args=${c.args}`];
  if (c.message) parts.push(`— ${c.message}`);
  if (c.loopWarning) parts.push(`— loop: ${c.loopWarning}`);
  return parts.join(' ');
}

export class ToolLog implements vscode.Disposable {
  readonly recent: CallEnd[] = [];
  readonly onDidChange = new Emitter<CallEnd | undefined>();
  private store?: ToolLogStore;
  /** Calls that ended before the store was attached, written when it is (oldest first). */
  private unsaved: CallEnd[] = [];
  private readonly subs: { dispose(): void }[] = [];

  constructor(readonly channel: vscode.LogOutputChannel, private readonly rt: PincerRuntime) {
    this.subs.push(
      rt.registry.onCallEnd.on((c) => this.add(c)),
      rt.registry.onSlow.on((s) => this.slow(s)),
    );
  }

  /**
   * Storage opened (lazily, after activation): load history, write the calls made before, then
   * persist every new call.
   */
  async attach(store: ToolLogStore): Promise<void> {
    const [history, timing] = await Promise.all([store.recent(RING), store.timing()]);
    this.rt.timing.load(timing);
    const known = new Set(this.recent.map((c) => c.id + c.startedAt));
    this.recent.unshift(...history.filter((c) => !known.has(c.id + c.startedAt)));
    this.recent.splice(0, Math.max(0, this.recent.length - RING));
    this.store = store;
    for (const c of this.unsaved.splice(0)) this.save(c);
    this.onDidChange.fire(undefined);
  }

  private add(c: CallEnd): void {
    const line = formatCall(c);
    if (c.outcome === 'ok') this.channel.info(line);
    else if (c.outcome === 'error' || c.outcome === 'timeout' || c.outcome === 'cancelled' || c.outcome === 'rejected-by-user') this.channel.warn(line);
    else this.channel.error(line);
    this.recent.push(c);
    if (this.recent.length > RING) this.recent.shift();
    this.onDidChange.fire(c);
    if (this.store) this.save(c);
    else if (this.unsaved.push(c) > RING) this.unsaved.shift();
  }

  private save(c: CallEnd): void {
    this.store?.append(c, this.rt.timing.get(c.tool)).catch((e) => this.channel.error(`tool log not saved: ${(e as Error).message}`));
  }

  private slow(s: SlowNotice): void {
    const secs = Math.round(s.elapsedMs / 1000);
    this.channel.warn(`[slow] ${s.tool} has run for ${secs} s (more than twice its usual maximum) session=${s.sessionKey}`);
    void vscode.window.showWarningMessage(`Pincer: ${s.tool} has been running for ${secs} s, longer than usual.`, 'Show Tool Log')
      .then((pick) => pick && this.channel.show(true));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
