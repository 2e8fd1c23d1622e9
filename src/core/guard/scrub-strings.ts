// Scrubbing structured data: every string inside a JSON-like value (arrays and plain objects, at any
// depth) goes through the scrubber, and the shape stays as it was. Scrubbing the serialised JSON
// instead could cut through a quote or an escape and leave text that no longer parses.
export function scrubStrings(v: unknown, scrub: (t: string) => string): unknown {
  if (typeof v === 'string') return scrub(v);
  if (Array.isArray(v)) return v.map((x) => scrubStrings(x, scrub));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubStrings(x, scrub)]));
  return v;
}
