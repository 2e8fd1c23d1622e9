// A minimal typed event emitter: core cannot use vscode.EventEmitter, and node's EventEmitter is
// stringly typed. Listener errors are contained so one bad listener cannot break a tool call.
export type Listener<T> = (event: T) => void;

export class Emitter<T> {
  private listeners = new Set<Listener<T>>();

  on(listener: Listener<T>): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Whether anyone listens: a caller can skip building an event nobody would read. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  fire(event: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A listener (log writer, view) failing must not change the outcome of the call it observes.
      }
    }
  }
}
