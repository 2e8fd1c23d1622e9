// What a scripted model says, independent of the wire protocol: the loopback OpenAI and Anthropic
// servers render the same script into their own streams, so one test scenario ("say 'Let me read it',
// call read_file {path: 'a.txt'}, then answer") runs against either provider. Text and tool arguments
// are cut into small fragments so that every response arrives over several chunks, as real ones do.

/** One piece of a reply, in order. */
export type ScriptPart =
  | { kind: 'text'; text: string }
  /** `args` is the JSON text the model sends (possibly cut off, possibly not JSON at all). */
  | { kind: 'tool'; name: string; args: string; id?: string };

export type ScriptStop = 'end' | 'tool-calls' | 'length' | 'content-filter' | 'stop-sequence';

export interface ScriptError {
  status: number;
  /** The error's message (servers echo what they like: tests put keys here to check redaction). */
  message?: string;
  /** The protocol's error type; a sensible one for the status when absent. */
  type?: string;
  /** Sent as the Retry-After header (seconds or an HTTP date). */
  retryAfter?: string;
  /** Sent as retry-after-ms. */
  retryAfterMs?: number;
  /** A body to send verbatim instead of the protocol's error JSON. */
  body?: unknown;
}

/** One response to one request. */
export interface ScriptStep {
  parts?: ScriptPart[];
  /** How the response ends; 'tool-calls' when it has tool calls, else 'end'. */
  stop?: ScriptStop;
  usage?: { input: number; output: number; cachedInput?: number };
  /** Answer with an HTTP error instead. */
  error?: ScriptError;
  /** After the parts, an error event inside the stream instead of the normal ending. */
  streamError?: { type: string; message: string };
  /** Wait between chunks, ms. */
  delayMs?: number;
  /** Characters per text or argument fragment (default 6). */
  fragment?: number;
  /** Destroy the connection after sending this many chunks. */
  dropAfter?: number;
  /** Send this many chunks, then keep the connection open until the client goes away. */
  holdAfter?: number;
  /** Parallel tool calls' argument fragments alternate (OpenAI only; Anthropic blocks are sequential). */
  interleave?: boolean;
  /** End the stream cleanly but without the finish / stop events (a broken server). */
  omitFinish?: boolean;
}

/** What a script function is given: the parsed request body and its 0-based position. */
export interface ScriptRequest {
  body: Record<string, unknown>;
  index: number;
}

export type Script = ScriptStep[] | ((req: ScriptRequest) => ScriptStep);

export function text(t: string): ScriptPart {
  return { kind: 'text', text: t };
}

/** A tool call; an object is sent as its JSON, a string as is (for cut-off or broken arguments). */
export function toolCall(name: string, args: unknown, id?: string): ScriptPart {
  return { kind: 'tool', name, args: typeof args === 'string' ? args : JSON.stringify(args), ...(id ? { id } : {}) };
}

export function reply(...parts: ScriptPart[]): ScriptStep {
  return { parts };
}

/** The step for request `index`; a finished script answers 500 so the test fails with a reason. */
export function stepFor(script: Script, req: ScriptRequest): ScriptStep {
  if (typeof script === 'function') return script(req);
  return (
    script[req.index] ?? { error: { status: 500, message: `The test script has ${script.length} steps; request ${req.index + 1} has none.` } }
  );
}

export function stopOf(step: ScriptStep): ScriptStop {
  return step.stop ?? ((step.parts ?? []).some((p) => p.kind === 'tool') ? 'tool-calls' : 'end');
}

/** Protocol-neutral stream pieces, in sending order. `block` numbers the reply's parts. */
export type Piece =
  | { kind: 'text'; block: number; text: string; first: boolean }
  | { kind: 'tool-start'; block: number; call: number; id: string; name: string }
  | { kind: 'tool-args'; block: number; call: number; fragment: string }
  | { kind: 'block-end'; block: number };

/** The step's parts cut into pieces; tool ids default to `${idPrefix}_${requestIndex}_${call}`. */
export function piecesOf(step: ScriptStep, idPrefix: string, requestIndex: number): Piece[] {
  const size = Math.max(1, step.fragment ?? 6);
  const pieces: Piece[] = [];
  let call = 0;
  const parts = step.parts ?? [];
  for (let block = 0; block < parts.length; block++) {
    const part = parts[block];
    if (part.kind === 'text') {
      const frags = fragments(part.text, size);
      frags.forEach((t, i) => pieces.push({ kind: 'text', block, text: t, first: i === 0 }));
      if (frags.length > 0) pieces.push({ kind: 'block-end', block });
      continue;
    }
    // Consecutive tool calls: each whole in turn, or (interleave) every start, then their argument
    // fragments alternating, as parallel calls may arrive.
    const run: { block: number; call: number; frags: string[] }[] = [];
    while (block < parts.length && parts[block].kind === 'tool') {
      const tool = parts[block] as Extract<ScriptPart, { kind: 'tool' }>;
      const id = tool.id ?? `${idPrefix}_${requestIndex}_${call}`;
      const frags = fragments(tool.args, size);
      pieces.push({ kind: 'tool-start', block, call, id, name: tool.name });
      if (step.interleave) {
        run.push({ block, call, frags });
      } else {
        for (const f of frags) pieces.push({ kind: 'tool-args', block, call, fragment: f });
        pieces.push({ kind: 'block-end', block });
      }
      call++;
      block++;
    }
    block--;
    if (run.length > 0) {
      const longest = Math.max(...run.map((r) => r.frags.length));
      for (let i = 0; i < longest; i++) {
        for (const r of run) if (i < r.frags.length) pieces.push({ kind: 'tool-args', block: r.block, call: r.call, fragment: r.frags[i] });
      }
      for (const r of run) pieces.push({ kind: 'block-end', block: r.block });
    }
  }
  return pieces;
}

function fragments(s: string, size: number): string[] {
  if (s === '') return [];
  const out: string[] = [];
  // By code point, so a fragment boundary never splits a surrogate pair.
  const chars = Array.from(s);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Token counts when the step gives none: deterministic, roughly four characters a token. */
export function usageOf(step: ScriptStep, body: Record<string, unknown>): { input: number; output: number; cachedInput?: number } {
  if (step.usage) return step.usage;
  const said = (step.parts ?? []).reduce((n, p) => n + (p.kind === 'text' ? p.text.length : p.args.length + p.name.length), 0);
  return { input: Math.ceil(JSON.stringify(body.messages ?? []).length / 4), output: Math.max(1, Math.ceil(said / 4)) };
}
