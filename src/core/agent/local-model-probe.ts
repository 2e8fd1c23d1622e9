// Finds a local OpenAI-compatible model server (Ollama, LM Studio) on this machine for the chat's
// first run: each known address is asked for its model list with a short timeout, so a person
// without Copilot or an API key can connect with one click instead of reading about base URLs.

export interface LocalServer {
  /** 'Ollama' or 'LM Studio'. */
  name: string;
  /** The base URL the OpenAI-compatible provider takes (`…/v1`). */
  baseUrl: string;
  /** Model ids it listed (possibly none: the server runs but nothing is pulled yet). */
  models: string[];
}

export const LOCAL_SERVERS: readonly { name: string; baseUrl: string }[] = [
  { name: 'Ollama', baseUrl: 'http://localhost:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://localhost:1234/v1' },
];

/** The model ids of an OpenAI-style `/models` answer, or undefined when it is not one. */
function modelIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((m) => (typeof (m as { id?: unknown })?.id === 'string' ? [(m as { id: string }).id] : []));
}

/** The server at `baseUrl` if it answers `GET {baseUrl}/models` like an OpenAI-compatible one in time. */
export async function probeServer(name: string, baseUrl: string, timeoutMs = 800): Promise<LocalServer | undefined> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (!res.ok) return undefined;
    const models = modelIds(await res.json());
    return models && { name, baseUrl, models };
  } catch {
    return undefined; // refused, timed out or not JSON: nothing usable there
  }
}

/** Every known local server that answers, in the order of `servers`. */
export async function probeLocalServers(servers = LOCAL_SERVERS, timeoutMs = 800): Promise<LocalServer[]> {
  const found = await Promise.all(servers.map((s) => probeServer(s.name, s.baseUrl, timeoutMs)));
  return found.filter((s): s is LocalServer => s !== undefined);
}
