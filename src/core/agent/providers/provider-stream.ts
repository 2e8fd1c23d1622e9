// The part every streaming provider shares: nothing sent for a request cancelled already; open the SDK's stream, pass each chunk through the
// protocol's assembler, end with its final events, and turn a cancel — thrown or, as the SDKs do,
// a stream that just stops — into stop 'cancelled' rather than an error.
import type { ModelEvent } from '../model-types';

export interface StreamAssembler<C> {
  push(chunk: C): Iterable<ModelEvent>;
  finish(): Iterable<ModelEvent>;
}

export async function* relayStream<C>(
  open: () => Promise<AsyncIterable<C>>, assembler: StreamAssembler<C>, signal: AbortSignal,
  fail: (err: unknown) => Error, isAbort: (err: unknown) => boolean,
): AsyncGenerator<ModelEvent> {
  if (signal.aborted) {
    yield { type: 'stop', reason: 'cancelled' };
    return;
  }
  try {
    for await (const chunk of await open()) {
      for (const event of assembler.push(chunk)) yield event;
    }
  } catch (err) {
    if (signal.aborted || isAbort(err)) {
      yield { type: 'stop', reason: 'cancelled' };
      return;
    }
    throw fail(err);
  }
  // The SDKs end an aborted stream quietly rather than throwing.
  if (signal.aborted) {
    yield { type: 'stop', reason: 'cancelled' };
    return;
  }
  yield* assembler.finish();
}
