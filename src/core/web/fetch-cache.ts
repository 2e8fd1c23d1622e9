// Pages fetched in the last 15 minutes, by URL: paging through a long page with `offset`, or two
// agents reading the same page, costs one download. Bounded, oldest entries dropped first.
export class FetchCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  constructor(private readonly opts: { ttlMs: number; maxEntries: number; now: () => number }) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.opts.now() - hit.at > this.opts.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { at: this.opts.now(), value });
    while (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
