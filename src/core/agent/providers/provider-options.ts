// Settings checks shared by the HTTP providers, so a typo in a base URL is reported when the provider
// is made, with the fix, rather than as a connection error on the first message.
import { ModelError } from '../model-types';

/** The base URL without trailing slashes; refuses what is not http(s) or carries credentials. */
export function checkBaseUrl(baseUrl: string, what: string): string {
  const invalid = (why: string): never => {
    throw new ModelError(`${what}: ${why}.`, false);
  };
  let url: URL | undefined;
  try {
    url = new URL(String(baseUrl).trim());
  } catch {
    invalid(`baseUrl ${JSON.stringify(baseUrl)} is not a URL (e.g. http://127.0.0.1:11434/v1)`);
  }
  if (url!.protocol !== 'http:' && url!.protocol !== 'https:') invalid(`baseUrl must be http or https, got ${url!.protocol}`);
  // A key in the URL would show up in every error message and log line that names the server.
  if (url!.username || url!.password) invalid('baseUrl must not hold credentials: set the API key instead');
  return String(baseUrl).trim().replace(/\/+$/, '');
}
