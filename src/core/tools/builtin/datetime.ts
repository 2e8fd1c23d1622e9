// datetime: the current date and time, in the user's zone or a named IANA zone; or another moment
// (`at`) converted between zones, with how long until it (or since). Models have no clock: without
// this they guess today's date from their training data, and they get zone offsets and daylight
// saving wrong. Zones and calendar arithmetic are luxon's (the IANA data through Intl), never ours.
import type { DateTime } from 'luxon';
import { z } from 'zod';
import { defineTool, fail, ok } from '../types';

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads (every tool call loads it; few ask the time); the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get timezone() {
    return z.string().min(1).optional().describe('IANA time zone to answer in, such as "Europe/Berlin" or "UTC". Default: the local zone of the machine.');
  },
  get at() {
    return z.string().min(1).optional().describe(
      'A moment other than now, ISO 8601: "2026-12-24T18:00", "2026-12-24", or with an offset ("…Z", "…+01:00"). '
      + 'Answers it in `timezone` and how long from now until it (or since it).',
    );
  },
  get from() {
    return z.string().min(1).optional().describe('IANA zone `at` is written in when it has no offset. Default: `timezone`.');
  },
}).strict();

/**
 * luxon on first use of `at`: the runtime that every tool call loads stays without it (the build puts
 * it in dist/lazy-luxon.js). "Now" needs only Intl.
 */
function luxon(): typeof import('luxon') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('luxon') as typeof import('luxon');
}

/** Whether Intl knows the zone (what luxon's IANAZone.isValidZone asks too). */
function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const UNKNOWN_ZONE = (zone: string) => `Unknown time zone "${zone}". Use an IANA name such as "UTC", "Europe/Berlin" or "America/New_York".`;

function wallClock(d: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone, weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZoneName: 'longOffset',
  }).format(d);
}

/** "in 3 days 4 hours 5 minutes", "2 hours 1 minute ago", "now" (under a minute either way). */
export function relative(target: DateTime, now: DateTime): string {
  const future = target >= now;
  const d = (future ? target.diff(now, ['days', 'hours', 'minutes']) : now.diff(target, ['days', 'hours', 'minutes'])).toObject();
  const parts = (['days', 'hours', 'minutes'] as const)
    .map((u) => [Math.floor(d[u] ?? 0), u.slice(0, -1)] as const)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  if (!parts.length) return 'now (less than a minute away)';
  return future ? `in ${parts.join(' ')}` : `${parts.join(' ')} ago`;
}

export const datetimeTool = defineTool({
  name: 'datetime',
  description: 'Returns the current date and time (ISO 8601, weekday, time zone, Unix seconds). Use it whenever the answer depends on today\'s date or the current time; do not guess them. '
    + 'With `at`, converts that moment between time zones (`from` → `timezone`) and says how long until it, or since it.',
  parameters,
  group: 'automation',
  capability: 'read-only',
  async execute(args) {
    const zone = args.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!validZone(zone)) return fail(UNKNOWN_ZONE(zone));
    if (args.at === undefined) {
      const d = new Date();
      const text = `Now: ${wallClock(d, zone)} (${zone})\nUTC: ${d.toISOString()}\nUnix: ${Math.floor(d.getTime() / 1000)}`;
      return ok(text, { details: { iso: d.toISOString(), zone, unix: Math.floor(d.getTime() / 1000) } });
    }
    const from = args.from ?? zone;
    if (!validZone(from)) return fail(UNKNOWN_ZONE(from));
    const { DateTime } = luxon();
    const now = DateTime.now();
    const at = DateTime.fromISO(args.at, { zone: from, setZone: true });
    if (!at.isValid) return fail(`"${args.at}" is not an ISO 8601 date or time (${at.invalidExplanation ?? at.invalidReason}). Write it like "2026-12-24T18:00" or "2026-12-24T18:00+01:00".`);
    const d = at.toJSDate();
    const until = relative(at, now);
    const text = [
      `At: ${wallClock(d, zone)} (${zone})`,
      `Given: ${at.toISO()}${at.zoneName && at.zoneName !== zone ? ` (${at.zoneName})` : ''}`,
      `UTC: ${d.toISOString()}`,
      `Unix: ${Math.floor(d.getTime() / 1000)}`,
      `From now (${now.toUTC().toISO()}): ${until}`,
    ].join('\n');
    return ok(text, { details: { iso: d.toISOString(), zone, unix: Math.floor(d.getTime() / 1000), secondsFromNow: Math.round(at.diff(now, 'seconds').seconds) } });
  },
});
