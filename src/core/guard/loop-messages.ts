// The words the model (and, on a stop, the user) reads. Each says what repeated, how often, and what
// to do instead; a stop says that the run is over and why, so nobody mistakes it for a tool failure.
import type { Detector } from './loop-config';

export interface Finding {
  detector: Detector;
  count: number;
  /** The tool of the call just recorded. */
  tool: string;
  /** The other tool of a ping-pong pair. */
  otherTool?: string;
  /** Whether the repeated result is an error. */
  isError: boolean;
}

export function warningMessage(f: Finding): string {
  const what = f.isError ? 'the same error' : 'the same result';
  switch (f.detector) {
    case 'sameCall':
      return `Loop warning: you called ${f.tool} with the same arguments ${f.count} times and got ${what} each time. ` +
        (f.isError
          ? 'Repeating it will not change the outcome: read the error, fix the arguments, or try a different tool.'
          : 'Use the result you already have, or change your approach.');
    case 'sameResult':
      return `Loop warning: you called ${f.tool} ${f.count} times with different arguments and got ${what} every time. ` +
        'Varying the arguments is not helping: look at what that result says, or try a different tool or approach.';
    case 'pingPong':
      return `Loop warning: you have alternated between ${pair(f)} for ${f.count} calls and the results have not changed. ` +
        'Repeating this pair will not produce anything new: use what they returned, or do something different.';
    case 'pollNoProgress':
      return `Loop warning: you polled ${f.tool} ${f.count} times in a row and it returned nothing new. ` +
        'Wait longer between polls, check whether the process is stuck, or stop it and try another way.';
    case 'readOnlyStreak':
      return `Loop warning: you have made ${f.count} read-only calls in a row without changing anything. ` +
        'If you have enough context, act on it or answer the user now; read further only with a specific question in mind.';
  }
}

export function criticalMessage(f: Finding): string {
  const what = f.isError ? 'the same error' : 'the same result';
  const tail = ' Stopping the run to save time and tokens; a new turn with a different approach can continue.';
  switch (f.detector) {
    case 'sameCall':
      return `Run stopped by loop detection: ${f.tool} was called with the same arguments ${f.count} times and returned ${what} each time.` + tail;
    case 'sameResult':
      return `Run stopped by loop detection: ${f.tool} was called ${f.count} times with different arguments and returned ${what} every time.` + tail;
    case 'pingPong':
      return `Run stopped by loop detection: the calls alternated between ${pair(f)} for ${f.count} calls with no change in their results.` + tail;
    case 'pollNoProgress':
      return `Run stopped by loop detection: ${f.tool} was polled ${f.count} times in a row without returning anything new.` + tail;
    case 'readOnlyStreak':
      return `Run stopped by loop detection: ${f.count} read-only calls were made in a row without any change or answer.` + tail;
  }
}

function pair(f: Finding): string {
  return f.otherTool === undefined || f.otherTool === f.tool ? `two ${f.tool} calls` : `${f.otherTool} and ${f.tool}`;
}
