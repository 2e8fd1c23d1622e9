// The markdown web_fetch's converter writes for the bench's pages, one file per page, so a change made
// for speed can be shown to write the same markdown: run it on the build before and after, then diff.
//   node bench/lib/web-convert-snapshot.mjs <outDir> <destDir>     (outDir: a tsc outDir, e.g. out)
//   diff -r <destBefore> <destAfter>
// Pages: the bench's 1 MB article and three more sizes and seeds of it. Each file holds the title, then
// whether a main content stood out, then the markdown.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { articlePage } from './article-page.mjs';

const [outDir, dest] = process.argv.slice(2);
if (!outDir || !dest) {
  console.error('usage: node bench/lib/web-convert-snapshot.mjs <outDir> <destDir>');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const { htmlToMarkdown } = require(path.resolve(outDir, 'src', 'core', 'web', 'html-to-markdown.js'));
fs.mkdirSync(dest, { recursive: true });
const pages = [[1024 * 1024, 7], [100 * 1024, 7], [300 * 1024, 99], [5000, 3]];
for (const [bytes, seed] of pages) {
  const r = htmlToMarkdown(articlePage(bytes, seed), 'http://127.0.0.1:8080/article');
  fs.writeFileSync(path.join(dest, `article-${bytes}-${seed}.md`), `${r.title}\n${r.readable}\n${r.markdown}`);
}
console.log(`${pages.length} pages written to ${dest}`);
