// What the `process` tool tells the model about a job: its state line, the output since the last
// poll (head and tail when long, with the exact `process log` call for the middle), when to poll
// again, and pages of the whole log.
import { capForModel } from '../run/output-cap';
import { formatDuration, type Job, type JobManager } from '../run/job-manager';

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** Facts about a job for `details` (UIs and tests). */
export function jobDetails(job: Job): Record<string, unknown> {
  return {
    id: job.id, status: job.status, pid: job.pid, exitCode: job.outcome?.exitCode, signal: job.outcome?.signal,
    startError: job.outcome?.startError, totalLines: job.log.totalLines, totalChars: job.log.totalChars,
  };
}

/** What comes after a poll's output: when to look again, or what is left to do with a finished job. */
function nextStep(job: Job, nextPollSeconds: number, retentionNote: string): string {
  if (job.status === 'running') {
    return `Still running. Poll again in ${nextPollSeconds} s: process poll id=${job.id} wait=${nextPollSeconds} ` +
      '(waits up to that long and answers as soon as it finishes).';
  }
  const lines = job.log.totalLines;
  const log = lines ? `The whole output (${n(lines)} lines) stays readable with process log id=${job.id} offset=N` : 'It printed nothing';
  return `${log} ${retentionNote}; process remove id=${job.id} frees it now.`;
}

export interface PollReport {
  text: string;
  details: Record<string, unknown>;
}

/**
 * Polls `job` and reports: its state line, `lead` (what the caller just did) and the new output,
 * capped to `maxChars` with a hint naming the log lines left out.
 */
export function pollReport(jobs: JobManager, job: Job, maxChars: number, lead?: string): PollReport {
  const p = jobs.poll(job.id, job.spec.sessionKey);
  const nextPoll = p?.nextPollSeconds ?? 0;
  const output = p?.output ?? '';
  const fromLine = p?.fromLine ?? 1;
  const head = [jobs.summary(job)];
  if (lead) head.push(lead);
  const retention = `for ${formatDuration(jobs.retentionMs)} after it ended`;
  const foot = nextStep(job, nextPoll, retention);
  let body: string;
  if (!output) {
    body = job.status === 'running' ? '(no new output since the last poll)' : '(no output since the last poll)';
  } else {
    const room = Math.max(1000, maxChars - head.join('\n').length - foot.length - 200);
    const hint = (from: number, count: number): string => `read them with process log id=${job.id} offset=${fromLine + from - 1} limit=${count}`;
    const capped = capForModel(output, room, hint);
    const label = output.length < job.log.totalChars ? `New output (from line ${n(fromLine)}):` : 'Output:';
    body = `${label}\n${capped}${capped.endsWith('\n') ? '' : '\n'}`;
  }
  return {
    text: `${head.join('\n')}\n${body}${body.endsWith('\n') ? '' : '\n'}${foot}`,
    details: { ...jobDetails(job), nextPollSeconds: nextPoll, newChars: output.length, fromLine },
  };
}

/** Default lines of a log page. */
export const LOG_PAGE_LINES = 200;

/** A page of the whole log: lines offset … offset+limit-1, or the last lines when offset is not given. */
export function logReport(jobs: JobManager, job: Job, offset: number | undefined, limit: number | undefined, maxChars: number): PollReport {
  const log = job.log;
  const total = log.totalLines;
  const state = jobs.summary(job);
  if (total === 0) return { text: `${state}\nIt has printed nothing${job.status === 'running' ? ' yet' : ''}.`, details: { ...jobDetails(job), empty: true } };
  const lines = limit ?? LOG_PAGE_LINES;
  const room = Math.max(1000, maxChars - state.length - 400);
  if (offset !== undefined && offset > total) {
    return { text: `${state}\noffset=${offset} is past the end: the log has ${n(total)} lines. Use an offset from 1 to ${total}.`, details: { ...jobDetails(job), pastEnd: true } };
  }
  let page = log.read(offset ?? Math.max(1, total - lines + 1), lines, room);
  if (offset === undefined && page.nextOffset !== undefined) {
    // The last lines did not fit the room: show as many of the last ones as do.
    const fit = page.to - page.from + 1;
    page = log.read(Math.max(1, total - fit + 1), fit, room);
  }
  const notes: string[] = [];
  if (page.nextOffset !== undefined) notes.push(`Use offset=${page.nextOffset} to continue.`);
  else if (job.status === 'running') notes.push('End of the log so far; it is still running.');
  else notes.push('End of the log.');
  if (page.from > 1) notes.push(`Earlier lines: offset=${Math.max(1, page.from - lines)}.`);
  const text = `${state}\nLines ${n(page.from)}–${n(page.to)} of ${n(total)}:\n${page.text}[${notes.join(' ')}]`;
  return { text, details: { ...jobDetails(job), from: page.from, to: page.to, nextOffset: page.nextOffset } };
}
