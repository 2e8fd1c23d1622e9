// Turning a network client's error into a sentence that is safe to show: the innermost cause (undici
// wraps ECONNREFUSED in "fetch failed"), a length cap, and the API key taken out (servers echo the
// presented key in 401 messages). Shared by every HTTP client Pincer runs (models, embeddings).

/** The innermost error code or message. */
export function rootCause(err: Error): string {
  let detail = err.message;
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++, at = at.cause) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (at.message) detail = at.message;
  }
  return detail;
}

export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Servers echo the presented key in 401 messages ("Incorrect API key provided: sk-…"). */
export function redactKey(text: string, apiKey: string | undefined): string {
  // Very short "keys" (placeholders like "x") would mangle ordinary words and reveal nothing.
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}
