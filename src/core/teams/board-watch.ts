// Live boards: a store wrapped so that every change it makes is announced (the team of the change),
// whoever made it — a member's tool call, the lead's, the watchdog, a person on the Team Board. The
// board view re-reads on the announcement instead of polling, and a reader never sees an
// announcement before the change is committed (it is sent after the store's promise resolves).
import type { BoardStore } from './board-types';

/**
 * Every method of the store interface, as a read or a change. Only changes are announced; a method a
 * store has beyond the interface (a server store's onChange, onStatus, close) passes through as it is.
 * A method added to the interface must be named here (the type says so).
 */
const KINDS: Record<keyof BoardStore, 'read' | 'change'> = {
  get: 'read', list: 'read', search: 'read', events: 'read', messages: 'read', unreadCount: 'read',
  create: 'change', update: 'change', claim: 'change', assign: 'change', progress: 'change', comment: 'change', attach: 'change',
  complete: 'change', submitForReview: 'change', approve: 'change', reject: 'change', cancel: 'change', retry: 'change',
  recordGate: 'change', releaseOrphans: 'change', note: 'change', send: 'change', readUnread: 'change',
};
const isChange = (key: string | symbol): boolean => typeof key === 'string' && Object.hasOwn(KINDS, key) && KINDS[key as keyof BoardStore] === 'change';

export interface WatchedBoard {
  store: BoardStore;
  /** Called with the team id after each change that was made (a refused one changed nothing). */
  onChange(listener: (teamId: string) => void): { dispose(): void };
}

export function watchBoard(inner: BoardStore): WatchedBoard {
  const listeners = new Set<(teamId: string) => void>();
  const announce = (teamId: unknown) => {
    // releaseOrphans spans every team: its moved tasks name theirs.
    if (typeof teamId === 'string') for (const l of [...listeners]) l(teamId);
  };
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || !isChange(key)) return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        // A refused change throws before the announcement: nothing changed.
        const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (key === 'releaseOrphans') new Set((out as { teamId: string }[]).map((t) => t.teamId)).forEach(announce);
        else announce(args[0]);
        return out;
      };
    },
  });
  return {
    store,
    onChange(listener) {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
  };
}
