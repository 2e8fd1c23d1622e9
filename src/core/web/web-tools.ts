// The web tools as the toolset builds them: made once per toolset, so that web_fetch's 15-minute
// cache outlives a rebuild after a settings change; both read the settings at each call.
import type { Tool } from '../tools/types';
import type { SearchProviderId, WebConfig } from './web-config';
import { createWebFetchTool } from './web-fetch';
import { createWebSearchTool } from './web-search';

export interface WebToolsPorts {
  config: () => WebConfig;
  /** A search provider's key from the person's secret storage; absent: none (DuckDuckGo only). */
  searchKey?: (provider: SearchProviderId) => Promise<string | undefined>;
}

export function createWebTools(p: WebToolsPorts): Tool[] {
  return [
    createWebFetchTool({ config: p.config }),
    createWebSearchTool({ config: p.config, key: p.searchKey ?? (async () => undefined) }),
  ] as Tool[];
}
