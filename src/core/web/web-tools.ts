// The web tools as the toolset builds them: made once per toolset, so that web_fetch's 15-minute
// cache and the browser's open pages outlive a rebuild after a settings change; all read the settings
// at each call.
import { createBrowserTool, type BrowserToolDeps } from '../browser/browser-tool';
import type { Tool } from '../tools/types';
import type { SearchProviderId, WebConfig } from './web-config';
import { createWebFetchTool } from './web-fetch';
import { createWebSearchTool } from './web-search';

export interface WebToolsPorts {
  config: () => WebConfig;
  /** A search provider's key from the person's secret storage; absent: none (DuckDuckGo only). */
  searchKey?: (provider: SearchProviderId) => Promise<string | undefined>;
  /** Who allows the browser's `evaluate` (evaluate-ask.ts); absent: evaluate is refused. */
  askEvaluate?: BrowserToolDeps['askEvaluate'];
}

export function createWebTools(p: WebToolsPorts): Tool[] {
  return [
    createWebFetchTool({ config: p.config }),
    createWebSearchTool({ config: p.config, key: p.searchKey ?? (async () => undefined) }),
    createBrowserTool({ config: p.config, askEvaluate: p.askEvaluate }),
  ] as Tool[];
}
