// ask_user questions waiting for the person. Each is shown on the Team Board and in the editor's own
// prompt at once; the first answer wins (a board answer closes the prompt), and the question leaves the
// board as soon as it is settled, answered or not.
export interface OpenQuestion {
  id: number;
  teamId: string;
  taskId?: number;
  /** Who asks (a member or the lead). */
  from: string;
  question: string;
  at: number;
}

/** The editor's own way to ask (an input box); resolves undefined when the person dismisses it or `signal` aborts. */
export type AskPrompt = (signal: AbortSignal) => Promise<string | undefined>;

export class OpenQuestions {
  private seq = 0;
  private readonly open = new Map<number, { q: OpenQuestion; settle: (answer: string | undefined) => void }>();
  private readonly listeners = new Set<(teamId: string) => void>();

  /** The team's questions waiting now, oldest first. */
  list(teamId: string): OpenQuestion[] {
    return [...this.open.values()].map((e) => e.q).filter((q) => q.teamId === teamId);
  }

  /** Told the team whenever one of its questions is asked or settled. */
  onChange(listener: (teamId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Waits for the answer from the board (answer()) or from `prompt`; undefined when the prompt is dismissed or `signal` aborts. */
  async ask(q: Omit<OpenQuestion, 'id'>, prompt: AskPrompt, signal: AbortSignal): Promise<string | undefined> {
    const id = ++this.seq;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let settle!: (answer: string | undefined) => void;
    const answered = new Promise<string | undefined>((resolve) => { settle = resolve; });
    this.open.set(id, { q: { ...q, id }, settle });
    this.fire(q.teamId);
    stop.signal.addEventListener('abort', () => settle(undefined), { once: true });
    if (signal.aborted) stop.abort();
    prompt(stop.signal).then(settle, () => settle(undefined));
    try {
      return await answered;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.open.delete(id);
      stop.abort();
      this.fire(q.teamId);
    }
  }

  /** The person's answer from the board; false when the question is no longer open. */
  answer(id: number, text: string): boolean {
    const e = this.open.get(id);
    if (!e) return false;
    e.settle(text);
    return true;
  }

  private fire(teamId: string): void {
    for (const l of this.listeners) l(teamId);
  }
}
