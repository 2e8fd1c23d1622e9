// One documented token format: the literal prefix a vendor puts on its tokens and the body after it.
// The tables (scrub-tokens-*.ts) record facts — the shapes published in vendors' documentation and
// described by the open secret scanners' detectors (gitleaks rules, trufflehog detectors, secretlint
// rules) — each row naming where its shape is documented. No scanner's files are copied.

export interface TokenFormat {
  /** A short name for the format (vendor and kind). */
  readonly id: string;
  /** The literal prefix, kept in the output. */
  readonly prefix: string;
  /** Regex source for the body (what is redacted), built with the helpers below. */
  readonly body: string;
  /** Where the shape is documented. */
  readonly doc: string;
  /** Matched even right after a token character (webhook URLs, whose prefix follows `https://`). */
  readonly anywhere?: boolean;
}

/** The longest body a rule takes; a longer token loses its first BODY_MAX characters. */
export const BODY_MAX = 1024;

export const AN = 'A-Za-z0-9';
export const ANU = 'A-Za-z0-9_';
export const B64U = 'A-Za-z0-9_-';
export const B64 = 'A-Za-z0-9+/';
export const HEX = 'a-f0-9';
export const LAN = 'a-z0-9';

/** Exactly `n` characters of `cls` (class contents, without brackets), not followed by another. */
export function exact(cls: string, n: number, pad = ''): string {
  return `[${cls}]{${n}}${pad}(?![${cls}])`;
}

/** At least `min` characters of `cls`, greedy and bounded, so nothing after it can make it backtrack. */
export function atLeast(cls: string, min: number, pad = ''): string {
  return `[${cls}]{${min},${BODY_MAX}}${pad}`;
}

/** A row of the table. */
export function fmt(id: string, prefix: string, body: string, doc: string): TokenFormat {
  return { id, prefix, body, doc };
}

/**
 * The rows of a secret URL (a webhook), whose prefix may follow any character (a host name inside a
 * URL): as written, and percent-encoded (`hooks.slack.com%2Fservices%2F…`, as it stands when the URL
 * is itself a query parameter or a form value), where `/` and `@` in the body are `%2F` and `%40`.
 */
export function url(id: string, prefix: string, cls: string, min: number, doc: string): TokenFormat[] {
  const encoded = (hex: string): TokenFormat =>
    ({ id: `${id}-encoded`, prefix: prefix.replace(/\//g, `%2${hex}`), body: atLeast(`%${cls}`, min), doc, anywhere: true });
  return [{ id, prefix, body: atLeast(cls, min), doc, anywhere: true }, encoded('F'), encoded('f')];
}
