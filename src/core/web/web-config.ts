// Settings of the web tools (pincer.web.*, and pincer.browser.* for the browser tool). All are user
// settings only: a repository must not be able to open the fetcher to the machine's own services, widen
// or narrow which hosts it reaches, or choose which search provider receives the person's queries and keys.
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';

export const SEARCH_PROVIDER_IDS = ['exa', 'tavily', 'brave', 'duckduckgo'] as const;
export type SearchProviderId = (typeof SEARCH_PROVIDER_IDS)[number];

export interface WebConfig {
  /** Loopback (localhost, 127.0.0.1, ::1) may be fetched: a local development server. */
  allowLocalhost: boolean;
  allowDomains: string[];
  denyDomains: string[];
  /** The order providers are tried in; DuckDuckGo is always appended last (it needs no key). */
  searchProviders: SearchProviderId[];
  /** The browser tool (pincer.browser.*): which browser it starts, whether it shows, whose profile. */
  browser: { executablePath?: string; headless: boolean; profile?: string };
}

// A repository must not choose the program the browser tool starts, nor a profile with the person's logins.
export const WEB_USER_ONLY_SETTINGS = ['web.allowLocalhost', 'web.allowDomains', 'web.denyDomains', 'web.searchProviders',
  'browser.executablePath', 'browser.headless', 'browser.profile'] as const;

export function readWebConfig(get: (key: string) => unknown, warn: (message: string) => void): WebConfig {
  const globs = () => z.array(z.string().min(1));
  const order = readSetting(get, 'web.searchProviders', () => z.array(z.enum(SEARCH_PROVIDER_IDS)), ['exa', 'tavily', 'brave'] as SearchProviderId[], warn);
  return {
    allowLocalhost: readSetting(get, 'web.allowLocalhost', () => z.boolean(), false, warn),
    allowDomains: readSetting(get, 'web.allowDomains', globs, [], warn),
    denyDomains: readSetting(get, 'web.denyDomains', globs, [], warn),
    searchProviders: [...new Set([...order.filter((p) => p !== 'duckduckgo'), 'duckduckgo' as const])],
    browser: {
      executablePath: readSetting(get, 'browser.executablePath', () => z.string(), '', warn) || undefined,
      headless: readSetting(get, 'browser.headless', () => z.boolean(), true, warn),
      profile: readSetting(get, 'browser.profile', () => z.string(), '', warn) || undefined,
    },
  };
}
