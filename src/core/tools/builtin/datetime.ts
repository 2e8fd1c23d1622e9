// datetime: the current date and time, in the user's zone or a named IANA zone. Models have no clock;
// without this they guess today's date from their training data.
import { z } from 'zod';
import { defineTool, fail, ok } from '../types';

const parameters = z.object({
  timezone: z.string().min(1).optional().describe('IANA time zone such as "Europe/Berlin" or "UTC". Default: the local zone of the machine.'),
}).strict();

export const datetimeTool = defineTool({
  name: 'datetime',
  description: 'Returns the current date and time (ISO 8601, weekday, time zone, Unix seconds). Use it whenever the answer depends on today\'s date or the current time; do not guess them.',
  parameters,
  group: 'automation',
  capability: 'read-only',
  async execute(args) {
    const now = new Date();
    const zone = args.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    let local: string;
    try {
      local = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone, weekday: 'long', year: 'numeric', month: '2-digit', day: '2-digit',
        hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZoneName: 'longOffset',
      }).format(now);
    } catch {
      return fail(`Unknown time zone "${zone}". Use an IANA name such as "UTC", "Europe/Berlin" or "America/New_York".`);
    }
    const text = `Now: ${local} (${zone})\nUTC: ${now.toISOString()}\nUnix: ${Math.floor(now.getTime() / 1000)}`;
    return ok(text, { details: { iso: now.toISOString(), zone, unix: Math.floor(now.getTime() / 1000) } });
  },
});
