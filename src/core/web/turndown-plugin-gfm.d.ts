// The GFM plugin for turndown ships no types: what Pincer uses of it.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
}
