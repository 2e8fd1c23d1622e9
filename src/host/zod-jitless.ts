// Imported first by host-core.ts, before any module builds a zod schema. zod compiles a parser per
// object schema with `new Function` on its first parse (and, building the first object schema, reads
// `navigator` to find out whether it may: in VS Code's extension host that global is a getter that
// reports a deprecation with a stack trace). The runtime parses each schema a few times per window —
// settings once, a tool's arguments once per call — so code compiled at run time, which V8's code
// cache of the bundle cannot hold, costs the first tool call more than it ever saves. The results are
// the same on either path.
import { z } from 'zod';

z.config({ jitless: true });
