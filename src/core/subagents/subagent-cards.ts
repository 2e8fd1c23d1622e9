// What a front end shows of each child while it runs and after: the chat's card (task, agent, status,
// its latest tool calls, tokens, duration, result). The manager's records say how a child stands; its
// events add what records do not keep (when the current run started, which tools it is calling), so
// the card is folded here from both, the same way for every front end.
import { preview } from '../chat/chat-history';
import { CHAT_LIMITS, type SubagentCardView } from '../chat/chat-protocol-parts';
import { oneLine } from './subagent-tree-model';
import { SETTLED_STATUSES, type SubagentEvent, type SubagentRecord } from './types';

/** Tool calls a card lists: the latest ones (the child's transcript has every call). */
const TOOLS_SHOWN = 8;
/** Characters of a card's result (the transcript has the whole answer). */
const RESULT_CHARS = 4000;

type ToolRow = SubagentCardView['tools'][number];

export class SubagentCardBook {
  private readonly tools = new Map<string, ToolRow[]>();
  /** When each child's current run started, as seen by this book (its record sums earlier runs). */
  private readonly since = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Folds one event in; returns the id of the child whose card changed. */
  apply(e: SubagentEvent): string {
    switch (e.type) {
      case 'started':
        this.since.set(e.record.id, this.now());
        this.tools.set(e.record.id, []);
        return e.record.id;
      case 'tool': {
        const rows = this.tools.get(e.id) ?? [];
        const args = oneLine(e.args, 160);
        if (e.phase === 'start') {
          rows.push({ name: e.tool.slice(0, CHAT_LIMITS.label) || 'tool', args, status: 'running' });
          if (rows.length > TOOLS_SHOWN) rows.splice(0, rows.length - TOOLS_SHOWN);
        } else {
          const row = rows.find((r) => r.status === 'running' && r.name === e.tool && r.args === args) ?? rows.find((r) => r.status === 'running' && r.name === e.tool);
          if (row) row.status = e.isError ? 'error' : 'ok';
        }
        this.tools.set(e.id, rows);
        return e.id;
      }
      case 'finished':
        this.since.delete(e.record.id);
        // A call cut off by the stop never ends on its own: it must not spin on the card.
        for (const row of this.tools.get(e.record.id) ?? []) if (row.status === 'running') row.status = 'error';
        return e.record.id;
      default:
        return e.id;
    }
  }

  /** Milliseconds the child has run: its settled runs plus the current one. */
  durationOf(r: SubagentRecord): number {
    if (SETTLED_STATUSES.includes(r.status)) return r.durationMs;
    const from = this.since.get(r.id) ?? (r.durationMs === 0 ? r.createdAt : undefined);
    return r.durationMs + (from === undefined ? 0 : Math.max(0, this.now() - from));
  }

  /** The card of a child as it stands now. */
  card(r: SubagentRecord): SubagentCardView {
    const settled = SETTLED_STATUSES.includes(r.status);
    const u = r.usage;
    return {
      id: r.id, ...(r.label ? { label: r.label.slice(0, CHAT_LIMITS.label) } : {}), agentId: r.agentId.slice(0, CHAT_LIMITS.id),
      task: preview(r.task, CHAT_LIMITS.sentence), status: r.status, depth: r.depth,
      usage: { input: u.input, output: u.output, cached: u.cached, ...(u.costUsd !== undefined && u.costUsd >= 0 ? { costUsd: u.costUsd } : {}) },
      durationMs: Math.min(CHAT_LIMITS.durationMs, this.durationOf(r)),
      tools: (this.tools.get(r.id) ?? []).map((t) => ({ ...t })),
      ...(settled && r.result !== undefined ? { result: preview(r.result, RESULT_CHARS) } : {}),
    };
  }
}
